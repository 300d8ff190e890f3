package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/lanepool"
	"github.com/weft-hdl/weft/sim"
)

const benchUsage = `usage: weft bench [--top T] [-I DIR] [-D NAME=VAL] [-G NAME=VAL] [--clock clk]
                  [--reset NAME[:CYCLES]] [--reset-active high|low] [--cycles N] [--runs R]
                  [--lanes N,...] [--partition auto|always] [--sync-cost UNITS] [--pin] [--backend interp|native]
                  [--ring BYTES] [--max-state-mb N] [--max-insts N] FILE...

Measures simulation speed: for each lane count (--lanes, default 1,2)
it compiles the design, resets it as 'weft run' does and warms up; then it
times R rounds (--runs, default 5) in which each lane count runs N clock
cycles (--cycles, default 20000) once, after an untimed twentieth of that,
interleaved (each round starts from the next lane count), so a host that
slows down mid-benchmark shifts every row alike. Per lane count it prints
one row: the median cycles per second (and the range), the ratio to the
first row, the plan's estimated speedup of the clock's kernel, and the
share of its calls that ran partitioned (the selector's choice in auto
mode). Partitioned kernels compiled in the background (auto mode) are
attached before the warm-up, so the rows show the selector at work. Below
the table, per lane count above 1: each partitioned kernel's estimated
speedup (the plan's single cost over its makespan) beside the measured one
(the selector's medians, sequential over partitioned; auto mode) and what
the selector chose; the lane pool's waits, yields, parks and wake-ups and
the process's context switches per cycle; and the sync cost the plan
charged. Ratios come from one process on one machine; on a shared machine
quote medians. The design must run free for the cycles ($finish ends the
benchmark with an error).
`

// benchCmd is `weft bench`.
func benchCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	df := addDesignFlags(fs)
	cf := addClockFlags(fs)
	lf := addLimitFlags(fs)
	cycles := fs.Int("cycles", 20000, "clock cycles per timed run (`N`)")
	runs := fs.Int("runs", 5, "timed runs per lane count (`R`)")
	threadList := fs.String("lanes", "1,2", "lane counts to compare (`N,...`, 1 to 64)")
	fs.StringVar(threadList, "threads", "1,2", "the same as --lanes (`N,...`)")
	partition := fs.String("partition", "auto", "partitioned kernels: `auto|always`")
	backend := fs.String("backend", compile.DefaultBackend.String(), "kernel backend: `interp|native`")
	sf := addSyncFlag(fs)
	pin := fs.Bool("pin", false, "pin lane threads 1.. to the CPUs the process may use")
	files, code, ok := parseFiles(fs, args, benchUsage, stderr)
	if !ok {
		return code
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "weft bench: "+format+"\n", a...)
		return 2
	}
	if *cycles < 1 {
		return usageErr("--cycles %d: must be at least 1", *cycles)
	}
	if *runs < 1 {
		return usageErr("--runs %d: must be at least 1", *runs)
	}
	threads, err := parseThreads(*threadList)
	if err != nil {
		return usageErr("--lanes %q: %v", *threadList, err)
	}
	pmode, err := compile.ParsePartition(*partition)
	if err != nil || pmode == compile.PartitionNever {
		return usageErr("--partition %q: want auto or always", *partition)
	}
	bk, err := compile.ParseBackend(*backend)
	if err != nil {
		return usageErr("--backend %q: want interp or native", *backend)
	}
	if err := cf.parse(); err != nil {
		return usageErr("%v", err)
	}

	fail := func(t int, err error) int {
		var be *benchError
		if errors.As(err, &be) {
			fmt.Fprintf(stderr, "weft bench: lanes=%d: %v\n", t, be.err)
		} else {
			printBuildError(stderr, "weft bench", err)
		}
		return 1
	}
	insts := make([]*benchInst, 0, len(threads))
	defer func() {
		for _, in := range insts {
			in.prog.Close()
		}
	}()
	for _, t := range threads {
		b := sf.apply(lf.apply(df.builder(files))).Lanes(t).Partition(pmode).Backend(bk).SimOptions(sim.Options{PinLanes: *pin})
		in, err := benchStart(b, cf, *cycles)
		if err != nil {
			return fail(t, err)
		}
		insts = append(insts, in)
	}
	// Interleaved: round r runs every lane count once, starting from a
	// different one each round, so a host that slows down or speeds up
	// during the benchmark shifts every row alike rather than the later
	// rows only.
	for r := range *runs {
		for j := range insts {
			i := (r + j) % len(insts)
			if err := insts[i].timedRun(*cycles); err != nil {
				return fail(threads[i], err)
			}
		}
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	var base float64
	var details []string
	for i, t := range threads {
		row := insts[i].row(*cycles, *runs)
		if i == 0 {
			fmt.Fprintf(tw, "# %s, %s backend, %d cycles x %d runs after reset\n", row.top, bk, *cycles, *runs)
			fmt.Fprintln(tw, "lanes\tran on\tcompile_ms\tcycles/s\trange\tvs first\tplan est.\tpartitioned")
			base = row.median
		}
		est, share := "-", "-"
		if row.est > 0 {
			est = fmt.Sprintf("%.2fx", row.est)
		}
		if row.calls > 0 {
			share = fmt.Sprintf("%.0f%%", 100*float64(row.par)/float64(row.calls))
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s..%s\t%.2fx\t%s\t%s\n", t, row.lanes, row.compile.Milliseconds(),
			si(row.median), si(row.min), si(row.max), row.median/base, est, share)
		if t > 1 {
			for _, d := range row.details {
				details = append(details, fmt.Sprintf("# lanes=%d: %s", t, d))
			}
		}
	}
	tw.Flush()
	for _, d := range details {
		fmt.Fprintln(stdout, d)
	}
	return 0
}

