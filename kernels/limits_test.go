package kernels

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// A system task whose one record is larger than the whole event ring could
// never print: every kind is a build error naming the call's position, the
// size it needs and the ring's, and how to raise it. One that just fits
// builds.
func TestEventLargerThanRing(t *testing.T) {
	// A 24-byte record header plus, per 32-bit argument, 8 bytes of width
	// and flags and one 8-byte word.
	for _, task := range []string{"$display", "$write", "$error", "$warning", "$info", "$fatal", "$finish", "$stop"} {
		args, nargs := `("%d %d", a, b)`, 2
		switch task {
		case "$fatal":
			args = `(1, "%d %d", a, b)`
		case "$finish", "$stop":
			args, nargs = "", 0
		}
		need := 24 + 16*nargs
		src := fmt.Sprintf(`
module t(input logic clk, input logic [31:0] a, b);
  always_ff @(posedge clk) %s%s;
endmodule`, task, args)
		d := elabSrc(t, "t", src)
		if nargs > 0 {
			_, err := Build(d, Options{RingCap: need - 8})
			want := fmt.Sprintf("t0.sv:3:28: %s needs %d bytes in the runtime-event ring for one call, but the ring holds %d; raise it to at least %d bytes with --ring", task, need, need-8, need)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s with a %d-byte ring: err = %v, want it to contain %q", task, need-8, err, want)
			}
		}
		if _, err := Build(d, Options{RingCap: need}); err != nil {
			t.Errorf("%s with a %d-byte ring: %v", task, need, err)
		}
	}
}

// The same holds for partitioned kernels: every lane's ring has the
// sequential ring's capacity.
func TestEventLargerThanRingPartitioned(t *testing.T) {
	d := elabSrc(t, "t", `
module t(input logic clk, input logic [31:0] a, output logic [31:0] x, y);
  always_ff @(posedge clk) x <= x + a;
  always_ff @(posedge clk) y <= y ^ a;
  always_ff @(posedge clk) $display("%d %d %d", a, x, y);
endmodule`)
	for _, lanes := range []int{2, 4} {
		_, err := Build(d, Options{RingCap: 64, Partition: PartitionOptions{Lanes: lanes, Always: true}})
		if err == nil || !strings.Contains(err.Error(), "$display needs 72 bytes") {
			t.Errorf("%d lanes: err = %v", lanes, err)
		}
		if _, err := Build(d, Options{RingCap: 72, Partition: PartitionOptions{Lanes: lanes, Always: true}}); err != nil {
			t.Errorf("%d lanes: %v", lanes, err)
		}
	}
}

// The record format's limits are build errors too: its argument count is a
// u16, and one argument is at most sir.MaxEventArgWidth bits.
func TestEventFormatLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("module t(input logic clk, input logic a);\n  always_ff @(posedge clk) $write(\"\"")
	for range sir.MaxEventArgs + 1 {
		b.WriteString(", a")
	}
	b.WriteString(");\nendmodule\n")
	_, err := Build(elabSrc(t, "t", b.String()), Options{RingCap: 4 << 20})
	if want := fmt.Sprintf("t0.sv:2:28: $write has %d arguments; at most %d are supported", sir.MaxEventArgs+1, sir.MaxEventArgs); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	wide := fmt.Sprintf(`
module t(input logic clk);
  logic [%d:0] v;
  always_ff @(posedge clk) $display("%%h", v);
endmodule`, sir.MaxEventArgWidth)
	_, err = Build(elabSrc(t, "t", wide), Options{RingCap: 4 << 20})
	if want := fmt.Sprintf("t0.sv:4:28: $display argument 1 is %d bits wide; at most %d bits can be printed", sir.MaxEventArgWidth+1, sir.MaxEventArgWidth); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// State memory has a bound: past it the build fails before any kernel is
// lowered, naming the largest memories with their declarations.
func TestStateLimit(t *testing.T) {
	d := elabSrc(t, "t", `
module t(input logic clk, input logic [15:0] i, output logic [63:0] q);
  logic [63:0] big [0:65535];
  logic [63:0] tiny [0:15];
  always_ff @(posedge clk) begin big[i] <= big[i] + 1; tiny[i[3:0]] <= 1; q <= big[i]; end
endmodule`)
	_, err := Build(d, Options{MaxStateBytes: 256 << 10})
	want := "the design needs 576.2 KiB of state memory, over the limit of 256.0 KiB; largest: t.big at t0.sv:3:16 (512.0 KiB: 65536 elements of 64 bits), the runtime-event ring (--ring, 64.0 KiB); raise the limit with --max-state-mb"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v\nwant it to contain %q", err, want)
	}
	if _, err := Build(d, Options{MaxStateBytes: 1 << 20}); err != nil {
		t.Error(err)
	}
	if _, err := Build(d, Options{RingCap: 1<<30 + 8}); err == nil {
		t.Error("a ring past 1 GiB built")
	}
}

// The SIR instructions of a program are bounded: a design past the bound
// fails in bounded memory (the builder stops keeping instructions and
// registers), naming its widest variable when a wide one is the likely
// cause; under the bound it builds.
func TestInstructionLimit(t *testing.T) {
	d := elabSrc(t, "t", `
module t(input logic clk, input logic [15:0] s, output logic [99999:0] q);
  logic [99999:0] a, b;
  always_ff @(posedge clk) begin a <= a + 1; b <= b ^ (a << s); q <= a * b; end
endmodule`)
	for _, opts := range []Options{{MaxInsts: 20000}, {MaxInsts: 20000, Partition: PartitionOptions{Lanes: 2, Always: true}}} {
		_, err := Build(d, opts)
		want := "the design needs more than 20000 SIR instructions (the limit, reached building "
		hint := "its widest variable, t.q at t0.sv:2:72, is 100000 bits wide"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), hint) || !strings.Contains(err.Error(), "--max-insts") {
			t.Errorf("lanes %d: err = %v", opts.Partition.Lanes, err)
		}
	}
	p, err := Build(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, u := range p.Units() {
		n += u.NumInsts()
	}
	if n > 20*100000/64*len(p.Units()) {
		t.Errorf("%d instructions for 100000-bit add, shift and multiply in %d units", n, len(p.Units()))
	}
}
