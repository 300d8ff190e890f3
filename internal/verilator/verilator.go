// Package verilator builds and runs designs with Verilator 5, weft's
// second reference simulator in differential tests (internal/icarus is the
// first). Verilator is 2-state where weft is: it reads x as 0 (the builds
// here set --x-assign 0 and --x-initial 0, so every variable without an
// initializer starts at 0 as in weft), and it accepts much of
// SystemVerilog that Icarus lacks. Tests call Available first and skip,
// saying so, when Verilator is not installed.
//
// What a simulation prints differs from Icarus in two ways: %m names
// start with "TOP." (the generated main's name for the model), and
// $finish prints a line of its own (FinishMessage matches it).
//
// A build verilates the sources (--cc --exe --main --timing, so that a
// test bench with delays runs without a C++ harness) and compiles the C++
// model with make and the C++ compiler; builds and runs are bounded in
// time and memory. Compile is self-contained and slow (the C++ run-time
// library is compiled for every design, a few seconds); a Kit compiles
// that library and a precompiled header once and reuses them, which makes
// a small design's build take about half a second of CPU time.
package verilator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// The bounds of one build and of one run. A build that passes either bound
// (a C++ compiler on a huge generated model) or a run that does (a design
// that never calls $finish) is ended and reported as ErrBound.
const (
	BuildTimeLimit   = 5 * time.Minute
	BuildMemoryLimit = 4 << 30 // bytes of address space of each tool
	RunTimeLimit     = 2 * time.Minute
	RunMemoryLimit   = 2 << 30
)

// ErrBound is wrapped by the *Error of a build or run that passed its time
// or memory bound.
var ErrBound = errors.New("verilator build or run passed its time or memory bound")

// FinishMessage matches the line a simulation prints on stdout when it
// calls $finish.
var FinishMessage = regexp.MustCompile(`(?m)^- [^\n]*: Verilog \$finish\n`)

// binName is the name of the simulation binary in a build directory.
const binName = "vsim"

// flags are the verilator options of every build. The warnings are not
// fatal: Verilator's lint is stricter than the language (widths, unused
// signals) and weft's tests check semantics, not style. --assert makes
// immediate assertions run their actions.
var flags = []string{
	"--cc", "--exe", "--main", "--timing", "--assert",
	"--x-assign", "0", "--x-initial", "0",
	"-Wno-fatal", "-Wno-lint", "-Wno-style",
}

// optFlags are the make variables of a model's build: the generated C++ is
// compiled without optimization, which halves the compile time of a large
// model and costs nothing for the short runs of tests.
var optFlags = []string{"OPT_FAST=-O0", "OPT_SLOW=-O0"}

// Available reports whether Verilator 5 or later, make and the C++
// compiler that Verilator's makefiles name are installed: nil, or an
// error saying what is missing.
func Available() error {
	for _, tool := range []string{"verilator", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not installed: %w", tool, err)
		}
	}
	v, err := Version()
	if err != nil {
		return err
	}
	major, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(major); err != nil || n < 5 {
		return fmt.Errorf("verilator %s installed, version 5 or later needed (--main, --timing)", v)
	}
	if cxx := compiler(); cxx != "" {
		if _, err := exec.LookPath(cxx); err != nil {
			return fmt.Errorf("verilator %s installed without its C++ compiler: %w", v, err)
		}
	}
	return nil
}

var cxxRE = regexp.MustCompile(`(?m)^CXX\s*[:?]?=\s*(\S+)`)

// compiler returns the C++ compiler of Verilator's makefiles, or "" when
// they cannot be read.
func compiler() string {
	root, err := exec.Command("verilator", "--getenv", "VERILATOR_ROOT").Output()
	if err != nil {
		return ""
	}
	mk, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "include", "verilated.mk"))
	if err != nil {
		return ""
	}
	if m := cxxRE.FindSubmatch(mk); m != nil {
		return string(m[1])
	}
	return ""
}

var versionRE = regexp.MustCompile(`Verilator ([0-9]+\.[0-9]+)`)

// Version returns the installed Verilator's version, e.g. "5.006".
func Version() (string, error) {
	out, err := exec.Command("verilator", "--version").CombinedOutput()
	if err != nil {
		return "", &Error{Tool: "verilator", Err: err, Output: out}
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("verilator --version printed no version: %q", out)
	}
	return string(m[1]), nil
}

