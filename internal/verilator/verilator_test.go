package verilator_test

import (
	"errors"
	"github.com/weft-hdl/weft/internal/tier"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weft-hdl/weft/internal/verilator"
)

const counterSrc = `
module counter(input logic clk);
  logic [7:0] n;   // no initializer: --x-initial 0 starts it at 0
  always_ff @(posedge clk) n <= n + 8'd3;
  always @(posedge clk) begin
    $display("%m n=%0d", n);
    assert (n != 8'd9) else $display("assertion seen at %0d", n);
    if (n == 8'd12) $finish;
  end
endmodule
module tb;
  bit clk = 0;
  counter c(.clk(clk));
  always #1 clk = ~clk;
endmodule
`

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestKitCompileRun(t *testing.T) {
	tier.LongOnly(t, "Verilator builds take 5-20 s of CPU each")
	if err := verilator.Available(); err != nil {
		t.Skipf("%v: the Verilator tests are skipped", err)
	}
	t0 := time.Now()
	kit, err := verilator.NewKit(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kit built in %v", time.Since(t0).Round(time.Millisecond))
	dir := t.TempDir()
	src := write(t, dir, "counter.sv", counterSrc)
	t0 = time.Now()
	bin, err := kit.Compile(dir, "tb", src)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("design built in %v", time.Since(t0).Round(time.Millisecond))
	out, err := verilator.Run(bin, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "TOP.tb.c n=0\nTOP.tb.c n=3\nTOP.tb.c n=6\nTOP.tb.c n=9\nassertion seen at 9\nTOP.tb.c n=12\n"
	if got := verilator.FinishMessage.ReplaceAllString(string(out), ""); got != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

func TestCompileRunBounded(t *testing.T) {
	tier.LongOnly(t, "Verilator builds take 5-20 s of CPU each")
	if err := verilator.Available(); err != nil {
		t.Skipf("%v: the Verilator tests are skipped", err)
	}
	if testing.Short() {
		t.Skip("a build without a kit takes seconds")
	}
	dir := t.TempDir()
	src := write(t, dir, "forever.sv", `
module tb;
  bit clk = 0;
  int n = 0;
  always #1 clk = ~clk;
  always @(posedge clk) n <= n + 1;
endmodule
`)
	bin, err := verilator.Compile(dir, "tb", src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = verilator.RunWithin(bin, dir, 500*time.Millisecond)
	var ve *verilator.Error
	if !errors.As(err, &ve) || !errors.Is(err, verilator.ErrBound) || ve.Tool != "simulation" {
		t.Errorf("a run without $finish: err = %v, want an *Error wrapping ErrBound", err)
	}
}

func TestCompileError(t *testing.T) {
	tier.LongOnly(t, "Verilator builds take 5-20 s of CPU each")
	if err := verilator.Available(); err != nil {
		t.Skipf("%v: the Verilator tests are skipped", err)
	}
	dir := t.TempDir()
	src := write(t, dir, "bad.sv", "module tb;\n  initial x = 1;\nendmodule\n")
	_, err := verilator.Compile(dir, "tb", src)
	var ve *verilator.Error
	if !errors.As(err, &ve) || ve.Tool != "verilator" || !strings.Contains(string(ve.Output), "bad.sv:2") {
		t.Errorf("err = %v, want a verilator *Error at bad.sv:2", err)
	}
}
