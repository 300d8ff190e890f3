package sim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/sim"
)

// copiesSrc gathers flops into a register file and copies a flop to an
// output: both copies are compiled away (design.ShareCopies), so the flops
// and what copied them share storage.
const copiesSrc = `
module rf(input logic clk, input logic we, input logic [1:0] wa, input logic [1:0] ra,
          input logic [7:0] d, output logic [7:0] rd, output logic [7:0] out);
  wire [7:0] regs [0:3];
  assign regs[0] = 8'd0;
  for (genvar r = 1; r < 4; r++) begin : g_x
    logic [7:0] q = 8'(r);
    always_ff @(posedge clk) if (we && wa == r) q <= d;
    assign regs[r] = q;
  end
  assign rd = regs[ra];
  logic [7:0] acc = 8'd0;
  always_ff @(posedge clk) acc <= acc + 8'd1;
  assign out = acc;
endmodule
`

// TestCompiledAwayCopies: reading, depositing and ticking through signals
// whose copies were compiled away, on both backends: a deposit on a flop
// reaches what copied it (and comb logic reading that), a deposit on what
// a copy drove is refused with a CopyError (the copy would have undone it
// at the next settle; now it would move the flop).
func TestCompiledAwayCopies(t *testing.T) {
	for _, backend := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		t.Run(backend.String(), func(t *testing.T) {
			b := build(t, copiesSrc, func(c *compile.Builder) { c.Backend(backend) })
			shared := 0
			for _, sg := range b.p.Program.Signals {
				if sg.Shares != nil {
					shared++
				}
			}
			if shared != 4 {
				t.Fatalf("%d copies compiled away, want 4", shared)
			}
			b.set("ra", 2)
			b.step()
			b.expect("rd", 2)
			b.expect("g_x[2].q", 2)
			b.expect("out", 0)
			if err := b.s.Deposit(b.home("g_x[2].q"), 0, 0x5a); err != nil {
				t.Fatal(err)
			}
			b.step()
			b.expect("rd", 0x5a)
			mem, err := b.s.GetMem(b.home("regs"))
			if err != nil || mem[2] != 0x5a || mem[3] != 3 {
				t.Fatalf("regs %v, %v", mem, err)
			}
			for _, w := range []struct {
				name string
				elem int
				from string
			}{{"regs", 2, "rf.g_x[2].q"}, {"out", 0, "rf.acc"}} {
				err := b.s.Deposit(b.home(w.name), w.elem, 1)
				var ce *sim.CopyError
				if !errors.As(err, &ce) || ce.From != w.from || !strings.Contains(err.Error(), "write "+w.from+" instead") {
					t.Fatalf("Deposit(%s[%d]): %v, want a CopyError naming %s", w.name, w.elem, err, w.from)
				}
			}
			if err := b.s.SetMem(b.home("regs"), 0, []uint64{0, 0, 0, 0}); err == nil {
				t.Fatal("SetMem over copied elements accepted")
			}
			b.expect("g_x[2].q", 0x5a)
			b.set("we", 1)
			b.set("wa", 3)
			b.set("d", 0x77)
			b.set("ra", 3)
			b.tick("clk", 3)
			b.expect("rd", 0x77)
			b.expect("g_x[3].q", 0x77)
			b.expect("out", 3)
			b.expect("acc", 3)
			if err := b.s.Deposit(b.home("acc"), 0, 0x40); err != nil {
				t.Fatal(err)
			}
			b.step()
			b.expect("out", 0x40)
		})
	}
}
