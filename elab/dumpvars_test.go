package elab

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

const dumpHierSrc = `
module leaf(input logic clk, input logic [3:0] d, output logic [3:0] q);
  logic [3:0] r;
  always_ff @(posedge clk) r <= d;
  assign q = r;
endmodule
module mid(input logic clk, input logic [3:0] d, output logic [3:0] q);
  leaf u_leaf(.clk, .d, .q);
  initial $dumpvars(1, u_leaf.r);
endmodule
module top #(parameter bit DUMP = 1) (input logic clk, input logic [3:0] a, output logic [3:0] y);
  logic [3:0] w [0:1];
  for (genvar i = 0; i < 2; i++) begin : g
    mid u(.clk, .d(a + 4'(i)), .q(w[i]));
  end
  assign y = w[0] ^ w[1];
  initial begin
    $dumpfile("waves.vcd");
    $dumpvars(2, g[1].u, top.g[0].u.u_leaf);
    if (DUMP) $dumpvars(0, top);
    $dumpvars(0, y, w);
    $dumpvars;
  end
endmodule
`

// $dumpfile and $dumpvars in initial blocks are recorded with their
// arguments resolved to instance paths and signal names: downwards from the
// calling scope, upwards by the top's module name, through generate
// iterations, and from a child instance (relative to it).
func TestDumpvarsRecorded(t *testing.T) {
	d, diags := elabString(t, dumpHierSrc, Options{Top: "top"})
	if d == nil || diags.ErrorCount() > 0 {
		t.Fatalf("elaboration failed: %v", diags.Err())
	}
	if d.Dump == nil {
		t.Fatal("Design.Dump is nil")
	}
	if d.Dump.File != "waves.vcd" || d.Dump.FilePos.Line != 18 {
		t.Errorf("file %q at %s, want waves.vcd at line 18", d.Dump.File, d.Dump.FilePos)
	}
	var got []string
	for _, v := range d.Dump.Vars {
		got = append(got, fmt.Sprintf("%d %q %q @%d", v.Levels, v.Scopes, v.Signals, v.Pos.Line))
	}
	want := []string{
		`1 [] ["top.g[0].u.u_leaf.r"] @9`,
		`1 [] ["top.g[1].u.u_leaf.r"] @9`,
		`2 ["top.g[1].u" "top.g[0].u.u_leaf"] [] @19`,
		`0 ["top"] [] @20`,
		`0 [] ["top.y" "top.w"] @21`,
		`0 [] [] @22`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("dumpvars:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var warns []string
	for _, w := range diags.Warnings() {
		warns = append(warns, w.Msg)
	}
	if !strings.Contains(strings.Join(warns, "\n"), "'w' is an unpacked array: it is dumped element by element") {
		t.Errorf("no warning about the array argument; warnings: %q", warns)
	}
	if !strings.Contains(design.Dump(d), `dumpfile "waves.vcd"`) {
		t.Errorf("design.Dump does not show the request")
	}
}

// Calls weft cannot honour are warnings that say what is ignored, and
// record nothing.
func TestDumpvarsIgnored(t *testing.T) {
	cases := []struct{ body, warn string }{
		{"always @(posedge clk) $dumpvars;", "$dumpvars outside an initial block is ignored"},
		{"initial if (a[0]) $dumpvars;", "$dumpvars under a run-time condition or in a loop is ignored"},
		{"initial case (a) 4'd1: $dumpfile(\"x.vcd\"); endcase", "$dumpfile under a run-time condition or in a loop is ignored"},
		{"initial $dumpvars(0, nosuch);", "$dumpvars argument 'nosuch' names no instance or signal seen from m; it is ignored"},
		{"initial $dumpvars(0, a + 1);", "$dumpvars argument is ignored: it must name an instance or a signal"},
		{"initial $dumpoff;", "$dumpoff is ignored (weft honours $dumpfile and $dumpvars of initial blocks"},
		{"initial $dumpflush;", "$dumpflush is ignored"},
	}
	for _, c := range cases {
		t.Run(c.body, func(t *testing.T) {
			src := "module m(input logic clk, input logic [3:0] a, output logic [3:0] y);\n  assign y = a;\n  " + c.body + "\nendmodule\n"
			d, diags := elabString(t, src, Options{})
			if d == nil || diags.ErrorCount() > 0 {
				t.Fatalf("elaboration failed: %v", diags.Err())
			}
			var warns []string
			for _, w := range diags.Warnings() {
				warns = append(warns, w.Msg)
			}
			if !strings.Contains(strings.Join(warns, "\n"), c.warn) {
				t.Errorf("warnings %q, want one containing %q", warns, c.warn)
			}
			if d.Dump != nil && len(d.Dump.Vars) > 0 {
				t.Errorf("recorded %+v", d.Dump.Vars)
			}
		})
	}
	// A negative level is an error.
	_, diags := elabString(t, "module m; initial $dumpvars(-1, m); endmodule\n", Options{})
	if diags.Err() == nil || !strings.Contains(diags.Err().Error(), "$dumpvars levels must not be negative") {
		t.Errorf("negative levels: %v", diags.Err())
	}
}

// The design keeps the `timescale with the finest precision; none leaves
// Design.Timescale nil.
func TestTimescaleRecorded(t *testing.T) {
	d := mustElab(t, "`timescale 1ns/1ps\nmodule a; endmodule\n`timescale 1us/100fs\nmodule m; a u(); endmodule\n`timescale 1ns/1ns\n")
	if d.Timescale == nil || d.Timescale.Precision != -13 || d.Timescale.Unit != -6 || d.Timescale.Pos.Line != 3 {
		t.Errorf("timescale %+v, want 1us/100fs from line 3", d.Timescale)
	}
	if d.Timescale != nil && d.Timescale.String() != "1us/100fs" {
		t.Errorf("String() = %q", d.Timescale.String())
	}
	if d := mustElab(t, "module m; endmodule\n"); d.Timescale != nil || d.Dump != nil {
		t.Errorf("timescale %+v, dump %+v; want both nil", d.Timescale, d.Dump)
	}
}