// benchRow is one lane count's measurement.
type benchRow struct {
	top              string
	lanes            int
	compile          time.Duration
	median, min, max float64 // cycles per second
	est              float64 // plan's estimated speedup of the clock's fused kernel (0: none)
	calls, par       uint64  // that kernel's calls, and those that ran partitioned
	details          []string
}

// benchError is a failure while running (not compiling) the design.
type benchError struct{ err error }

func (e *benchError) Error() string { return e.err.Error() }

// benchInst is one lane count's simulator while the benchmark runs: its
// timed runs' rates and what its lane pool and the process's context
// switches counted during them.
type benchInst struct {
	prog  *compile.Program
	clk   *dut.Signal
	tick  func(n int) error
	rates []float64
	pool  lanepool.Stats
	ctx   int64
}

// benchStart builds b, resets the design and warms it up.
func benchStart(b *compile.Builder, cf *clockFlags, cycles int) (*benchInst, error) {
	prog, err := b.Output(io.Discard).Build()
	if err != nil {
		return nil, err
	}
	in, err := benchReady(prog, cf, cycles)
	if err != nil {
		prog.Close()
		return nil, err
	}
	return in, nil
}

// benchReady resets prog's design as 'weft run' does, attaches its
// partitioned kernels and runs a fifth of cycles untimed.
func benchReady(prog *compile.Program, cf *clockFlags, cycles int) (*benchInst, error) {
	clk, rst, err := cf.signals(prog)
	if err != nil {
		return nil, &benchError{err}
	}
	s := prog.Sim
	in := &benchInst{prog: prog, clk: clk}
	in.tick = func(n int) error {
		done, err := s.Tick(clk.Home(), n)
		var fe *sim.FinishError
		if errors.As(err, &fe) {
			return fmt.Errorf("the design ended the run after %d cycles (%v); bench a free-running design or use fewer --cycles", done, err)
		}
		return err
	}
	if err := cf.reset(s, clk, rst); err != nil {
		return nil, &benchError{err}
	}
	// The partitioned kernels compiled in the background are attached
	// before the warm-up: the rows measure the selector, not the start.
	if err := s.WaitParallel(); err != nil {
		return nil, &benchError{fmt.Errorf("the partitioned kernels did not build: %w", err)}
	}
	if err := in.tick(max(1, cycles/5)); err != nil {
		return nil, &benchError{err}
	}
	return in, nil
}

// timedRun times one run of cycles cycles, after an untimed twentieth of
// it: the other lane counts ran since this one's last run, and a short run
// would otherwise time its lane workers waking up.
func (in *benchInst) timedRun(cycles int) error {
	if err := in.tick(max(1, cycles/20)); err != nil {
		return &benchError{err}
	}
	pool0, ctx0 := in.prog.Sim.PoolStats(), contextSwitches()
	t0 := time.Now()
	if err := in.tick(cycles); err != nil {
		return &benchError{err}
	}
	in.rates = append(in.rates, float64(cycles)/time.Since(t0).Seconds())
	in.ctx += contextSwitches() - ctx0
	in.pool = in.pool.Add(in.prog.Sim.PoolStats().Sub(pool0))
	return nil
}

