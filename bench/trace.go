package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/vcd"
)

// VCDEnv names the environment variable that makes every bench of a
// suite write a waveform: WEFT_VCD=DIR writes DIR/<spec name>.vcd for
// each spec (the spec's full name with every run of characters other
// than letters, digits, '-' and '.' turned into '_'; a second bench in
// one spec adds "-2"), so `WEFT_VCD=waves go test ./...` leaves a file
// GTKWave opens next to every spec.
const VCDEnv = "WEFT_VCD"

// trace is one waveform being written. It is sampled at the end of every
// time step, when the values are final for that time, so the file holds
// every value change the design's state went through from one time to
// the next (what a simulator's $dumpvars writes).
type trace struct {
	w    *vcd.Writer
	path string
}

// Trace starts writing a VCD waveform of scopes (hierarchical instance
// paths; none: the whole design) to path, from now until the bench is
// closed, in the design's timescale precision (1ps without one). Clock
// cycles run edge by edge meanwhile (no Tick fast path), so that no value
// change is missed.
func (tb *Bench) Trace(path string, scopes ...string) {
	opts := vcd.Options{Scopes: scopes, Timescale: timescaleOf(tb.s.Program())}
	tb.startTrace(path, opts)
}

// timescaleOf is the design's finest `timescale precision, "" for 1ps.
func timescaleOf(p *program.Program) string {
	if !p.HasTimescale {
		return ""
	}
	return program.TimeString(p.Timescale)
}

func (tb *Bench) startTrace(path string, opts vcd.Options) {
	for _, t := range tb.traces {
		if t.path == path {
			tb.failf("Trace(%s): the bench already writes that file", path)
			return
		}
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.failf("Trace: %v", err)
			return
		}
	}
	w, err := vcd.Create(path, tb.s, opts)
	if err != nil {
		tb.failf("Trace(%s): %v", path, err)
		return
	}
	tb.traces = append(tb.traces, &trace{w: w, path: path})
	fmt.Fprintf(tb.opts.Output, "bench: writing the waveform %s\n", path)
}

// startTraces starts the traces New is asked for: Options.VCD, the
// design's $dumpfile/$dumpvars, WEFT_VCD.
func (tb *Bench) startTraces() {
	if tb.err != nil {
		return
	}
	if tb.opts.VCD != "" {
		tb.Trace(tb.opts.VCD)
	}
	if path, opts, ok := vcd.FromProgram(tb.s.Program()); ok {
		tb.startTrace(path, opts)
	}
	if dir := os.Getenv(VCDEnv); dir != "" {
		tb.Trace(filepath.Join(dir, specFileName()+".vcd"))
	}
}

var (
	specFilesMu sync.Mutex
	specFiles   = map[string]int{} // benches traced per spec name
)

// specFileName is the current spec's name as a file name, unique within
// the process.
func specFileName() string {
	name := "bench"
	if inGinkgoNode() {
		name = ginkgo.CurrentSpecReport().FullText()
	}
	var b strings.Builder
	under := false
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.'
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	base := strings.Trim(b.String(), "_.")
	if len(base) > 120 {
		base = base[:120]
	}
	specFilesMu.Lock()
	defer specFilesMu.Unlock()
	specFiles[base]++
	if n := specFiles[base]; n > 1 {
		return fmt.Sprintf("%s-%d", base, n)
	}
	return base
}

// endTimeStep samples every trace: the values at the current time are
// final.
func (tb *Bench) endTimeStep() {
	for _, t := range tb.traces {
		if err := t.w.Sample(uint64(tb.now)); err != nil {
			tb.failf("waveform %s: %v", t.path, err)
			tb.traces = nil
			return
		}
	}
}

// closeTraces writes the last values and closes every trace.
func (tb *Bench) closeTraces() {
	ts := tb.traces
	tb.traces = nil
	for _, t := range ts {
		err := t.w.Sample(uint64(tb.now))
		if cerr := t.w.Close(); err == nil {
			err = cerr
		}
		if err != nil && tb.err == nil {
			tb.failf("waveform %s: %v", t.path, err)
		}
	}
}
