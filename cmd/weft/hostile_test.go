package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/weft-hdl/weft/internal/tier"
)

// The hostile-input suite: every design in testdata/bad and one generated
// design per class of resource abuse go through `weft lint` and `weft run`
// in a child process bounded in memory and guarded against hangs. Whatever
// the input, weft must end with its own verdict (exit 0 or 1, a diagnostic
// for a failure): a panic, a fatal runtime error, a signal, a hang or a
// resident size past the memory bound fails the test.
//
// The child is a weft binary built without the race detector, so that its
// time and memory are what a user sees whatever flags run this test.
//
// The default tier runs each class of abuse at a size that shows it (a
// limit lowered as the file's "// flags:" line says, a smaller sum, a
// narrower product); the long tier (tier.Long) runs them at full size
// under the default limits.

const (
	// hostileTime is a hang guard, not a measure of speed: far beyond
	// what any input takes on a loaded machine (the slowest, at full
	// size, take under a minute of CPU).
	hostileTime   = 5 * time.Minute
	hostileMemory = 2 << 30 // resident bytes
)

var (
	hostileOnce sync.Once
	hostileBin  string
	hostileErr  error
)

// hostileWeft builds the weft binary for the suite once per test run.
func hostileWeft(t *testing.T) string {
	t.Helper()
	hostileOnce.Do(func() {
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			hostileErr = fmt.Errorf("no go tool at %s: %v", goTool, err)
			return
		}
		dir, err := os.MkdirTemp("", "weft-hostile-")
		if err != nil {
			hostileErr = err
			return
		}
		bin := filepath.Join(dir, "weft")
		cmd := exec.Command(goTool, "build", "-o", bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			hostileErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		hostileBin = bin
	})
	if hostileErr != nil {
		t.Fatal(hostileErr)
	}
	return hostileBin
}

// hostileResult is how one child run ended.
type hostileResult struct {
	code    int
	signal  string
	output  string
	elapsed time.Duration
	peak    int64 // resident bytes at the most, as sampled
	killed  string
}

// runBounded runs the weft binary with args in dir, killing it when it
// outlives hostileTime or its resident size passes hostileMemory.
func runBounded(t *testing.T, dir string, args ...string) hostileResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileTime)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, hostileWeft(t), args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var res hostileResult
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		// The kernel's peak is only known at exit; sampling the resident
		// size stops a child before it takes the machine down.
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				// VmHWM is the peak of the process's own memory since its
				// exec (wait4's maxrss would also count the parent's).
				hwm := procStatus(cmd.Process.Pid, "VmHWM:")
				peak.Store(max(peak.Load(), hwm))
				if hwm > hostileMemory {
					res.killed = fmt.Sprintf("resident size %d MiB passed the %d MiB bound", hwm>>20, hostileMemory>>20)
					cmd.Process.Kill()
					return
				}
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	res.elapsed = time.Since(start)
	res.output = out.String()
	if ctx.Err() != nil && res.killed == "" {
		res.killed = fmt.Sprintf("still running after %v: a hang?", hostileTime)
	}
	res.peak = peak.Load()
	if st := cmd.ProcessState; st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.signal = ws.Signal().String()
		}
		res.code = st.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return res
}