// Error is a failed verilator, make or simulation run with what it printed.
type Error struct {
	Tool   string // "verilator", "make" or "simulation"
	Err    error
	Output []byte
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %v\n%s", e.Tool, e.Err, e.Output) }

func (e *Error) Unwrap() error { return e.Err }

// Compile verilates files with the root module top into dir and builds the
// simulation binary there, returning its path. It compiles Verilator's
// run-time library too: a Kit's Compile is much faster for many designs.
// A front-end or C++ error is an *Error.
func Compile(dir, top string, files ...string) (string, error) {
	return compile(nil, dir, top, files)
}

// Kit is a compiled Verilator run-time library and precompiled header in a
// directory of its own, shared by the builds of many designs (safe for
// concurrent use).
type Kit struct {
	dir string
}

// The kit's precompiled header: what every generated model includes first.
const pchHeader = "#include \"verilated.h\"\n#include \"verilated_timing.h\"\n"

// The makefile fragment that precompiles the header with the flags the
// generated makefile gives the model's sources.
const pchMake = `
weft_pch.h.gch: weft_pch.h
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(OPT_FAST) -x c++-header -o $@ $<
`

// NewKit compiles the run-time library and the precompiled header into
// dir (a few seconds), by building a trivial design with the flags every
// build uses.
func NewKit(dir string) (*Kit, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(dir, "weft_kit.sv")
	if err := os.WriteFile(src, []byte("module weft_kit;\n  initial #1 $finish;\nendmodule\n"), 0o644); err != nil {
		return nil, err
	}
	mdir := filepath.Join(dir, "obj")
	if err := verilate(mdir, "weft_kit", []string{src}); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(mdir, "weft_pch.h"), []byte(pchHeader), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(mdir, "weft_pch.mk"), []byte(pchMake), 0o644); err != nil {
		return nil, err
	}
	args := append([]string{"-j", strconv.Itoa(runtime.NumCPU()), "-C", mdir, "-f", "Vweft_kit.mk", "-f", "weft_pch.mk"}, optFlags...)
	args = append(args, binName, "weft_pch.h.gch")
	if _, err := bounded("make", "make", "", BuildTimeLimit, BuildMemoryLimit, args...); err != nil {
		return nil, err
	}
	return &Kit{dir: mdir}, nil
}

// Compile is the package's Compile with the kit's run-time library and
// precompiled header.
func (k *Kit) Compile(dir, top string, files ...string) (string, error) {
	return compile(k, dir, top, files)
}

func compile(k *Kit, dir, top string, files []string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	var abs []string
	for _, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return "", err
		}
		abs = append(abs, a)
	}
	mdir := filepath.Join(dir, "obj")
	if err := verilate(mdir, top, abs); err != nil {
		return "", err
	}
	args := append([]string{"-C", mdir, "-f", "V" + top + ".mk"}, optFlags...)
	if k == nil {
		args = append(args, "-j", strconv.Itoa(runtime.NumCPU()))
	} else {
		// Copies, not links: make must see the objects as newer than the
		// makefile that verilator has just written, or it rebuilds them.
		if err := k.copyRuntime(mdir); err != nil {
			return "", err
		}
		args = append(args, "USER_CPPFLAGS=-include "+filepath.Join(k.dir, "weft_pch.h"))
	}
	if _, err := bounded("make", "make", "", BuildTimeLimit, BuildMemoryLimit, append(args, binName)...); err != nil {
		return "", err
	}
	return filepath.Join(mdir, binName), nil
}

// copyRuntime copies the kit's compiled run-time library into mdir.
func (k *Kit) copyRuntime(mdir string) error {
	objs, err := filepath.Glob(filepath.Join(k.dir, "verilated*.o"))
	if err != nil {
		return err
	}
	if len(objs) == 0 {
		return fmt.Errorf("the kit in %s has no run-time objects", k.dir)
	}
	for _, o := range objs {
		b, err := os.ReadFile(o)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(mdir, filepath.Base(o)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// verilate runs verilator on files into mdir.
func verilate(mdir, top string, files []string) error {
	args := append([]string{}, flags...)
	args = append(args, "--top-module", top, "--Mdir", mdir, "-o", binName)
	_, err := bounded("verilator", "verilator", "", BuildTimeLimit, BuildMemoryLimit, append(args, files...)...)
	return err
}

// bounded runs tool with args in workDir within limit and under an
// address-space bound of mem bytes, and returns what it printed on stdout.
// A failure is an *Error (what names the tool) with stdout and stderr.
func bounded(what, tool, workDir string, limit time.Duration, mem int, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	// The shell sets the memory bound for the tool alone (os/exec has no
	// rlimit of its own for a child); the children of make inherit it.
	kib := strconv.Itoa(mem >> 10)
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -v ` + kib + ` && exec "$0" "$@"`, tool}, args...)...)
	cmd.Dir = workDir
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil || bytes.Contains(stderr.Bytes(), []byte("bad_alloc")) ||
			bytes.Contains(stderr.Bytes(), []byte("out of memory")) || bytes.Contains(stderr.Bytes(), []byte("Out of memory")) {
			err = fmt.Errorf("%w (%v, %d MiB): %w", ErrBound, limit, mem>>20, err)
		}
		return stdout.Bytes(), &Error{Tool: what, Err: err, Output: append(stdout.Bytes(), stderr.Bytes()...)}
	}
	return stdout.Bytes(), nil
}

// Run runs a built simulation in the directory workDir ("" is the current
// one: where $readmemh paths start) and returns what it printed on stdout.
// A failed run (a $fatal, $stop, or an assertion that fails without an
// else action: Verilator stops there) is an *Error holding stdout and
// stderr; one that passed RunTimeLimit or
// RunMemoryLimit wraps ErrBound.
func Run(bin, workDir string) ([]byte, error) {
	return RunWithin(bin, workDir, RunTimeLimit)
}

// RunWithin is Run with another time bound.
func RunWithin(bin, workDir string, limit time.Duration) ([]byte, error) {
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs // relative to our directory, not workDir
	}
	return bounded("simulation", bin, workDir, limit, RunMemoryLimit)
}
