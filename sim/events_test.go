package sim_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

func TestDisplayFormats(t *testing.T) {
	b := build(t, `
module t(input logic clk);
  logic [7:0] u = 8'd5;
  logic signed [7:0] s = -8'sd3;
  logic [15:0] h = 16'h0a3f;
  logic [8*5:1] str = "hello";
  logic [3:0] nib = 4'b1010;
  logic [99:0] wide = 100'h1_0000_0000_0000_0000_0000_0001;
  always @(posedge clk) begin
    $display("d=%d 0d=%0d 5d=%5d", u, u, u);
    $display("s=%d s0=%0d h=%h x=%x H=%H 0h=%0h", s, s, h, h, h, h);
    $display("b=%b 0b=%0b o=%o", nib, nib, u);
    $display("str=%s c=%c pct=%% m=%m", str, 8'd65);
    $display("wide=%h", wide);
    $display("t=%0t", $time);
    $display(u, s);
    $display(u, " x ", s, " h=%h", h, "!");
    $display("a", "b=%0d", u);
    $displayh(u, nib);
    $display("s=%s", "lit", " end");
    $display("%+d|", u, "%0d|", u);
    $write("no newline;");
    $write("%0d\n", u + 8'd1);
  end
endmodule`)
	b.tick("clk", 1)
	want := strings.Join([]string{
		"d=  5 0d=5 5d=    5",
		"s=  -3 s0=-3 h=0a3f x=0a3f H=0a3f 0h=a3f",
		"b=1010 0b=1010 o=005",
		"str=hello c=A pct=% m=t",
		"wide=1000000000000000000000001",
		"t=1",
		"  5  -3",
		// String literals after the first argument are formats too (the
		// expected lines are what Icarus Verilog prints).
		"  5 x   -3 h=0a3f!",
		"ab=5",
		"05a",
		"s=lit end",
		" +5|5|",
		"no newline;6",
		"",
	}, "\n")
	if got := b.out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

func TestDisplayOrder(t *testing.T) {
	// Two processes of one group, a second group and a comb process: the
	// events appear in the sequential kernel's order, every step.
	b := build(t, `
module t(input logic clk, input logic [3:0] v);
  always @(posedge clk) $display("A1 %0d", v);
  always @(posedge clk) begin $display("A2 %0d", v); $display("A3"); end
  always @(negedge clk) $display("N %0d", v);
  always_comb if (v == 4'd7) $display("C %0d", v);
endmodule`)
	b.set("v", 1)
	b.tick("clk", 1)
	b.set("v", 7)
	b.step()
	b.tick("clk", 1)
	want := "A1 1\nA2 1\nA3\nN 1\nC 7\n"
	got := b.out.String()
	// after v=7 the comb process may print again on later settles;
	// what matters is the order of what is there.
	if !strings.HasPrefix(got, want) {
		t.Fatalf("output:\n%s\nwant prefix:\n%s", got, want)
	}
	if !strings.Contains(got[len(want):], "A1 7\nA2 7\nA3\n") {
		t.Fatalf("second cycle out of order:\n%s", got)
	}
}

func TestFinish(t *testing.T) {
	b := build(t, `
module t(input logic clk, output logic [7:0] n);
  initial n = 0;
  always_ff @(posedge clk) n <= n + 8'd1;
  always @(posedge clk) if (n == 8'd3) begin $display("bye"); $finish(2); end
endmodule`)
	done, err := b.s.Tick(b.home("clk"), 10)
	var fe *sim.FinishError
	if !errors.Is(err, sim.ErrFinished) || !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a FinishError", err)
	}
	if fe.Task != sir.EvFinish || fe.Code != 2 || fe.Pos.Line != 5 || done != 4 || !b.s.Finished() {
		t.Fatalf("finish %+v after %d cycles", fe, done)
	}
	if b.out.String() != "bye\n" {
		t.Fatalf("output %q", b.out.String())
	}
	// the state stays readable; stepping again repeats the outcome
	b.expect("n", 4)
	if err := b.s.Step(); err != fe {
		t.Fatalf("Step after finish: %v", err)
	}
	if _, err := b.s.Tick(b.home("clk"), 1); err != fe {
		t.Fatalf("Tick after finish: %v", err)
	}
}

func TestFatalErrorStop(t *testing.T) {
	b := build(t, `
module t(input logic clk, input logic [1:0] mode);
  always @(posedge clk) begin
    if (mode == 2'd1) $error("bad value %0d", mode);
    if (mode == 2'd2) $warning("careful");
    if (mode == 2'd3) $fatal(3, "dead %0d", mode);
  end
endmodule`)
	b.set("mode", 1)
	b.tick("clk", 2) // $error continues
	b.set("mode", 2)
	b.tick("clk", 1)
	b.set("mode", 3)
	_, err := b.s.Tick(b.home("clk"), 1)
	var fe *sim.FinishError
	if !errors.As(err, &fe) || !fe.Fatal() || fe.Code != 3 {
		t.Fatalf("err = %v, want $fatal(3)", err)
	}
	want := "ERROR: t.sv:4: bad value 1\nERROR: t.sv:4: bad value 1\nWARNING: t.sv:5: careful\nFATAL: t.sv:6: dead 3\n"
	if b.out.String() != want {
		t.Fatalf("output:\n%s\nwant:\n%s", b.out.String(), want)
	}
	if b.s.Errors() != 3 {
		t.Fatalf("Errors() = %d, want 3", b.s.Errors())
	}

	b = build(t, `
module t(input logic go);
  always_comb if (go) $stop;
endmodule`)
	b.set("go", 1)
	if err := b.s.Step(); !errors.As(err, &fe) || fe.Task != sir.EvStop || fe.Kernel != "settle" {
		t.Fatalf("err = %v, want $stop in settle", err)
	}
}

