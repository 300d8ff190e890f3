package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/elab"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/sim"
)

// listFlag collects a repeatable string flag (-I DIR -I DIR2).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// defineFlag collects repeatable NAME=VAL flags (-D, -G). A bare NAME means
// NAME defined as empty text, as compilers do.
type defineFlag struct {
	what   string
	values map[string]string
	order  []string
}

func newDefineFlag(what string) *defineFlag {
	return &defineFlag{what: what, values: map[string]string{}}
}

func (d *defineFlag) String() string { return strings.Join(d.order, ",") }
func (d *defineFlag) Set(v string) error {
	name, val, _ := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return fmt.Errorf("%s %q: expected NAME=VALUE", d.what, v)
	}
	if _, dup := d.values[name]; !dup {
		d.order = append(d.order, name)
	}
	d.values[name] = val
	return nil
}

// mibFlag is a size limit given in whole MiB.
type mibFlag struct{ bytes int64 }

// maxMiB keeps the limit's byte count far from overflowing.
const maxMiB = 1 << 20

func (m *mibFlag) String() string {
	if m == nil || m.bytes == 0 {
		return ""
	}
	return strconv.FormatInt(m.bytes>>20, 10)
}

func (m *mibFlag) Set(v string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 1 || n > maxMiB {
		return fmt.Errorf("%q: want a whole number of MiB from 1 to %d", v, maxMiB)
	}
	m.bytes = n << 20
	return nil
}

// designFlags are the options every command that reads a design shares.
type designFlags struct {
	includeDirs listFlag
	defines     *defineFlag
	params      *defineFlag
	top         string
	// wno are the warning codes -Wno-CODE turned off.
	wno listFlag
	// maxSource and maxMemFile bound the files read (0: the defaults).
	maxSource, maxMemFile mibFlag
	// limits bound the elaboration's work (addElabLimitFlags).
	limits elab.Limits
}

func addDesignFlags(fs *flag.FlagSet) *designFlags {
	df := &designFlags{defines: newDefineFlag("-D"), params: newDefineFlag("-G")}
	fs.Var(&df.includeDirs, "I", "add `DIR` to the `include search path (repeatable)")
	fs.Var(df.defines, "D", "define preprocessor macro `NAME=VAL` (repeatable)")
	fs.Var(df.params, "G", "override top-level parameter `NAME=VAL` (repeatable)")
	fs.StringVar(&df.top, "top", "", "top module `NAME` (default: the single module no one instantiates)")
	fs.Var(&df.wno, "Wno", "turn warning `CODE` off, also written -Wno-CODE (repeatable; -Wno-all: every warning; weft lint -h lists the codes)")
	fs.Var(&df.maxSource, "max-source-mb", fmt.Sprintf("refuse a source or include file larger than `N` MiB (default %d)", hdl.DefaultMaxFileBytes>>20))
	fs.Var(&df.maxMemFile, "max-memfile-mb", fmt.Sprintf("refuse a $readmemh/$readmemb file larger than `N` MiB when simulating (default %d)", sim.DefaultMaxMemFileBytes>>20))
	addElabLimitFlags(fs, &df.limits)
	return df
}

// checkWarningFlags reports a -Wno code that names no warning: a
// misspelt code would otherwise turn nothing off without a word.
func (df *designFlags) checkWarningFlags() error {
	for _, c := range df.wno {
		if !hdl.KnownCode(c) {
			return fmt.Errorf("-Wno-%s: unknown warning code (known: %s, all)", c, hdl.CodeList())
		}
	}
	return nil
}

// warningArgs rewrites -Wno-CODE, the spelling compilers use, as -Wno=CODE
// for package flag, up to a "--".
func warningArgs(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		for _, p := range []string{"-Wno-", "--Wno-"} {
			if c, ok := strings.CutPrefix(a, p); ok {
				out[i] = "-Wno=" + c
			}
		}
	}
	return out
}

// parseInterleaved parses flags that may come before, between or after the
// file arguments (`weft lint top.sv -I inc`), the way compilers accept them.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return files, nil
		}
		if rest[0] == "--" {
			return append(files, rest[1:]...), nil
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
}

// parseFiles sets fs's usage text, parses args and returns the input
// files. When it returns ok == false the command is over: code is its exit
// status (0 for -h, 2 for bad flags or no files, the usage printed).
func parseFiles(fs *flag.FlagSet, args []string, usage string, stderr io.Writer) (files []string, code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	files, err := parseInterleaved(fs, warningArgs(args))
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0, false
		}
		return nil, 2, false
	}
	if len(files) == 0 {
		fs.Usage()
		fmt.Fprintf(stderr, "%s: no input files\n", fs.Name())
		return nil, 2, false
	}
	return files, 0, true
}

// builder starts a compile.Builder for files with the design flags.
func (df *designFlags) builder(files []string) *compile.Builder {
	b := compile.NewBuilder().Files(files...).IncludeDir(df.includeDirs...).Top(df.top).Suppress(df.wno...).
		MaxSourceBytes(df.maxSource.bytes).MaxMemFileBytes(df.maxMemFile.bytes).ElabLimits(df.limits)
	for _, k := range df.defines.order {
		b.Define(k, df.defines.values[k])
	}
	for _, k := range df.params.order {
		b.Param(k, df.params.values[k])
	}
	return b
}

// printBuildError prints a compile error: every diagnostic of a front-end
// error list (with its caret line) and a count, or the error.
func printBuildError(stderr io.Writer, cmd string, err error) {
	var list *hdl.ErrorList
	var pe *kernels.PosError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintf(stderr, "%s: error: %s\n%s: 1 error(s)\n", pe.Pos, pe.Msg, cmd)
		return
	case !errors.As(err, &list):
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return
	}
	n := 0
	for _, d := range list.List {
		fmt.Fprintln(stderr, d.Error())
		if d.Severity == hdl.SeverityError {
			n++
		}
	}
	fmt.Fprintf(stderr, "%s: %d error(s)\n", cmd, n)
}

// syncFlag is --sync-cost: what the planner charges per cross-lane wait
// instead of what weft measures on the machine (0: measure).
type syncFlag struct{ units int }

func addSyncFlag(fs *flag.FlagSet) *syncFlag {
	sf := &syncFlag{}
	fs.IntVar(&sf.units, "sync-cost", 0, "charge `UNITS` (SIR instructions, see weft plan) per cross-lane wait instead of the hand-off weft measures on this machine (auto mode) or the default (--partition always)")
	return sf
}

func (sf *syncFlag) apply(b *compile.Builder) *compile.Builder {
	if sf.units != 0 {
		b.SyncCost(sf.units)
	}
	return b
}

// syncLine describes where prog's sync cost came from ("" when nothing
// was partitioned).
func syncLine(prog *compile.Program) string {
	switch {
	case prog.SyncCost == 0:
		return ""
	case prog.Sync != nil:
		return fmt.Sprintf("sync cost %d units: %v", prog.SyncCost, prog.Sync)
	}
	return fmt.Sprintf("sync cost %d units (set, not measured)", prog.SyncCost)
}
