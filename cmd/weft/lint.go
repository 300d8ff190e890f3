package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/elab"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/progress"
	"github.com/weft-hdl/weft/lint"
)

const lintUsage = `usage: weft lint [-I DIR] [-D NAME=VAL] [-G NAME=VAL] [--top NAME] [-Werror]
                 [-Wno-CODE]... FILE...

Elaborates the design and reports errors and warnings, then a summary.
Each warning ends with its code, as in "... [WIDTHTRUNC]". -Wno-CODE turns
a code off everywhere (-Wno-all: every warning); in the source,

    // weft lint_off CODE     turns CODE off from this line on
    // weft lint_on CODE      turns it back on

(also in /* */ comments; several codes may be listed, and no code means
all of them). "verilator lint_off" comments are honoured too, for the codes
weft shares with Verilator (WIDTH means WIDTHTRUNC and WIDTHEXPAND,
UNOPTFLAT means COMBLOOP). Exit status: 0 clean or warnings only, 1 on
errors (or warnings under -Werror), 2 for bad usage.

`

func lintCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	df := addDesignFlags(fs)
	werror := fs.Bool("Werror", false, "treat warnings (such as port width mismatches) as errors")
	usage := lintUsage + "Warning codes:\n" + codeTable() + "\nFlags:\n"
	files, code, ok := parseFiles(fs, args, usage, stderr)
	if !ok {
		return code
	}
	if err := df.checkWarningFlags(); err != nil {
		fmt.Fprintf(stderr, "weft lint: %v\n", err)
		return 2
	}
	start := time.Now()
	status := progress.Start(progressWriter(stderr), "linting", "parsing")
	d, diags := loadDesign(files, df, status)
	if diags.ErrorCount() == 0 && d != nil {
		status.Set("checking")
		lint.Check(d, nil, diags)
	}
	status.Stop()
	for _, w := range diags.Warnings() {
		fmt.Fprintln(stderr, w.Error())
	}
	if err := diags.Err(); err != nil {
		var list *hdl.ErrorList
		if errors.As(err, &list) {
			for _, e := range list.List {
				if e.Severity == hdl.SeverityError {
					fmt.Fprintln(stderr, e.Error())
				}
			}
			fmt.Fprintf(stderr, "weft lint: %d error(s)\n", diags.ErrorCount())
		} else {
			fmt.Fprintln(stderr, err)
		}
		return 1
	}
	if *werror && len(diags.Warnings()) > 0 {
		fmt.Fprintf(stderr, "weft lint: %d warning(s) treated as errors (-Werror)\n", len(diags.Warnings()))
		return 1
	}
	s := d.Summary()
	fmt.Fprintf(stdout, "ok: top %s: %d modules, %d instances, %d homes, %d flops (%d flop bits), %d comb processes, %d trigger groups (%s)\n",
		d.Top.Module, s.Modules, s.Instances, s.Homes, s.FlopHomes, s.FlopBits, s.Comb, s.TriggerGroups,
		time.Since(start).Round(time.Microsecond))
	return 0
}

// codeTable lists the warning codes and what each is about, one a line.
func codeTable() string {
	var b strings.Builder
	for _, c := range hdl.WarningCodes() {
		fmt.Fprintf(&b, "  %-12s %s\n", c.Code, c.Doc)
	}
	return b.String()
}

// loadDesign runs the front end over files: preprocess, parse, elaborate.
// The returned diagnostics hold every warning and error found.
// status (nil: none) is told each stage.
func loadDesign(files []string, df *designFlags, status *progress.Line) (*design.Design, *hdl.Diagnostics) {
	fset := hdl.NewFileSet()
	diags := hdl.NewDiagnostics(fset)
	// checkWarningFlags has vetted the codes.
	_ = diags.Suppress(df.wno...)
	inputs := make([]hdl.Input, len(files))
	for i, f := range files {
		inputs[i] = hdl.Input{Name: f}
	}
	st := hdl.Load(fset, inputs, hdl.PreprocessOptions{IncludeDirs: df.includeDirs, Defines: df.defines.values, MaxFileBytes: df.maxSource.bytes}, diags)
	if diags.ErrorCount() > 0 {
		return nil, diags
	}
	status.Set("elaborating")
	d := elab.Elaborate(st, fset, elab.Options{Top: df.top, Params: df.params.values, Limits: df.limits}, diags)
	return d, diags
}
