package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

const runUsage = `usage: weft run [--top T] [-I DIR] [-D NAME=VAL] [-G NAME=VAL] [--clock clk]
                [--reset NAME[:CYCLES]] [--reset-active high|low] [--cycles N]
                [--until SIG] [--print SIG,...] [--radix hex|dec] [--lanes N]
                [--partition auto|always|never] [--sync-cost UNITS] [--attach-wait] [--pin]
                [--backend interp|native] [--ring BYTES] [--max-state-mb N]
                [--max-insts N] [--stats] [-Wno-CODE]... FILE...

Compiles the design and simulates it: drives the clock input low, holds the
reset input active for CYCLES clock cycles (default 4; active low when the
name ends in "n" or "_n", unless --reset-active says), releases it, then
runs N clock cycles (--cycles, default 1000) or until $finish, or with
--until SIG until the first clock edge after which SIG is non-zero (a
"done" flag; the run then goes edge by edge, without the batched tick
loop). $display output goes to stdout; then each --print signal is
printed as NAME=0x... (--radix dec: NAME=123, signed signals signed).
--stats adds one line: compile_ms=... cache=hit|miss phases_ms=parse:...,elab:...
(each compile phase) cycles=... run_s=... cycles_per_s=...
(cycles after reset), then one line per kernel that has a partitioned
alternative (--lanes): kernel=NAME partitioned_calls=RAN/CALLS and, in
auto mode, selector="..." (the candidate it runs and why); a line
tick=CLOCK free_lanes=N batches=B edges=E (and selector="...") per tick
loop whose lanes run free (no lane touches what another writes, so one
lane-pool call runs a whole batch of edges); and a line lanes=N
pool="..." with the lane pool's waits, yields, parks and wake-ups per
run, and sync_cost=UNITS sync="..." saying where the planner's
cross-lane charge came from.
In auto mode (the default) with more than one lane, the lane count is
capped to the CPUs the process may use (a note says so), the planner
charges a cross-lane hand-off measured on this machine (--sync-cost sets
it), and the partitioned kernels compile in the background while the run
starts on the sequential ones (--attach-wait compiles them first). --pin
pins lane threads 1.. to the CPUs the process may use. Warnings are those of weft lint, with their codes;
-Wno-CODE and lint_off comments turn them off (weft lint -h lists the
codes). Exit status: 0 when the run completes or ends with
$finish; 1 on errors, $fatal, $stop, when $error was called, or when
runtime events were lost because one clock edge printed more than --ring
holds; 2 for bad usage.
`

