package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeSV writes a design into a temporary directory and returns its path.
func writeSV(t *testing.T, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "d.sv")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func weft(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

const runCounter = `
module c(input logic clk, input logic rst_n, input logic rst, output logic [11:0] q, output logic [3:0] r);
  sub u(.clk(clk), .rst(rst), .r(r));
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) q <= 12'd0; else q <= q + 12'd1;
endmodule
module sub(input logic clk, input logic rst, output logic [3:0] r);
  logic [3:0] x;
  always_ff @(posedge clk) if (rst) x <= 4'd0; else x <= x + 4'd3;
  assign r = x;
endmodule`

func TestRunPrint(t *testing.T) {
	f := writeSV(t, runCounter)
	code, out, errs := weft("run", "--reset", "rst_n", "--cycles", "10", "--print", "q,u.x", "--print", "r", f)
	if code != 0 || out != "q=0x00a\nu.x=0xa\nr=0xa\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// active-high reset from the name; flags after the file
	code, out, errs = weft("run", f, "--reset", "rst:2", "--cycles", "5", "--print", "u.x")
	if code != 0 || out != "u.x=0xf\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// explicit polarity: rst_n "released" to 0 keeps the counter in reset
	code, out, _ = weft("run", f, "--reset", "rst_n:3", "--reset-active", "high", "--cycles", "5", "--print", "q")
	if code != 0 || out != "q=0x000\n" {
		t.Fatalf("reset-active high: exit %d, stdout %q", code, out)
	}
	code, out, _ = weft("run", f, "--reset", "rst_n:0", "--cycles", "7", "--print", "q", "--stats")
	if code != 0 || !regexp.MustCompile(`^q=0x007\ncompile_ms=\d+ cache=(hit|miss) phases_ms=[a-z_]+:[0-9.]+(,[a-z_]+:[0-9.]+)* cycles=7 run_s=\d+\.\d{3} cycles_per_s=\d+\n$`).MatchString(out) {
		t.Fatalf("--stats: exit %d, stdout %q", code, out)
	}
}

func TestRunFinishAndDisplay(t *testing.T) {
	f := writeSV(t, `
module m(input logic clk, output logic [7:0] n);
  initial begin n = 0; $display("start"); end
  always_ff @(posedge clk) n <= n + 8'd1;
  always @(posedge clk) begin
    $write("%0d,", n);
    if (n == 8'd4) begin $display("done"); $finish; end
  end
endmodule`)
	code, out, errs := weft("run", "--cycles", "100", "--print", "n", "--stats", f)
	if code != 0 || !strings.HasPrefix(out, "start\n0,1,2,3,4,done\nn=0x05\ncompile_ms=") || !strings.Contains(out, " cycles=5 ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestRunFatalAndError(t *testing.T) {
	f := writeSV(t, `
module m(input logic clk, output logic [7:0] n);
  initial n = 0;
  always_ff @(posedge clk) n <= n + 8'd1;
  always @(posedge clk) if (n == 8'd2) $fatal(1, "broken at %0d", n);
endmodule`)
	code, out, errs := weft("run", f)
	if code != 1 || !strings.Contains(out, "FATAL: "+f+":5: broken at 2") || !strings.Contains(errs, "$fatal") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	f = writeSV(t, `
module m(input logic clk, output logic [7:0] n);
  initial n = 0;
  always_ff @(posedge clk) n <= n + 8'd1;
  always @(posedge clk) if (n == 8'd2) $error("odd");
endmodule`)
	code, out, errs = weft("run", "--cycles", "5", "--print", "n", f)
	if code != 1 || !strings.Contains(out, "ERROR: "+f+":5: odd\nn=0x05\n") || !strings.Contains(errs, "1 error(s) ($error)") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestRunUsageAndErrors(t *testing.T) {
	f := writeSV(t, runCounter)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run"}, 2, "no input files"},
		{[]string{"run", f, "--lanes", "0"}, 2, "--lanes 0"},
		{[]string{"run", f, "--partition", "often"}, 2, "want auto, always or never"},
		{[]string{"run", f, "--backend", "fpga"}, 2, "want interp or native"},
		{[]string{"run", f, "--reset", "rst_n:x"}, 2, "CYCLES must be a number"},
		{[]string{"run", f, "--reset-active", "sideways"}, 2, "want high or low"},
		{[]string{"run", f, "--cycles", "-1"}, 2, "--cycles -1"},
		{[]string{"run", f, "--print", "qq"}, 1, `did you mean "q"`},
		{[]string{"run", f, "--reset", "rst_x"}, 1, `no signal "rst_x"`},
		{[]string{"run", f, "--reset", "q"}, 1, "not a 1-bit top-level input"},
		{[]string{"run", f, "--clock", "clock"}, 1, `no clock: c has no 1-bit input "clock" (inputs: clk, rst_n, rst)`},
		{[]string{"run", f, "--top", "nope"}, 1, "nope"},
		{[]string{"run", "/nonexistent.sv"}, 1, "nonexistent.sv"},
	} {
		code, _, errs := weft(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d (want %d), stderr:\n%s\nwant it to contain %q", tc.args[1:], code, tc.code, errs, tc.want)
		}
	}
	// lanes > 1 on a design too small to split runs sequentially and says
	// so; the hand-off cost is given, since the one this machine measured
	// (and cached for a day) decides whether the counters' lanes pay
	code, out, errs := weft("run", f, "--reset", "rst_n", "--lanes", "4", "--sync-cost", "4000", "--cycles", "3", "--print", "q")
	if code != 0 || out != "q=0x003\n" || !strings.Contains(errs, "no kernel is worth partitioning") {
		t.Errorf("--lanes 4: exit %d stdout %q stderr %q", code, out, errs)
	}
	// a compile error: position and caret
	bad := writeSV(t, "module m(input logic clk, output logic y);\n  assign y = nope;\nendmodule\n")
	code, _, errs = weft("run", bad)
	if code != 1 || !strings.Contains(errs, bad+":2:") || !strings.Contains(errs, "^") {
		t.Errorf("compile error: exit %d stderr:\n%s", code, errs)
	}
	// a clockless design
	comb := writeSV(t, "module m(input logic a, output logic y);\n  assign y = ~a;\nendmodule\n")
	code, _, errs = weft("run", comb, "--print", "y")
	if code != 1 || !strings.Contains(errs, "no clock") {
		t.Errorf("no clock: exit %d stderr:\n%s", code, errs)
	}
}

// The bundled SoC, end to end through the CLI, as its README runs it.
func TestRunSoC(t *testing.T) {
	if testing.Short() {
		t.Skip("SoC run skipped in -short mode")
	}
	t.Chdir("../..")
	r := "examples/soc/rtl/"
	var files []string
	for _, n := range []string{"soc_pkg.sv", "rv_alu.v", "rv_regfile.v", "rv_core.v", "soc_bus.sv", "soc_ram.sv",
		"soc_timer.sv", "soc_gpio.sv", "soc_uart_lite.sv", "soc_simctrl.sv", "soc_top.sv"} {
		files = append(files, r+n)
	}
	args := append([]string{"run", "--top", "soc_top", "-I", r, "--clock", "clk", "--reset", "rst_n",
		"--cycles", "20000", "--print", "result,finished,gpio_o", "--stats"}, files...)
	code, out, errs := weft(args...)
	t.Logf("stdout:\n%s", out)
	want := "weft soc: rv32i up\n[soc] finish: result=0x00021363 cycles=2519 instret=738\nresult=0x00021363\nfinished=0x1\ngpio_o=0xf8\n"
	if code != 0 || !strings.HasPrefix(out, want) {
		t.Fatalf("exit %d\nstdout:\n%s\nwant prefix:\n%s\nstderr:\n%s", code, out, want, errs)
	}
}

// The README's first command: the four-hart SMP SoC, shell globs and all.
func TestRunSMPSoC(t *testing.T) {
	if testing.Short() {
		t.Skip("SoC run skipped in -short mode")
	}
	t.Chdir("../..")
	a, _ := filepath.Glob("examples/soc/smp/soc_*.sv")
	b, _ := filepath.Glob("examples/soc/rtl/rv_*.v")
	for _, lanes := range []string{"1", "2"} {
		args := append([]string{"run", "--clock", "clk", "--reset", "rst_n", "--cycles", "1000000", "--print", "pass,result", "--stats", "--lanes", lanes}, append(a, b...)...)
		code, out, errs := weft(args...)
		want := "hart 0 of 4: hello\nhart 1 of 4: hello\nhart 2 of 4: hello\nhart 3 of 4: hello\nsmp: sum=21341334000 crc=7228f447 ok\n"
		if code != 0 || !strings.HasPrefix(out, want) || !strings.Contains(out, "[soc] all 4 harts done: PASS\npass=0x1\nresult=0x00000000\n") {
			t.Errorf("--lanes %s: exit %d\nstdout:\n%s\nstderr:\n%s", lanes, code, out, errs)
		}
	}
}

func TestRunUntilAndRadix(t *testing.T) {
	f := writeSV(t, `
module top(input logic clk, input logic rst, output logic done, output logic signed [7:0] v);
  logic [7:0] n;
  always_ff @(posedge clk) if (rst) n <= 0; else n <= n + 1;
  assign done = n == 8'd5;
  assign v = 8'sd3 - $signed(n);
endmodule`)
	code, out, errs := weft("run", "--reset", "rst", "--until", "done", "--print", "n,v", "--radix", "dec", f)
	want := "until: done is 0x1 after the rising edge of cycle 5\nn=5\nv=-2\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s\nstderr:\n%s", code, out, want, errs)
	}
	// Never true within the cycles: the run ends at --cycles, silently.
	code, out, _ = weft("run", "--reset", "rst", "--until", "done", "--cycles", "3", "--print", "v,n", f)
	if code != 0 || out != "v=0x00\nn=0x03\n" {
		t.Errorf("exit %d, stdout\n%s", code, out)
	}
	if code, _, errs = weft("run", "--until", "nosuch", f); code != 1 || !strings.Contains(errs, `--until: dut: no signal "nosuch"`) {
		t.Errorf("unknown --until signal: exit %d\n%s", code, errs)
	}
	if code, _, errs = weft("run", "--radix", "oct", f); code != 2 || !strings.Contains(errs, `--radix "oct": want hex or dec`) {
		t.Errorf("bad --radix: exit %d\n%s", code, errs)
	}
}

