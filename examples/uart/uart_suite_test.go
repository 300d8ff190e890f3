package uart_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestUART(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "UART")
}
