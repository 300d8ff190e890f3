package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/weft-hdl/weft/compile"
)

const planUsage = `usage: weft plan [--top T] [-I DIR] [-D NAME=VAL] [-G NAME=VAL] [--lanes N]
                 [--always] [--backend interp|native] [--svg OUT.svg] [--ring BYTES]
                 [--max-state-mb N] [--max-insts N] FILE...

Compiles the design for N lanes (--lanes, default 2) and prints the plan:
per kernel (the comb settle, each clock event's fused kernel) the candidate
partitions with their estimated makespans, the chosen one and why, each
lane's tasks with their estimated cost and their waits on other lanes, and
the lane segments of the state layout. Costs are in units of about one SIR
instruction; a cross-lane wait is charged as the sync cost. --always skips
the margin test, as Partition(always) does. --svg also draws the lanes over
time (tasks as boxes, waits as arrows).
`

// planCmd is `weft plan`.
func planCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	df := addDesignFlags(fs)
	threads := fs.Int("lanes", 2, "lanes (`N`, 2 to 64) to partition for")
	fs.IntVar(threads, "threads", 2, "the same as --lanes (`N`)")
	always := fs.Bool("always", false, "partition even when the estimate says it does not pay")
	backend := fs.String("backend", compile.DefaultBackend.String(), "kernel backend the costs are for: `interp|native`")
	svg := fs.String("svg", "", "also write the lane picture to `FILE`")
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
	prog, err := lf.apply(df.builder(files)).Lanes(*threads).Partition(mode).Backend(bk).Output(io.Discard).Progress(progressWriter(stderr)).Build()
	if err != nil {
		printBuildError(stderr, "weft plan", err)
		return 1
	}
	defer prog.Close()
	if err := prog.Plan.Fprint(stdout); err != nil {
		fmt.Fprintf(stderr, "weft plan: %v\n", err)
		return 1
	}
	if *svg != "" {
		f, err := os.Create(*svg)
		if err != nil {
			fmt.Fprintf(stderr, "weft plan: %v\n", err)
			return 1
		}
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
