package cores_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCores(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cores")
}