// row is what the instance's timed runs measured.
func (in *benchInst) row(cycles, runs int) *benchRow {
	prog, s, clk, pool, ctx := in.prog, in.prog.Sim, in.clk, in.pool, in.ctx
	rates := slices.Clone(in.rates)
	slices.Sort(rates)
	row := &benchRow{top: prog.Program.Top.Module, lanes: prog.Lanes, compile: prog.CompileTime,
		median: rates[len(rates)/2], min: rates[0], max: rates[len(rates)-1]}
	if len(rates)%2 == 0 {
		row.median = (rates[len(rates)/2-1] + rates[len(rates)/2]) / 2
	}
	name := "fused posedge " + clk.Home().Path
	ests := map[string]float64{}
	if prog.Plan != nil {
		for _, k := range prog.Plan.Kernels {
			if k.Partitioned() && k.Makespan() > 0 {
				ests[k.Name] = float64(k.SingleCost) / float64(k.Makespan())
			}
		}
		row.est = ests[name]
	}
	for _, st := range s.ParallelStats() {
		if st.Kernel == name {
			row.calls, row.par = st.Calls, st.Parallel
		}
		row.details = append(row.details, kernelDetail(st, ests[st.Kernel]))
	}
	for _, st := range s.LaneTickStats() {
		if st.Batches == 0 {
			continue // an interpreted tick loop: the step loop ran
		}
		d := fmt.Sprintf("%s: %d batches of %.0f edges on average (one lane-pool call each)", st.Name, st.Batches, float64(st.Edges)/float64(max(1, st.Batches)))
		if len(st.Medians) == 2 && st.Medians[1] > 0 {
			d += fmt.Sprintf(", measured %.2fx the sequential tick loop", float64(st.Medians[0])/float64(st.Medians[1]))
		}
		if st.Selector != "" {
			d += "; selector: " + st.Selector
		}
		row.details = append(row.details, d)
	}
	total := float64(cycles * runs)
	if prog.Lanes > 1 {
		row.details = append(row.details, fmt.Sprintf("lane pool per cycle: %.3g runs, %.3g waits, %.3g yields, %.3g parks, %.3g wake-ups; %.3g context switches per cycle",
			float64(pool.Runs)/total, float64(pool.Waits)/total, float64(pool.Yields)/total, float64(pool.Parks)/total, float64(pool.Wakes)/total, float64(ctx)/total))
	} else {
		row.details = append(row.details, fmt.Sprintf("one lane ran: %.3g context switches per cycle", float64(ctx)/total))
	}
	if l := syncLine(prog); l != "" {
		row.details = append(row.details, l)
	}
	if err := s.PinErr(); err != nil {
		row.details = append(row.details, "pinning: "+err.Error())
	}
	for _, n := range prog.Notes {
		row.details = append(row.details, "note: "+n)
	}
	return row
}

// parseThreads parses a comma list of lane counts.
func parseThreads(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("want a comma list of lane counts from 1 to 64")
		}
		out = append(out, n)
	}
	return out, nil
}

// si formats a rate with a k/M suffix and three significant digits.
func si(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// kernelDetail is one partitioned kernel's line: estimated and measured
// speedup, and the selector's decision.
func kernelDetail(st sim.ParallelStats, est float64) string {
	e := "-"
	if est > 0 {
		e = fmt.Sprintf("%.2fx", est)
	}
	line := fmt.Sprintf("kernel %s: estimated %s", st.Kernel, e)
	if len(st.Medians) == 2 && st.Medians[1] > 0 {
		line += fmt.Sprintf(", measured %.2fx (medians %v sequential, %v partitioned)",
			float64(st.Medians[0])/float64(st.Medians[1]), st.Medians[0], st.Medians[1])
	}
	line += fmt.Sprintf(", ran partitioned %d of %d calls", st.Parallel, st.Calls)
	if st.Selector != "" {
		line += "; selector: " + st.Selector
	}
	return line
}

// contextSwitches is the process's voluntary and involuntary context
// switches so far (0 where getrusage cannot say).
func contextSwitches() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return int64(ru.Nvcsw + ru.Nivcsw)
}
