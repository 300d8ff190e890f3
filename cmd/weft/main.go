// Command weft is the command-line face of the weft simulator: it lints
// SystemVerilog designs, runs them, shows how their kernels are
// partitioned over lanes, measures how fast they simulate, and manages
// the cache of compiled designs.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage: weft <command> [options] FILE...

commands:
  lint    parse and elaborate a design; print a one-line summary or the diagnostics
  run     simulate a design: reset, clock N cycles, print signals
  plan    print how a design's kernels are partitioned over lanes (and draw it)
  bench   measure cycles per second at several thread counts
  cache   show or clear the cache of compiled designs (WEFT_CACHE, WEFT_CACHE_MAX)

Run 'weft <command> -h' for the options of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process exit, so tests can drive the CLI.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "lint":
		return lintCmd(args[1:], stdout, stderr)
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "plan":
		return planCmd(args[1:], stdout, stderr)
	case "bench":
		return benchCmd(args[1:], stdout, stderr)
	case "cache":
		return cacheMain(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "weft: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}
