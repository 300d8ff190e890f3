package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/elab"
	"github.com/weft-hdl/weft/hdl"
)

func lintCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	df := addDesignFlags(fs)
	werror := fs.Bool("Werror", false, "treat warnings (such as port width mismatches) as errors")
	files, code, ok := parseFiles(fs, args, "usage: weft lint [-I DIR] [-D NAME=VAL] [-G NAME=VAL] [--top NAME] [-Werror] FILE...\n", stderr)
	if !ok {
		return code
	}
	start := time.Now()
	d, diags := loadDesign(files, df)
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

// loadDesign runs the front end over files: preprocess, parse, elaborate.
// The returned diagnostics hold every warning and error found.
func loadDesign(files []string, df *designFlags) (*design.Design, *hdl.Diagnostics) {
	fset := hdl.NewFileSet()
	diags := hdl.NewDiagnostics(fset)
	inputs := make([]hdl.Input, len(files))
	for i, f := range files {
		inputs[i] = hdl.Input{Name: f}
	}
	st := hdl.Load(fset, inputs, hdl.PreprocessOptions{IncludeDirs: df.includeDirs, Defines: df.defines.values}, diags)
	if diags.ErrorCount() > 0 {
		return nil, diags
	}
	d := elab.Elaborate(st, fset, elab.Options{Top: df.top, Params: df.params.values}, diags)
	return d, diags
}
