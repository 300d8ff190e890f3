package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

const runUsage = `usage: weft run [--top T] [-I DIR] [-D NAME=VAL] [-G NAME=VAL] [--clock clk]
                [--reset NAME[:CYCLES]] [--reset-active high|low] [--cycles N]
                [--print SIG,...] [--threads N] [--partition auto|always|never]
                [--backend interp|native] [--stats] FILE...

Compiles the design and simulates it: drives the clock input low, holds the
reset input active for CYCLES clock cycles (default 4; active low when the
name ends in "n" or "_n", unless --reset-active says), releases it, then
runs N clock cycles (--cycles, default 1000) or until $finish. $display
output goes to stdout; then each --print signal is printed as NAME=0x... .
--stats adds one line: compile_ms=... cycles=... run_s=... cycles_per_s=...
(cycles after reset). Exit status: 0 when the run completes or ends with
$finish; 1 on errors, $fatal, $stop, or when $error was called; 2 for bad
usage or options not built yet.
`

// runCmd is `weft run`.
func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	df := addDesignFlags(fs)
	clockName := fs.String("clock", "clk", "clock input `NAME`")
	resetSpec := fs.String("reset", "", "reset input held active first: `NAME[:CYCLES]` (default 4 cycles)")
	resetActive := fs.String("reset-active", "", "reset polarity `high|low` (default: low when the name ends in n/_n)")
	cycles := fs.Int64("cycles", 1000, "clock cycles to run after reset (`N`)")
	var prints listFlag
	fs.Var(&prints, "print", "print `SIG,...` as NAME=0x... after the run (repeatable)")
	threads := fs.Int("threads", 1, "threads (`N`) per step: more than 1 builds partitioned kernels (see weft plan)")
	partition := fs.String("partition", "auto", "partitioned kernels: `auto|always|never`")
	backend := fs.String("backend", compile.DefaultBackend.String(), "kernel backend: `interp|native` (native: amd64 code where the JIT lowers a kernel, the interpreter elsewhere)")
	stats := fs.Bool("stats", false, "print compile time, cycles and cycles per second")
	files, code, ok := parseFiles(fs, args, runUsage, stderr)
	if !ok {
		return code
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "weft run: "+format+"\n", a...)
		return 2
	}
	if *cycles < 0 {
		return usageErr("--cycles %d: must be at least 0", *cycles)
	}
	if *threads < 1 {
		return usageErr("--threads %d: must be at least 1", *threads)
	}
	pmode, err := compile.ParsePartition(*partition)
	if err != nil {
		return usageErr("--partition %q: want auto, always or never", *partition)
	}
	bk, err := compile.ParseBackend(*backend)
	if err != nil {
		return usageErr("--backend %q: want interp or native", *backend)
	}
	var resetName string
	resetCycles := 4
	if *resetSpec != "" {
		name, n, hasN := strings.Cut(*resetSpec, ":")
		resetName = name
		if hasN {
			v, err := strconv.Atoi(n)
			if err != nil || v < 0 {
				return usageErr("--reset %q: CYCLES must be a number >= 0", *resetSpec)
			}
			resetCycles = v
		}
		if resetName == "" {
			return usageErr("--reset %q: missing the signal name", *resetSpec)
		}
	}
	activeLow := false
	switch *resetActive {
	case "":
		l := strings.ToLower(resetName)
		activeLow = strings.HasSuffix(l, "n")
	case "low":
		activeLow = true
	case "high":
	default:
		return usageErr("--reset-active %q: want high or low", *resetActive)
	}
	var printNames []string
	for _, p := range prints {
		for _, n := range strings.Split(p, ",") {
			if n = strings.TrimSpace(n); n != "" {
				printNames = append(printNames, n)
			}
		}
	}

	// Compile.
	b := df.builder(files).Threads(*threads).Partition(pmode).Backend(bk).Output(stdout)
	prog, err := b.Build()
	if err != nil {
		printBuildError(stderr, "weft run", err)
		return 1
	}
	defer prog.Close()
	for _, w := range prog.Warnings {
		fmt.Fprintln(stderr, w)
	}
	for _, n := range prog.Notes {
		fmt.Fprintf(stderr, "weft run: note: %s\n", n)
	}
	s := prog.Sim
	d := prog.DUT()

	// Resolve every name before running.
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "weft run: "+format+"\n", a...)
		return 1
	}
	clk, err := d.Signal(*clockName)
	if err != nil || !clk.IsInput() || clk.Width() != 1 || clk.IsArray() {
		return fail("no clock: %s has no 1-bit input %q (inputs: %s); name the clock with --clock", prog.Design.Top.Module, *clockName, inputList(d))
	}
	var rst *dut.Signal
	if resetName != "" {
		if rst, err = d.Signal(resetName); err != nil {
			return fail("--reset: %v", err)
		}
		if !rst.IsInput() || rst.Width() != 1 || rst.IsArray() {
			return fail("--reset: %s is not a 1-bit top-level input (inputs: %s)", resetName, inputList(d))
		}
	}
	var printSigs []*dut.Signal
	for _, n := range printNames {
		sig, err := d.Signal(n)
		if err != nil {
			return fail("--print: %v", err)
		}
		if sig.IsArray() {
			return fail("--print: %s is an array; print one element (%s[i])", n, n)
		}
		printSigs = append(printSigs, sig)
	}

	// Run: reset, then the cycles.
	code = 0
	var ran int64
	var runTime time.Duration
	err = func() error {
		if s.Finished() {
			return s.Finish()
		}
		if err := clk.Set(0); err != nil {
			return err
		}
		if rst != nil {
			if err := rst.Set(b2u(!activeLow)); err != nil {
				return err
			}
		}
		if err := s.Step(); err != nil {
			return err
		}
		if rst != nil {
			if _, err := s.Tick(clk.Home(), resetCycles); err != nil {
				return err
			}
			if err := rst.Set(b2u(activeLow)); err != nil {
				return err
			}
			if err := s.Step(); err != nil {
				return err
			}
		}
		start := time.Now()
		defer func() { runTime = time.Since(start) }()
		return runCycles(s, clk, *cycles, &ran, progressWriter(stderr))
	}()
	if err != nil {
		var fe *sim.FinishError
		switch {
		case errors.As(err, &fe):
			if fe.Task != sir.EvFinish {
				fmt.Fprintf(stderr, "weft run: %v\n", err)
				code = 1
			}
		default:
			fmt.Fprintf(stderr, "weft run: %v\n", err)
			code = 1
		}
	}
	for _, sig := range printSigs {
		v := sig.GetBig().Text(16)
		if n := (sig.Width() + 3) / 4; len(v) < n {
			v = strings.Repeat("0", n-len(v)) + v
		}
		fmt.Fprintf(stdout, "%s=0x%s\n", sig.Name(), v)
	}
	if *stats {
		rs := runTime.Seconds()
		cps := 0.0
		if rs > 0 {
			cps = float64(ran) / rs
		}
		fmt.Fprintf(stdout, "compile_ms=%d cycles=%d run_s=%.3f cycles_per_s=%.0f\n",
			prog.CompileTime.Milliseconds(), ran, rs, cps)
	}
	if n := s.Errors(); n > 0 && code == 0 {
		fmt.Fprintf(stderr, "weft run: the design reported %d error(s) ($error)\n", n)
		code = 1
	}
	return code
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// inputList names the top-level inputs of the design.
func inputList(d *dut.DUT) string {
	var ins []string
	for _, n := range d.Top().Signals() {
		if sig, err := d.Signal(n); err == nil && sig.IsInput() {
			ins = append(ins, n)
		}
	}
	if len(ins) == 0 {
		return "none"
	}
	return strings.Join(ins, ", ")
}

