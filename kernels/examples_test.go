package kernels

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// casezConcatMasks reports whether elaboration keeps the wildcard bits of
// a casez label written as a concatenation.
// The example UART, txd looped back to rxd by the driver: bytes sent
// through the transmit FIFO arrive in rx_data with rx_valid.
func TestUARTLoopback(t *testing.T) {
	d := elabDir(t, "../examples/uart/rtl", "uart_top", map[string]string{"FIFO_DEPTH": "4"},
		"uart_pkg.sv", "uart_fifo.sv", "uart_tx.sv", "uart_rx.sv", "uart_top.sv")
	p := mustBuild(t, d, Options{})
	for _, fused := range []bool{true, false} {
		dr := newDriver(t, p)
		dr.fused = fused
		tick := func() {
			dr.set("rxd", dr.getU("txd"))
			dr.step()
			dr.tick("clk")
		}
		dr.set("divisor", 5)
		dr.set("rst_n", 0)
		dr.set("rxd", 1)
		dr.step()
		tick()
		tick()
		dr.set("rst_n", 1)
		tick()
		msg := []byte{0x55, 0xa3, 0x00, 0xff}
		for _, c := range msg {
			for dr.getU("tx_ready") == 0 {
				tick()
			}
			dr.set("tx_data", uint64(c))
			dr.set("tx_valid", 1)
			tick()
			dr.set("tx_valid", 0)
		}
		var got []byte
		for cyc := 0; cyc < 2000 && len(got) < len(msg); cyc++ {
			if dr.getU("rx_valid") == 1 {
				got = append(got, byte(dr.getU("rx_data")))
				if dr.getU("rx_frame_err") != 0 {
					t.Errorf("framing error on byte %d", len(got)-1)
				}
				dr.set("rx_ready", 1)
				tick()
				dr.set("rx_ready", 0)
				continue
			}
			tick()
		}
		if string(got) != string(msg) {
			t.Fatalf("fused=%v: received % x, want % x", fused, got, msg)
		}
		if dr.status != sir.StatusOK {
			t.Fatalf("status %s", dr.status)
		}
	}
}

// The example SoC boots its firmware ($readmemh), prints through PUTC
// ($write) and ends with $display + $finish.
func TestSoCFirmware(t *testing.T) {
	if testing.Short() {
		t.Skip("SoC run skipped in -short mode")
	}
	d := elabDir(t, "../examples/soc/rtl", "soc_top", map[string]string{"FIRMWARE": `"../examples/soc/rtl/firmware.hex"`},
		"soc_pkg.sv", "rv_alu.v", "rv_regfile.v", "rv_core.v", "soc_bus.sv", "soc_ram.sv",
		"soc_timer.sv", "soc_gpio.sv", "soc_uart_lite.sv", "soc_simctrl.sv", "soc_top.sv")
	p := mustBuild(t, d, Options{})
	if len(p.Readmems) != 1 {
		t.Fatalf("readmems: %+v", p.Readmems)
	}
	dr := newDriver(t, p)
	dr.set("rst_n", 0)
	dr.step()
	for i := 0; i < 3; i++ {
		dr.tick("clk")
	}
	dr.set("rst_n", 1)
	dr.step()
	cycles := 0
	for ; cycles < 20000 && dr.status == sir.StatusOK; cycles++ {
		dr.tick("clk")
	}
	out := dr.out.String()
	t.Logf("%d cycles; output:\n%s", cycles, out)
	if dr.status != sir.StatusFinish {
		t.Fatalf("status %s (%v), want finish", dr.status, dr.err)
	}
	want := "weft soc: rv32i up\n[soc] finish: result=0x00021363 cycles=2519 instret=738\n"
	if !strings.Contains(out, want) {
		t.Fatalf("output:\n%s\nwant it to contain:\n%s", out, want)
	}
	if dr.getU("result") != 0x21363 || dr.getU("finished") != 1 {
		t.Fatalf("result %#x finished %d", dr.getU("result"), dr.getU("finished"))
	}
}
