// Package uart is weft's example UART: a transmitter and a receiver (8N1,
// a divisor of clock cycles per bit), each behind a small FIFO, in
// SystemVerilog under rtl/. Its Ginkgo specs (uart_test.go) drive it with
// package bench; see README.md.
package uart

// Files are the RTL sources, relative to this directory, in compile order
// (the package first). The top module is Top.
var Files = []string{
	"rtl/uart_pkg.sv",
	"rtl/uart_fifo.sv",
	"rtl/uart_tx.sv",
	"rtl/uart_rx.sv",
	"rtl/uart_top.sv",
}

// Top is the top module.
const Top = "uart_top"