func TestFinishInInitial(t *testing.T) {
	b := build(t, `
module t(input logic clk);
  initial begin $display("hi"); $finish; end
endmodule`)
	if !b.s.Finished() || b.out.String() != "hi\n" {
		t.Fatalf("finished %v, output %q", b.s.Finished(), b.out.String())
	}
	if err := b.s.Step(); !errors.Is(err, sim.ErrFinished) {
		t.Fatalf("Step: %v", err)
	}
}

func TestRingOverflow(t *testing.T) {
	b := build(t, `
module t(input logic clk);
  always @(posedge clk)
    for (int i = 0; i < 20; i++) $display("line %0d", i);
endmodule`, func(c *compile.Builder) { c.RingCap(256) })
	_, err := b.s.Tick(b.home("clk"), 1)
	var ro *sim.RingOverflowError
	if !errors.As(err, &ro) || ro.Dropped == 0 || ro.Kept == 0 || ro.Kept+ro.Dropped != 20 {
		t.Fatalf("err = %v, want a ring overflow of 20 events", err)
	}
	t.Log(err)
	var se *sim.Error
	if !errors.As(err, &se) || !strings.Contains(se.Kernel, "posedge t.clk") {
		t.Fatalf("err = %v, want it to name the kernel", err)
	}
	out := b.out.String()
	if !strings.HasPrefix(out, "line 0\nline 1\n") || !strings.Contains(out, "runtime events lost here") {
		t.Fatalf("output:\n%s", out)
	}
	// the run goes on
	b.out.Reset()
	if _, err := b.s.Tick(b.home("clk"), 1); !errors.As(err, &ro) {
		t.Fatalf("second tick: %v", err)
	}
}

func TestReadmem(t *testing.T) {
	dir := t.TempDir()
	hex := filepath.Join(dir, "m.hex")
	os.WriteFile(hex, []byte("// header\n0a 0b\n@4 /* skip */ 1_f\n  2x\n"), 0o644)
	bin := filepath.Join(dir, "m.bin")
	os.WriteFile(bin, []byte("101\n@7\n1_1\n"), 0o644)
	src := `
module t(input logic clk, output logic [7:0] a0, output logic [7:0] a5);
  logic [7:0] m [0:7];
  logic [7:0] r [7:0];
  initial begin
    $readmemh("` + hex + `", m);
    $readmemb("` + bin + `", r, 6, 7);
  end
  assign a0 = m[0];
  assign a5 = m[5];
endmodule`
	b := build(t, src)
	m, _ := b.s.GetMem(b.home("m"))
	if want := []uint64{0xa, 0xb, 0, 0, 0x1f, 0x20, 0, 0}; !equal(m, want) {
		t.Errorf("m = %x, want %x", m, want)
	}
	b.expect("a5", 0x20)
	r, _ := b.s.GetMem(b.home("r"))
	if r[6] != 5 || r[7] != 3 {
		t.Errorf("r = %x", r)
	}

	for _, tc := range []struct{ text, want string }{
		{"0a\nzz1g\n", "m.hex:2: bad hex word \"zz1g\""},
		{"0a\n@\n", "m.hex:2: bad address"},
		{"0 1 2 3 4 5 6 7\n\n8\n", "m.hex:3: more words than the range"},
		{"/* open\n\n", "m.hex:1: unterminated /* comment"},
		{"@9 1\n", "m.hex:1: address @9 outside"},
	} {
		os.WriteFile(hex, []byte(tc.text), 0o644)
		_, err := compile.NewBuilder().Source("t.sv", src).Output(&strings.Builder{}).Build()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "t.sv:6") {
			t.Errorf("%q: err = %v, want %q and the $readmemh position", tc.text, err, tc.want)
		}
	}
	os.Remove(hex)
	if _, err := compile.NewBuilder().Source("t.sv", src).Build(); err == nil || !strings.Contains(err.Error(), "m.hex") {
		t.Errorf("missing file: %v", err)
	}
}

func TestParseMem(t *testing.T) {
	ws, err := sim.ParseMem("f", []byte("1_0 // c\n@1F\tx1 Z?\n/* a\nb */ff"), true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		if w.At {
			got = append(got, "@"+itoa(w.Addr)+":"+itoa(w.Line))
		} else {
			got = append(got, w.Value.Text(16)+":"+itoa(w.Line))
		}
	}
	if want := "10:1 @31:2 1:2 0:2 ff:4"; strings.Join(got, " ") != want {
		t.Fatalf("got %s, want %s", strings.Join(got, " "), want)
	}
	if _, err := sim.ParseMem("f", []byte("102"), false); err == nil || err.Error() != `f:1: bad binary word "102"` {
		t.Fatalf("err = %v", err)
	}
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func itoa(i int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + func() string {
		s := ""
		if i == 0 {
			return "0"
		}
		for ; i > 0; i /= 10 {
			s = string(rune('0'+i%10)) + s
		}
		return s
	}())
}