func TestRunStatsSaysWhatTheSelectorChose(t *testing.T) {
	f := writeSV(t, planCores)
	code, out, errs := weft("run", "--lanes", "2", "--partition", "always", "--cycles", "50", "--stats", "--pin", f)
	if code != 0 || !regexp.MustCompile(`(?m)^kernel=fused_posedge_top\.clk partitioned_calls=5\d/5\d$`).MatchString(out) {
		t.Errorf("always: exit %d, stdout\n%s\nstderr:\n%s", code, out, errs)
	}
	// The lane pool's account, the sync cost's origin; pinning worked.
	// The clock's lanes run free: a few pool runs for 100 edges.
	if !regexp.MustCompile(`(?m)^tick=top\.clk free_lanes=2 batches=\d edges=\d+$`).MatchString(out) {
		t.Errorf("always: no tick line:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^lanes=2 pool="runs=\d+ waits/run=[\d.]+ spins/run=[\d.]+ yields/run=[\d.e+-]+ parks/run=[\d.e+-]+ wakes/run=[\d.e+-]+"\n`+
		`sync_cost=600 sync="sync cost 600 units \(set, not measured\)"$`).MatchString(out) || strings.Contains(out, "pin_error") {
		t.Errorf("always: no pool and sync lines, or a pin error:\n%s", out)
	}
	// Auto mode on a design worth partitioning: the selector's state too.
	// The sync cost is pinned so that the plan does not depend on the
	// machine, and the kernels attached before the run.
	code, out, errs = weft("run", "--lanes", "2", "--reset", "rst_n", "--cycles", "50", "--stats", "--sync-cost", "600", "--attach-wait", "../../examples/cores/rtl/cores.sv")
	if code != 0 || !regexp.MustCompile(`(?m)^kernel=fused_posedge_cores\.clk partitioned_calls=\d+/\d+ selector="candidate \d of 2, `).MatchString(out) {
		t.Errorf("auto: exit %d, stdout\n%s\nstderr:\n%s", code, out, errs)
	}
}

// A design without inputs runs itself, as in every other simulator: its
// initial blocks run, and the run ends (exit 0, or 1 after $fatal or
// $error); naming a clock or cycles for it is still an error.
func TestRunSelfRunning(t *testing.T) {
	for _, tc := range []struct {
		src, out string
		code     int
	}{
		{"module t;\n  int a = 5;\n  initial begin $display(\"a*3=%0d\", a * 3); $finish; end\nendmodule\n", "a*3=15\n", 0},
		{"module t;\n  initial $display(\"no finish\");\nendmodule\n", "no finish\n", 0},
		{"module t;\n  logic [3:0] v;\n  initial begin v = 4'd9; $display(\"v=%0d\", v); end\nendmodule\n", "v=9\nv=0x9\n", 0},
		{"module t;\n  initial $fatal(1, \"stop\");\nendmodule\n", "", 1},
	} {
		f := writeSV(t, tc.src)
		args := []string{"run", f}
		if strings.Contains(tc.src, "logic [3:0] v") {
			args = append(args, "--print", "v")
		}
		code, out, errs := weft(args...)
		if code != tc.code || !strings.HasPrefix(out, tc.out) {
			t.Errorf("%s: exit %d (want %d), stdout %q (want %q), stderr:\n%s", tc.src, code, tc.code, out, tc.out, errs)
		}
	}
	f := writeSV(t, "module t;\n  initial $display(\"hi\");\nendmodule\n")
	if code, _, errs := weft("run", "--cycles", "5", f); code != 1 || !strings.Contains(errs, "no clock") {
		t.Errorf("--cycles without a clock: exit %d\n%s", code, errs)
	}
}
