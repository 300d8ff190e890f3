package axi_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAXI(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bench/axi")
}
