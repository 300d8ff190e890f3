package vcd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"strconv"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// Options choose what a Writer dumps and the unit of its times.
type Options struct {
	// Scopes are hierarchical instance paths to dump, with or without the
	// top prefix ("" is the top), like the scope arguments of
	// $dumpvars(depth, scope...). No scope and no signal: the whole design.
	Scopes []string
	// Depth is how many instance levels to dump below each scope, 1 being
	// the scope's own signals; 0 is every level (like $dumpvars's first
	// argument).
	Depth int
	// Signals are single signals to dump besides the scopes, by
	// hierarchical name (like a signal argument of $dumpvars).
	Signals []string
	// Timescale is the unit of the times written: "1ps" (the default,
	// and the unit of the times Sample takes), "10ns", "1fs", ...
	Timescale string
	// Arrays dumps every element of unpacked arrays in the scopes, as
	// variables "mem[3]". Off, arrays are skipped as Icarus Verilog does.
	Arrays bool
}

// ErrClosed is returned by a Writer's methods after Close.
var ErrClosed = errors.New("vcd: writer is closed")

// Writer writes one VCD file of a simulation. It is not safe for
// concurrent use, like the simulator it reads.
type Writer struct {
	s    *sim.Simulator
	bw   *bufio.Writer
	file io.Closer // what Create opened; nil when the caller owns the io.Writer

	vars []variable
	prev []uint64 // the words of every variable at the last sample
	buf  []uint64 // GetWords scratch, as long as the widest variable
	line []byte   // scratch for one line of output

	mul, div uint64 // a time written is t*mul/div (one of them is 1)
	sampled  bool   // the first sample ($dumpvars) is written
	last     uint64 // the last time Sample was given, in the written unit
	stamped  bool   // "#last" is written
	closed   bool
	err      error // the first write error: every later call returns it
}

// variable is one dumped element and its identifier code.
type variable struct {
	h     *program.Signal
	elem  int
	off   int // words into Writer.prev
	n     int // words
	width int
	id    string
	name  string // one of its hierarchical names, for error messages
}

// New writes the VCD header of s's design (scopes and variables as opts
// select) to w and returns the Writer that samples s. It reads nothing from
// s but its program's signals and scopes: the first Sample writes the
// values.
func New(w io.Writer, s *sim.Simulator, opts Options) (*Writer, error) {
	if s == nil || s.Closed() {
		return nil, errors.New("vcd: the simulator is nil or closed")
	}
	unit := opts.Timescale
	if unit == "" {
		unit = "1ps"
	}
	exp, err := program.ParseTimeUnit(unit)
	if err != nil {
		return nil, fmt.Errorf("vcd: Timescale: %w", err)
	}
	sel, err := newSelection(s, opts)
	if err != nil {
		return nil, err
	}
	vw := &Writer{s: s, bw: bufio.NewWriterSize(w, 64<<10), mul: 1, div: 1}
	for e := exp; e > -12; e-- {
		vw.div *= 10
	}
	for e := exp; e < -12; e++ {
		vw.mul *= 10
	}
	root, elems := sel.build()
	widest := 1
	for i, el := range elems {
		ws, err := s.GetWords(el.h, el.elem, nil)
		if err != nil {
			return nil, fmt.Errorf("vcd: reading %s: %w", el.h.Path, err)
		}
		vw.vars = append(vw.vars, variable{h: el.h, elem: el.elem, off: len(vw.prev), n: len(ws), width: el.h.Width, id: idCode(i), name: el.h.Path})
		vw.prev = append(vw.prev, make([]uint64, len(ws))...)
		widest = max(widest, len(ws))
	}
	vw.buf = make([]uint64, 0, widest)
	vw.header(root, program.TimeString(exp))
	if vw.err != nil {
		return nil, vw.err
	}
	return vw, nil
}

// Create is New writing to a new file at path (buffered; Close closes it).
func Create(path string, s *sim.Simulator, opts Options) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("vcd: %w", err)
	}
	w, err := New(f, s, opts)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	w.file = f
	return w, nil
}

// header writes everything up to $enddefinitions.
func (w *Writer) header(root *scope, unit string) {
	w.printf("$version\n   weft\n$end\n$timescale\n   %s\n$end\n", unit)
	var walk func(sc *scope)
	walk = func(sc *scope) {
		w.printf("$scope %s %s $end\n", sc.kind, sc.name)
		for _, d := range sc.vars {
			v := &w.vars[d.v]
			if r := varRange(v.h); r != "" {
				w.printf("$var %s %d %s %s %s $end\n", varType(v.h), v.width, v.id, d.name, r)
			} else {
				w.printf("$var %s %d %s %s $end\n", varType(v.h), v.width, v.id, d.name)
			}
		}
		for _, c := range sc.children {
			walk(c)
		}
		w.printf("$upscope $end\n")
	}
	for _, sc := range root.children {
		walk(sc)
	}
	w.printf("$enddefinitions $end\n")
}

