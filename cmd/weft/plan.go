package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/jit"
	"github.com/weft-hdl/weft/sir"
)

const planUsage = `usage: weft plan [--top T] [-I DIR] [-D NAME=VAL] [-G NAME=VAL] [--lanes N]
                 [--always] [--sync-cost UNITS] [--backend interp|native] [--svg OUT.svg] [--ring BYTES]
                 [--max-state-mb N] [--max-insts N] [--verbose] [--dump-sir[=KERNEL]]
                 [--dump-asm[=KERNEL]] FILE...

Compiles the design for N lanes (--lanes, default 2) and prints the plan:
per kernel (the comb settle, each clock event's fused kernel) the candidate
partitions with their estimated makespans, the chosen one and why, each
lane's tasks with their estimated cost and their waits on other lanes, and
the lane segments of the state layout. Costs are in units of about one SIR
instruction; a cross-lane wait is charged as the sync cost: the hand-off
weft measures on this machine (a last line says what it measured), or with
--always the backend's default, or --sync-cost UNITS. --always skips
the margin test, as Partition(always) does. --svg also draws the lanes over
time (tasks as boxes coloured by the top-level instance they write most,
grey when none has most, waits as arrows). --verbose adds, per partitioned
kernel and lane, the instances the lane's tasks write and, per task, the
variables it writes. --dump-sir prints, instead of the
plan, the optimized SIR the design compiles to: the state layout, then
every unit ("settle", "event", "fused posedge top.clk", "tick top.clk",
the lane tasks), or with =KERNEL only the units whose name contains KERNEL.
--dump-asm prints the same units as native x86-64 code (Intel syntax,
offsets from each unit's entry), compiled as the simulator compiles them.
`

// planCmd is `weft plan`.
func planCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	df := addDesignFlags(fs)
	threads := fs.Int("lanes", 2, "lanes (`N`, 2 to 64) to partition for")
	fs.IntVar(threads, "threads", 2, "the same as --lanes (`N`)")
	always := fs.Bool("always", false, "partition even when the estimate says it does not pay")
	sf := addSyncFlag(fs)
	backend := fs.String("backend", compile.DefaultBackend.String(), "kernel backend the costs are for: `interp|native`")
	svg := fs.String("svg", "", "also write the lane picture to `FILE`")
	verbose := fs.Bool("verbose", false, "also list the instances and variables each lane and task writes")
	var dump optionalString
	fs.Var(&dump, "dump-sir", "print the optimized SIR instead of the plan (`=KERNEL`: only units whose name contains KERNEL)")
	var dumpAsm optionalString
	fs.Var(&dumpAsm, "dump-asm", "print the native code instead of the plan (`=KERNEL`: only units whose name contains KERNEL)")
	lf := addLimitFlags(fs)
	files, code, ok := parseFiles(fs, args, planUsage, stderr)
	if !ok {
		return code
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "weft plan: "+format+"\n", a...)
		return 2
	}
	if *threads < 2 || *threads > 64 {
		return usageErr("--lanes %d: a plan needs 2 to 64 lanes", *threads)
	}
	bk, err := compile.ParseBackend(*backend)
	if err != nil {
		return usageErr("--backend %q: want interp or native", *backend)
	}
	mode := compile.PartitionAuto
	if *always {
		mode = compile.PartitionAlways
	}
	prog, err := sf.apply(lf.apply(df.builder(files))).Lanes(*threads).Partition(mode).Backend(bk).Output(io.Discard).Progress(progressWriter(stderr)).Build()
	if err != nil {
		printBuildError(stderr, "weft plan", err)
		return 1
	}
	defer prog.Close()
	if dump.set || dumpAsm.set {
		dumpFn, kernel := dumpSIR, dump.val
		if dumpAsm.set {
			dumpFn, kernel = dumpASM, dumpAsm.val
		}
		if err := dumpFn(stdout, prog, kernel); err != nil {
			fmt.Fprintf(stderr, "weft plan: %v\n", err)
			return 1
		}
		return 0
	}
	if err := prog.Plan.Fprint(stdout); err != nil {
		fmt.Fprintf(stderr, "weft plan: %v\n", err)
		return 1
	}
	if prog.Sync != nil {
		fmt.Fprintf(stdout, "# %s\n", syncLine(prog))
	}
	if *verbose {
		printPlacement(stdout, prog.Program)
	}
	if *svg != "" {
		f, err := os.Create(*svg)
		if err != nil {
			fmt.Fprintf(stderr, "weft plan: %v\n", err)
			return 1
		}
		setTaskInstances(prog.Plan, prog.Program)
		err = prog.Plan.SVG(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintf(stderr, "weft plan: writing %s: %v\n", *svg, err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s\n", *svg)
	}
	return 0
}

// optionalString is a flag that may be given alone (--dump-sir) or with a
// value (--dump-sir=tick).
type optionalString struct {
	set bool
	val string
}

func (o *optionalString) String() string { return o.val }

func (o *optionalString) Set(v string) error {
	o.set = true
	if v != "true" {
		o.val = v
	}
	return nil
}

// IsBoolFlag lets the flag package accept the flag without a value.
func (o *optionalString) IsBoolFlag() bool { return true }

// dumpASM writes the native code of the units of prog whose name contains
// kernel (all when empty), each compiled as the simulator compiles it.
func dumpASM(w io.Writer, prog *compile.Program, kernel string) error {
	if !jit.Supported {
		return fmt.Errorf("--dump-asm: %w", jit.ErrUnsupported)
	}
	p := prog.Program
	lane := map[*sir.Unit]int{} // a task's events go to its lane's ring
	for _, pk := range p.Parallel.Kernels() {
		for _, t := range pk.Tasks() {
			lane[t.Unit] = t.Lane
		}
	}
	n := 0
	var names []string
	for _, u := range append(p.Units(), p.TaskUnits()...) {
		names = append(names, u.Name)
		if kernel != "" && !strings.Contains(u.Name, kernel) {
			continue
		}
		n++
		k, err := jit.Backend{}.Compile(u, p.Parallel.LaneLayout(p.Layout, lane[u]))
		if err != nil {
			return fmt.Errorf("--dump-asm: unit %q: %w", u.Name, err)
		}
		fmt.Fprintf(w, "unit %q: %d bytes of code\n", u.Name, k.CodeSize())
		err = k.Disassemble(w)
		k.Close()
		if err != nil {
			return err
		}
	}
	if n == 0 {
		return fmt.Errorf("--dump-asm=%s: no unit's name contains %q; the units are: %s", kernel, kernel, strings.Join(names, ", "))
	}
	return nil
}

// dumpSIR writes the layout and the units of prog whose name contains
// kernel (all when empty).
func dumpSIR(w io.Writer, prog *compile.Program, kernel string) error {
	p := prog.Program
	if kernel == "" {
		return p.WriteSIR(w)
	}
	if err := p.Layout.Dump(w); err != nil {
		return err
	}
	n := 0
	var names []string
	for _, u := range append(p.Units(), p.TaskUnits()...) {
		names = append(names, u.Name)
		if strings.Contains(u.Name, kernel) {
			n++
			if err := sir.Fprint(w, u); err != nil {
				return err
			}
		}
	}
	if n == 0 {
		return fmt.Errorf("--dump-sir=%s: no unit's name contains %q; the units are: %s", kernel, kernel, strings.Join(names, ", "))
	}
	return nil
}
