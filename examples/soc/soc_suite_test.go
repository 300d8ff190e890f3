package soc_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSoC(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "soc")
}