func (w *Writer) printf(format string, args ...any) {
	if w.err == nil {
		if _, err := fmt.Fprintf(w.bw, format, args...); err != nil {
			w.err = fmt.Errorf("vcd: %w", err)
		}
	}
}

func (w *Writer) write(p []byte) {
	if w.err == nil {
		if _, err := w.bw.Write(p); err != nil {
			w.err = fmt.Errorf("vcd: %w", err)
		}
	}
}

// Sample records the simulator's state as the final state at time t (in
// picoseconds, the unit of sim.SetTime): the first call writes #t and
// every value in a $dumpvars section; later calls write #t and every value
// that changed since the previous call, and nothing when none changed.
// Times must not decrease; calls whose times fall in one unit of the
// Timescale share one #time. Call it after every time step of the bench.
func (w *Writer) Sample(t uint64) error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	vt := t * w.mul / w.div
	if w.sampled && vt < w.last {
		return fmt.Errorf("vcd: sample at %d ps comes before the previous one (#%d): samples must come in time order", t, w.last)
	}
	if !w.sampled || vt != w.last {
		w.stamped = false
	}
	w.last = vt
	first := !w.sampled
	if first {
		w.stamp()
		w.write([]byte("$dumpvars\n"))
	}
	for i := range w.vars {
		v := &w.vars[i]
		cur, err := w.s.GetWords(v.h, v.elem, w.buf[:0])
		if err != nil {
			return fmt.Errorf("vcd: sampling %s at time %d: %w", v.name, t, err)
		}
		old := w.prev[v.off : v.off+v.n]
		if !first && equal(cur, old) {
			continue
		}
		copy(old, cur)
		if !w.stamped {
			w.stamp()
		}
		w.line = appendValue(w.line[:0], cur, v.width, v.id)
		w.write(w.line)
	}
	if first {
		w.write([]byte("$end\n"))
		w.sampled = true
	}
	return w.err
}

// stamp writes "#last".
func (w *Writer) stamp() {
	w.line = append(strconv.AppendUint(append(w.line[:0], '#'), w.last, 10), '\n')
	w.write(w.line)
	w.stamped = true
}

func equal(a, b []uint64) bool {
	if len(a) == 1 {
		return a[0] == b[0]
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// appendValue appends one value change line: "1!" for a scalar, "b101 !"
// for a vector (leading zeros dropped; a reader extends with 0).
func appendValue(dst []byte, ws []uint64, width int, id string) []byte {
	if width == 1 {
		dst = append(dst, '0'+byte(ws[0]&1))
		dst = append(dst, id...)
		return append(dst, '\n')
	}
	dst = append(dst, 'b')
	top := -1
	for i := len(ws) - 1; i >= 0; i-- {
		if ws[i] != 0 {
			top = i*64 + bits.Len64(ws[i]) - 1
			break
		}
	}
	if top < 0 {
		dst = append(dst, '0')
	}
	for b := top; b >= 0; b-- {
		dst = append(dst, '0'+byte(ws[b>>6]>>(b&63)&1))
	}
	dst = append(dst, ' ')
	dst = append(dst, id...)
	return append(dst, '\n')
}

// Flush writes what is buffered to the underlying writer.
func (w *Writer) Flush() error {
	if w.closed {
		return ErrClosed
	}
	if w.err == nil {
		if err := w.bw.Flush(); err != nil {
			w.err = fmt.Errorf("vcd: %w", err)
		}
	}
	return w.err
}

// Close flushes the output and, for a Writer from Create, closes the file.
// It is idempotent; every other method returns ErrClosed afterwards.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	err := w.Flush()
	w.closed = true
	if w.file != nil {
		if cerr := w.file.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("vcd: %w", cerr)
		}
	}
	return err
}

// idCode is the identifier code of the i-th variable: printable ASCII
// from '!' to '~', in base 94 with the shortest codes first ("!" … "~",
// then "!!", "\"!", …).
func idCode(i int) string {
	var b []byte
	for {
		b = append(b, byte('!'+i%94))
		i /= 94
		if i == 0 {
			break
		}
		i--
	}
	return string(b)
}
