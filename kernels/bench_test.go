package kernels

import "testing"

// BenchmarkInterpUARTCycle measures one clock cycle (two steps: posedge
// with Fused(e), negedge with a settle) of the example UART on sir/interp.
func BenchmarkInterpUARTCycle(b *testing.B) {
	d := elabDir(b, "../examples/uart/rtl", "uart_top", nil,
		"uart_pkg.sv", "uart_fifo.sv", "uart_tx.sv", "uart_rx.sv", "uart_top.sv")
	p := mustBuild(b, d, Options{})
	dr := newDriver(b, p)
	dr.set("divisor", 4)
	dr.set("rst_n", 1)
	dr.set("tx_valid", 1)
	dr.set("tx_data", 0x5a)
	dr.set("rx_ready", 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dr.set("rxd", dr.getU("txd"))
		dr.tick("clk")
	}
}

// BenchmarkInterpSoCCycle measures one clock cycle of the example SoC
// (RV32I core, 34k flop bits) on sir/interp.
func BenchmarkInterpSoCCycle(b *testing.B) {
	d := elabDir(b, "../examples/soc/rtl", "soc_top", map[string]string{"FIRMWARE": `"../examples/soc/rtl/firmware.hex"`},
		"soc_pkg.sv", "rv_alu.v", "rv_regfile.v", "rv_core.v", "soc_bus.sv", "soc_ram.sv",
		"soc_timer.sv", "soc_gpio.sv", "soc_uart_lite.sv", "soc_simctrl.sv", "soc_top.sv")
	p := mustBuild(b, d, Options{})
	dr := newDriver(b, p)
	dr.set("rst_n", 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dr.tick("clk")
	}
}
