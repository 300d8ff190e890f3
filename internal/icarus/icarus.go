// Package icarus runs Icarus Verilog (iverilog and vvp) for weft's
// differential tests: the reference simulator that weft's results are
// compared against. Tests call Available first and skip, saying so, when
// Icarus is not installed (CI installs it).
package icarus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// The default bounds of one vvp run. Icarus can loop without end at one time step
// where weft settles (an always_comb that writes part of a vector it is
// sensitive to as a whole wakes itself), and its event queue then grows
// until the machine runs out of memory: a run that passes either bound is
// ended and reported as ErrBound.
const (
	RunTimeLimit   = 2 * time.Minute
	RunMemoryLimit = 2 << 30 // bytes of address space
)

// ErrBound is wrapped by the *Error of a vvp run that passed
// RunTimeLimit or RunMemoryLimit.
var ErrBound = errors.New("vvp ran past its time or memory bound")

// Available reports whether iverilog and vvp are on the PATH: nil, or an
// error naming the one missing.
func Available() error {
	for _, tool := range []string{"iverilog", "vvp"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not installed: %w", tool, err)
		}
	}
	return nil
}

// Error is a failed iverilog or vvp run with what the tool printed.
type Error struct {
	Tool   string // "iverilog" or "vvp"
	Err    error
	Output []byte
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %v\n%s", e.Tool, e.Err, e.Output) }

func (e *Error) Unwrap() error { return e.Err }

// Compile compiles files as SystemVerilog (-g2012) into dir/sim.vvp and
// returns that path. top names the root module (-s); "" lets Icarus take
// every module nothing instantiates. A compile error is an *Error.
func Compile(dir, top string, files ...string) (string, error) {
	vvp := filepath.Join(dir, "sim.vvp")
	args := []string{"-g2012", "-o", vvp}
	if top != "" {
		args = append(args, "-s", top)
	}
	if out, err := exec.Command("iverilog", append(args, files...)...).CombinedOutput(); err != nil {
		return "", &Error{Tool: "iverilog", Err: err, Output: out}
	}
	return vvp, nil
}

// Run runs a compiled simulation (vvp -n) in the directory workDir (""
// is the current one: where $readmemh and $dumpfile paths start) and
// returns what it printed on stdout. A failed run is an *Error holding
// stdout and stderr; one that passed RunTimeLimit or RunMemoryLimit wraps
// ErrBound.
func Run(vvp, workDir string) ([]byte, error) {
	return RunWithin(vvp, workDir, RunTimeLimit)
}

// RunWithin is Run with another time bound, for tests whose runs take
// well under a second when Icarus finishes them at all.
func RunWithin(vvp, workDir string, limit time.Duration) ([]byte, error) {
	if abs, err := filepath.Abs(vvp); err == nil {
		vvp = abs // relative to our directory, not workDir
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	// The shell sets the memory bound for vvp alone (os/exec has no
	// rlimit of its own for a child).
	kib := strconv.Itoa(RunMemoryLimit >> 10)
	cmd := exec.CommandContext(ctx, "sh", "-c", `ulimit -v `+kib+` && exec vvp -n "$0"`, vvp)
	cmd.Dir = workDir
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil || bytes.Contains(stderr.Bytes(), []byte("bad_alloc")) || bytes.Contains(stderr.Bytes(), []byte("Out of memory")) {
			err = fmt.Errorf("%w (%v, %d MiB): %w", ErrBound, limit, RunMemoryLimit>>20, err)
		}
		return stdout.Bytes(), &Error{Tool: "vvp", Err: err, Output: append(stdout.Bytes(), stderr.Bytes()...)}
	}
	return stdout.Bytes(), nil
}