// runCycles ticks n cycles in chunks, counting them in *ran, and draws a
// progress bar through progress (nil: none) when the run is long.
func runCycles(s *sim.Simulator, clk *dut.Signal, n int64, ran *int64, progress io.Writer) error {
	start := time.Now()
	chunk := int64(1000)
	shown := false
	defer func() {
		if shown {
			fmt.Fprint(progress, "\r\033[K")
		}
	}()
	for *ran < n {
		c := min(chunk, n-*ran)
		t0 := time.Now()
		done, err := s.Tick(clk.Home(), int(c))
		*ran += int64(done)
		if err != nil {
			return err
		}
		// Aim at about 0.2 s per chunk.
		if el := time.Since(t0); el > 0 {
			chunk = max(1, int64(float64(c)*float64(200*time.Millisecond)/float64(el)))
		}
		if progress != nil {
			el := time.Since(start)
			eta := time.Duration(float64(el) * float64(n-*ran) / float64(*ran))
			if shown || el+eta > 2*time.Second {
				shown = true
				const width = 30
				f := float64(*ran) / float64(n)
				bar := strings.Repeat("#", int(f*width)) + strings.Repeat(".", width-int(f*width))
				fmt.Fprintf(progress, "\r[%s] %3.0f%% %d/%d cycles", bar, 100*f, *ran, n)
			}
		}
	}
	return nil
}

// progressWriter returns w when it is a terminal (a character device, which
// a pipe or a file is not), else nil. The mode check works on every OS,
// where a termios ioctl would tie the CLI to Linux.
func progressWriter(w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return w
}