// procStatus reads a size field ("VmHWM:") of a process's /proc status in
// bytes (0 when it cannot be read, e.g. after the process ended).
func procStatus(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// checkEnded fails unless the child ended with weft's own verdict.
func checkEnded(t *testing.T, what string, r hostileResult) {
	t.Helper()
	tail := r.output
	if len(tail) > 3000 {
		tail = "..." + tail[len(tail)-3000:]
	}
	switch {
	case r.killed != "":
		t.Errorf("%s: %s\n%s", what, r.killed, tail)
	case r.signal != "":
		t.Errorf("%s: killed by %s\n%s", what, r.signal, tail)
	case strings.Contains(r.output, "panic:") || strings.Contains(r.output, "fatal error:") || strings.Contains(r.output, "goroutine "):
		t.Errorf("%s: crashed\n%s", what, tail)
	case r.code != 0 && r.code != 1:
		t.Errorf("%s: exit status %d, want 0 or 1\n%s", what, r.code, tail)
	case r.code == 1 && strings.TrimSpace(r.output) == "":
		t.Errorf("%s: failed without saying why", what)
	}
	if r.peak > hostileMemory {
		t.Errorf("%s: peak resident size %d MiB, bound %d MiB", what, r.peak>>20, hostileMemory>>20)
	}
}

// hostileDesigns writes the generated hostile designs into dir and returns
// their file names (relative to dir): one per class of abuse the front end,
// elaboration and the run time must survive.
func hostileDesigns(t *testing.T, dir string) []string {
	t.Helper()
	designs := map[string]string{}
	for _, n := range tier.Pick([]int{100_000}, []int{300_000, 1_000_000}) {
		designs[fmt.Sprintf("sum_%dk_terms.sv", n/1000)] = sumDesign(n)
	}
	designs["paren_100k_deep.sv"] = "module t(input logic clk, input logic a, output logic y);\n  assign y = " +
		strings.Repeat("(", 100_000) + "a" + strings.Repeat(")", 100_000) + ";\nendmodule\n"
	designs["include_dev_zero.sv"] = "`include \"/dev/zero\"\nmodule t(input logic clk); endmodule\n"
	designs["readmem_dev_zero.sv"] = "module t(input logic clk);\n  logic [7:0] m [4];\n  initial $readmemh(\"/dev/zero\", m);\nendmodule\n"
	designs["include_fifo.sv"] = "`include \"fifo.svh\"\nmodule t(input logic clk); endmodule\n"
	designs["readmem_fifo.sv"] = "module t(input logic clk);\n  logic [7:0] m [4];\n  initial $readmemh(\"fifo.svh\", m);\nendmodule\n"
	designs["replicate_6m.sv"] = "module t(input logic clk, output logic y);\n  assign y = ^{6000000{1'b1}};\nendmodule\n"
	designs["string_width.sv"] = "module t(input logic clk);\n  parameter S = \"" + strings.Repeat("w", 4000) + "\";\n  logic [S:0] x;\nendmodule\n"
	// 100000 bits take half a minute of CPU, 10000 bits under a second.
	words := tier.Pick(313, 3125)
	designs[fmt.Sprintf("wide_muldiv_%d.sv", 32*words)] = fmt.Sprintf(`module t(input logic clk);
  logic [%[1]d:0] a = {%[2]d{32'h9e3779b9}}, b = {%[2]d{32'h7f4a7c15}}, p, q, r;
  always_ff @(posedge clk) begin
    p <= a * b;
    q <= a / (b | 1);
    r <= a %% (b | 1);
    a <= a + p[%[1]d:0] + 1;
  end
endmodule
`, 32*words-1, words)
	designs["displays_100k.sv"] = `module t(input logic clk);
  always @(posedge clk) for (int i = 0; i < 100000; i++) $display("line %0d", i);
endmodule
`
	var args strings.Builder
	args.WriteString("module t(input logic clk);\n  logic [7:0] v = 1;\n  always @(posedge clk) $display(\"")
	args.WriteString(strings.Repeat("%0d ", 20_000))
	args.WriteString("\"")
	for range 20_000 {
		args.WriteString(", v")
	}
	args.WriteString(");\nendmodule\n")
	designs["display_20k_args.sv"] = args.String()
	var fns strings.Builder
	fns.WriteString("module t(input logic clk, input logic [31:0] a, output logic [31:0] q);\n")
	for i := range 30 {
		fmt.Fprintf(&fns, "  function automatic logic [31:0] f%d(logic [31:0] x); return f%d(x) + f%d(x + 1); endfunction\n", i, i+1, i+1)
	}
	fns.WriteString("  function automatic logic [31:0] f30(logic [31:0] x); return x ^ 32'h5a; endfunction\n")
	fns.WriteString("  always_ff @(posedge clk) q <= f0(a);\nendmodule\n")
	designs["inline_2pow30.sv"] = fns.String()
	designs["empty.sv"] = ""
	designs["utf8_bom.sv"] = "\xef\xbb\xbfmodule t(input logic clk); endmodule\n"
	designs["self_instance.sv"] = "module t(input logic clk); t u (.clk); endmodule\n"
	designs["truncated.sv"] = "module t(input logic clk);\n  logic [7:0] x;\n  always_ff @(posedge clk) begin\n    x <= x + "

	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.svh"), 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	var names []string
	for name, src := range designs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

func TestHostileInputs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the bounds read /proc")
	}
	bad, err := filepath.Glob("testdata/bad/*.sv")
	if err != nil {
		t.Fatal(err)
	}
	gen := t.TempDir()
	type input struct {
		dir, file string
		flags     []string
	}
	var inputs []input
	for _, f := range bad {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		// A limit the file lowers for a fast test of it; the long tier
		// runs it under the default.
		var flags []string
		if !tier.Long() {
			flags = lintFlags(t, f)
		}
		inputs = append(inputs, input{filepath.Dir(abs), filepath.Base(abs), flags})
	}
	for _, f := range hostileDesigns(t, gen) {
		inputs = append(inputs, input{gen, f, nil})
	}
	for _, in := range inputs {
		t.Run(strings.TrimSuffix(in.file, ".sv"), func(t *testing.T) {
			for _, args := range [][]string{
				append(append([]string{"lint"}, in.flags...), in.file),
				append(append([]string{"run", "--cycles", "10"}, in.flags...), in.file),
			} {
				r := runBounded(t, in.dir, args...)
				checkEnded(t, "weft "+strings.Join(args, " "), r)
				if testing.Verbose() {
					t.Logf("weft %s: exit %d in %v, peak %d MiB", strings.Join(args, " "), r.code, r.elapsed.Round(time.Millisecond), r.peak>>20)
				}
			}
		})
	}
}
