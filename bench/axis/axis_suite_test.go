package axis_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAxis(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bench/axis")
}