// runCmd is `weft run`.
func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	df := addDesignFlags(fs)
	cf := addClockFlags(fs)
	lf := addLimitFlags(fs)
	cycles := fs.Int64("cycles", 1000, "clock cycles to run after reset (`N`)")
	var prints listFlag
	fs.Var(&prints, "print", "print `SIG,...` as NAME=0x... after the run (repeatable)")
	until := fs.String("until", "", "stop at the first clock edge after which `SIG` is non-zero")
	radix := fs.String("radix", "hex", "--print values in `hex|dec`")
	threads := fs.Int("lanes", 1, "lanes (threads, `N`) per step: more than 1 builds partitioned kernels (see weft plan)")
	fs.IntVar(threads, "threads", 1, "the same as --lanes (`N`)")
	partition := fs.String("partition", "auto", "partitioned kernels: `auto|always|never`")
	backend := fs.String("backend", compile.DefaultBackend.String(), "kernel backend: `interp|native` (native: amd64 code where the JIT lowers a kernel, the interpreter elsewhere)")
	stats := fs.Bool("stats", false, "print compile time, cycles and cycles per second")
	sf := addSyncFlag(fs)
	attachWait := fs.Bool("attach-wait", false, "compile the partitioned kernels before the run starts (auto mode; default: in the background while it runs)")
	pin := fs.Bool("pin", false, "pin lane threads 1.. to the CPUs the process may use")
	files, code, ok := parseFiles(fs, args, runUsage, stderr)
	if !ok {
		return code
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "weft run: "+format+"\n", a...)
		return 2
	}
	if err := df.checkWarningFlags(); err != nil {
		return usageErr("%v", err)
	}
	if *cycles < 0 {
		return usageErr("--cycles %d: must be at least 0", *cycles)
	}
	if *threads < 1 {
		return usageErr("--lanes %d: must be at least 1", *threads)
	}
	pmode, err := compile.ParsePartition(*partition)
	if err != nil {
		return usageErr("--partition %q: want auto, always or never", *partition)
	}
	bk, err := compile.ParseBackend(*backend)
	if err != nil {
		return usageErr("--backend %q: want interp or native", *backend)
	}
	if err := cf.parse(); err != nil {
		return usageErr("%v", err)
	}
	if *radix != "hex" && *radix != "dec" {
		return usageErr("--radix %q: want hex or dec", *radix)
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
	b := sf.apply(lf.apply(df.builder(files))).Lanes(*threads).Partition(pmode).Backend(bk).Output(stdout).Progress(progressWriter(stderr))
	b.SimOptions(sim.Options{AttachWait: *attachWait, PinLanes: *pin})
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
	clk, rst, err := cf.signals(prog)
	selfRunning := err != nil && inputList(d) == "none" && !given["clock"] && !given["reset"] && !given["until"] && !given["cycles"]
	if err != nil && !selfRunning {
		return fail("%v", err)
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
	var untilSig *dut.Signal
	if *until != "" {
		if untilSig, err = prog.DUT().Signal(*until); err != nil {
			return fail("--until: %v", err)
		}
		if untilSig.IsArray() {
			return fail("--until: %s is an array; name one element (%s[i])", *until, *until)
		}
	}

	// Run: reset, then the cycles.
	code = 0
	var ran int64
	var runTime time.Duration
	err = func() error {
		if s.Finished() {
			return s.Finish()
		}
		if selfRunning {
			// A design without inputs runs itself: its initial blocks
			// ran when it was built, and there is no clock to tick.
			return nil
		}
		if err := cf.reset(s, clk, rst); err != nil {
			return err
		}
		start := time.Now()
		defer func() { runTime = time.Since(start) }()
		if untilSig != nil {
			return runUntil(s, clk, untilSig, *cycles, &ran, stdout)
		}
		return runCycles(s, clk, *cycles, &ran, progressWriter(stderr))
	}()
	var overflow *sim.RingOverflowError
	if err != nil {
		var fe *sim.FinishError
		switch {
		case errors.As(err, &fe):
			if fe.Task != sir.EvFinish {
				fmt.Fprintf(stderr, "weft run: %v\n", err)
				code = 1
			}
		case errors.As(err, &overflow):
			fmt.Fprintf(stderr, "weft run: error: %v\n", err)
			code = 1
		default:
			fmt.Fprintf(stderr, "weft run: %v\n", err)
			code = 1
		}
	}
	// Events lost in the edge that ran $finish leave no error: the finish
	// wins, and only the count tells.
	if n := s.DroppedEvents(); n > 0 && overflow == nil {
		fmt.Fprintf(stderr, "weft run: error: %d runtime events were lost: the event ring (%d bytes of records) overflowed; raise it with --ring\n", n, s.RingCap())
		code = 1
	}
	for _, sig := range printSigs {
		fmt.Fprintf(stdout, "%s=%s\n", sig.Name(), formatValue(sig, *radix))
	}
	if *stats {
		rs := runTime.Seconds()
		cps := 0.0
		if rs > 0 {
			cps = float64(ran) / rs
		}
		cached := "miss"
		if prog.FromCache {
			cached = "hit"
		}
		var phases []string
		for _, ph := range prog.Phases {
			phases = append(phases, fmt.Sprintf("%s:%.1f", strings.ReplaceAll(ph.Name, " ", "_"), float64(ph.Time.Microseconds())/1000))
		}
		fmt.Fprintf(stdout, "compile_ms=%d cache=%s phases_ms=%s cycles=%d run_s=%.3f cycles_per_s=%.0f\n",
			prog.CompileTime.Milliseconds(), cached, strings.Join(phases, ","), ran, rs, cps)
		for _, st := range s.ParallelStats() {
			fmt.Fprintf(stdout, "kernel=%s partitioned_calls=%d/%d", strings.ReplaceAll(st.Kernel, " ", "_"), st.Parallel, st.Calls)
			if st.Selector != "" {
				fmt.Fprintf(stdout, " selector=%q", st.Selector)
			}
			fmt.Fprintln(stdout)
		}
		for _, st := range s.LaneTickStats() {
			fmt.Fprintf(stdout, "tick=%s free_lanes=%d batches=%d edges=%d", strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(st.Name, "tick "), " lanes"), " ", "_"), st.Lanes, st.Batches, st.Edges)
			if st.Selector != "" {
				fmt.Fprintf(stdout, " selector=%q", st.Selector)
			}
			fmt.Fprintln(stdout)
		}
		if ps := s.PoolStats(); ps.Runs > 0 {
			fmt.Fprintf(stdout, "lanes=%d pool=%q\n", s.Lanes(), ps.String())
		}
		if l := syncLine(prog); l != "" {
			fmt.Fprintf(stdout, "sync_cost=%d sync=%q\n", prog.SyncCost, l)
		}
		if err := s.PinErr(); err != nil {
			fmt.Fprintf(stdout, "pin_error=%q\n", err.Error())
		}
		if err := s.ParallelErr(); err != nil {
			fmt.Fprintf(stdout, "parallel_error=%q\n", err.Error())
		}
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

// formatValue is sig's value as --print shows it: 0x and every hex digit of
// its width, or decimal (two's complement read as negative for a signed
// signal).
func formatValue(sig *dut.Signal, radix string) string {
	v := sig.GetBig()
	if radix == "dec" {
		if w := sig.Width(); sig.Signed() && v.Bit(w-1) == 1 {
			v = new(big.Int).Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(w)))
		}
		return v.String()
	}
	t := v.Text(16)
	if n := (sig.Width() + 3) / 4; len(t) < n {
		t = strings.Repeat("0", n-len(t)) + t
	}
	return "0x" + t
}

// runUntil runs up to n cycles edge by edge and stops after the first edge
// that leaves until non-zero, saying on out at which cycle and edge.
func runUntil(s *sim.Simulator, clk, until *dut.Signal, n int64, ran *int64, out io.Writer) error {
	for *ran < n {
		for _, level := range []uint64{1, 0} {
			if err := clk.Set(level); err != nil {
				return err
			}
			if err := s.Step(); err != nil {
				if level == 0 {
					*ran++
				}
				return err
			}
			if until.GetBig().Sign() != 0 {
				edge := "rising"
				if level == 0 {
					edge = "falling"
					*ran++
				}
				fmt.Fprintf(out, "until: %s is %s after the %s edge of cycle %d\n", until.Name(), formatValue(until, "hex"), edge, *ran+b2i(level == 1))
				return nil
			}
		}
		*ran++
	}
	return nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
