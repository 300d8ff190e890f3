package sim_test

import (
	"io"
	"testing"

	"github.com/weft-hdl/weft/compile"
)

// benchTick measures Tick on the design mk builds, per backend and with
// the fused tick loops (loop=tick) or every edge through the step loop
// (loop=step), so all four are compared in one run.
func benchTick(b *testing.B, mk func() *compile.Builder, setup func(*bench)) {
	for _, k := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		for _, loop := range []string{"tick", "step"} {
			b.Run("backend="+k.String()+"/loop="+loop, func(b *testing.B) { benchTick1(b, mk().Backend(k), setup, loop == "step") })
		}
	}
}

func benchTick1(b *testing.B, builder *compile.Builder, setup func(*bench), noTick bool) {
	p, err := builder.Output(io.Discard).NoCache().Build()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if noTick {
		p.Sim.DisableTick()
	}
	bb := &bench{t: b, p: p, s: p.Sim}
	if setup != nil {
		setup(bb)
	}
	clk := bb.home("clk")
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := p.Sim.Tick(clk, b.N); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkTickCounter measures the per-edge overhead of Tick: the design
// is one 32-bit counter.
func BenchmarkTickCounter(b *testing.B) {
	benchTick(b, func() *compile.Builder {
		return compile.NewBuilder().Source("c.sv", `
module c(input logic clk, output logic [31:0] q);
  always_ff @(posedge clk) q <= q + 32'd1;
endmodule`)
	}, nil)
}

// BenchmarkTickUART measures cycles/s on the example UART
// sending in loopback.
func BenchmarkTickUART(b *testing.B) {
	benchTick(b, uartBuilder, uartSetup)
}

// uartBuilder builds the example UART.
func uartBuilder() *compile.Builder {
	r := "../examples/uart/rtl/"
	return compile.NewBuilder().Files(r+"uart_pkg.sv", r+"uart_fifo.sv", r+"uart_tx.sv", r+"uart_rx.sv", r+"uart_top.sv")
}

// uartSetup resets the UART and keeps its transmitter busy.
func uartSetup(bb *bench) {
	bb.set("rst_n", 0)
	bb.step()
	bb.tick("clk", 2)
	bb.set("rst_n", 1)
	bb.set("divisor", 4)
	bb.set("tx_valid", 1)
	bb.set("tx_data", 0x5a)
	bb.set("rx_ready", 1)
	bb.step()
}

// BenchmarkTickFlops4k measures cycles/s on 4096+ flop bits:
// 64 instances of a 64-bit LFSR with a popcount accumulator.
func BenchmarkTickFlops4k(b *testing.B) {
	src := `
module lfsr #(parameter logic [63:0] SEED = 1) (input logic clk, input logic rst_n, output logic [6:0] ones);
  logic [63:0] s;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) s <= SEED;
    else s <= {s[62:0], s[63] ^ s[62] ^ s[60] ^ s[59]};
  assign ones = $countones(s);
endmodule
module top(input logic clk, input logic rst_n, output logic [15:0] sum);
  logic [6:0] o [64];
  for (genvar i = 0; i < 64; i++) begin : g
    lfsr #(.SEED(64'h9e3779b97f4a7c15 * (i + 1))) u (.clk, .rst_n, .ones(o[i]));
  end
  always_comb begin
    sum = 0;
    for (int i = 0; i < 64; i++) sum = sum + 16'(o[i]);
  end
endmodule`
	benchTick(b, func() *compile.Builder { return compile.NewBuilder().Source("f.sv", src).Top("top") }, func(bb *bench) {
		bb.set("rst_n", 0)
		bb.step()
		bb.set("rst_n", 1)
		bb.step()
		if s := bb.p.Design.Summary(); s.FlopBits < 4096 {
			b.Fatalf("only %d flop bits", s.FlopBits)
		}
	})
}
