package dut

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// DUT is the design under test, seen through its simulator.
type DUT struct {
	s *sim.Simulator
	d *program.Program

	names     []string // every signal name without the top prefix (lazy)
	instByPat map[string]*program.Scope
}

// New returns handles on the design s simulates.
func New(s *sim.Simulator) *DUT { return &DUT{s: s, d: s.Program()} }

// Sim is the simulator behind the handles.
func (d *DUT) Sim() *sim.Simulator { return d.s }

// Program is the simulated program: its signal table and scopes.
func (d *DUT) Program() *program.Program { return d.d }

// UnknownError is returned for a name that is not a signal of the design.
type UnknownError struct {
	Name string
	// Suggestions are the closest names, best first (may be empty).
	Suggestions []string
	// Reason, when set, says why the name does not resolve (e.g. an index
	// out of range).
	Reason string
}

func (e *UnknownError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("dut: %s: %s", e.Name, e.Reason)
	}
	msg := fmt.Sprintf("dut: no signal %q in the design", e.Name)
	if len(e.Suggestions) > 0 {
		q := make([]string, len(e.Suggestions))
		for i, s := range e.Suggestions {
			q[i] = strconv.Quote(s)
		}
		msg += "; did you mean " + strings.Join(q, " or ") + "?"
	}
	return msg
}

// Signal finds a signal by hierarchical name: "u_tx.state", or with the
// top instance prefix ("top.u_tx.state"); child port names reach the
// parent signal they are connected to. A trailing index selects an array
// element: "mem[3]", "grid[1][2]" (declared indexes).
func (d *DUT) Signal(name string) (*Signal, error) {
	if h, ok := d.d.Lookup(name); ok {
		return &Signal{d: d, h: h, name: name, elem: -1}, nil
	}
	base, idx, ok := splitIndexes(name)
	if ok {
		if h, found := d.d.Lookup(base); found {
			sig := &Signal{d: d, h: h, name: base, elem: -1}
			return sig.Elem(idx...)
		}
	}
	return nil, &UnknownError{Name: name, Suggestions: d.suggest(name)}
}

// MustSignal is Signal that panics on error (for spec set-up code).
func (d *DUT) MustSignal(name string) *Signal {
	s, err := d.Signal(name)
	if err != nil {
		panic(err)
	}
	return s
}

// splitIndexes splits "a.b[3][4]" into "a.b" and [3 4].
func splitIndexes(name string) (string, []int, bool) {
	var idx []int
	for strings.HasSuffix(name, "]") {
		open := strings.LastIndexByte(name, '[')
		if open <= 0 {
			return "", nil, false
		}
		v, err := strconv.Atoi(strings.TrimSpace(name[open+1 : len(name)-1]))
		if err != nil {
			return "", nil, false
		}
		idx = append([]int{v}, idx...)
		name = name[:open]
	}
	return name, idx, len(idx) > 0
}

// Signals lists every signal name (without the top prefix; port aliases
// included), in design order.
func (d *DUT) Signals() []string {
	return append([]string(nil), d.allNames()...)
}

func (d *DUT) strip(p string) string {
	if d.d.Top != nil {
		if rest, ok := strings.CutPrefix(p, d.d.Top.Path+"."); ok {
			return rest
		}
	}
	return p
}

func (d *DUT) allNames() []string {
	if d.names == nil {
		for _, h := range d.d.Signals {
			if h.Kind == program.KindBlockLocal {
				continue
			}
			for _, n := range h.Names() {
				d.names = append(d.names, d.strip(n))
			}
		}
	}
	return d.names
}

// suggest returns up to three names close to q.
func (d *DUT) suggest(q string) []string {
	q = d.strip(q)
	if b, _, ok := splitIndexes(q); ok {
		q = b
	}
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	leaf := q[strings.LastIndexByte(q, '.')+1:]
	limit := max(2, len(q)/3)
	for _, n := range d.allNames() {
		if n == q {
			continue
		}
		nl := n[strings.LastIndexByte(n, '.')+1:]
		dist := levenshtein(q, n, limit)
		if nl == leaf && dist > 1 {
			dist = 1 // the same leaf name in another instance
		}
		if dist <= limit {
			cs = append(cs, cand{n, dist})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// levenshtein is the edit distance of a and b, or limit+1 when it is
// more than limit.
func levenshtein(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Signal is a handle on one signal (a home) or one element of an array.
type Signal struct {
	d    *DUT
	h    *program.Signal
	name string
	elem int // -1: the whole home
}

// Name is the name the signal was found by (with its index for an
// element).
func (s *Signal) Name() string { return s.name }

// Path is the full hierarchical name ("top.u_tx.state", "top.mem[3]").
func (s *Signal) Path() string {
	if s.elem >= 0 && s.h.IsArray() {
		return s.h.Path + s.indexText()
	}
	return s.h.Path
}

func (s *Signal) indexText() string {
	var b strings.Builder
	rem := s.elem
	dims := s.h.Unpacked
	idx := make([]int, len(dims))
	for k := len(dims) - 1; k >= 0; k-- {
		idx[k] = dims[k].Lo() + rem%dims[k].Size()
		rem /= dims[k].Size()
	}
	for _, i := range idx {
		fmt.Fprintf(&b, "[%d]", i)
	}
	return b.String()
}

// Home is the design home behind the handle.
func (s *Signal) Home() *program.Signal { return s.h }

// ElemIndex is the 0-based flattened element a scalar handle reads (0
// for a home that is not an array, -1 for a whole-array handle).
func (s *Signal) ElemIndex() int {
	if s.IsArray() {
		return -1
	}
	return max(s.elem, 0)
}

// Width is the bit width of the value (of one element for an array).
func (s *Signal) Width() int { return s.h.Width }

// Signed reports whether the signal is declared signed.
func (s *Signal) Signed() bool { return s.h.Signed }

// IsArray reports whether the handle is a whole unpacked array (a
// memory): use Elem, Peek, Poke, Load on it.
func (s *Signal) IsArray() bool { return s.elem < 0 && s.h.IsArray() }

// Len is the number of elements of an array handle (1 otherwise).
func (s *Signal) Len() int {
	if s.IsArray() {
		return s.h.Elems()
	}
	return 1
}

// IsInput reports whether Set may write the signal: a top-level input.
func (s *Signal) IsInput() bool { return s.d.s.IsTopInput(s.h) }

// Kind says what declared the signal.
func (s *Signal) Kind() program.Kind { return s.h.Kind }

func (s *Signal) String() string { return s.Path() }

func (s *Signal) errf(format string, args ...any) error {
	return fmt.Errorf("dut: %s: "+format, append([]any{s.name}, args...)...)
}

func (s *Signal) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("dut: %s: %w", s.name, err)
}

// scalarElem is the element a scalar access uses.
func (s *Signal) scalarElem() (int, error) {
	if s.IsArray() {
		return 0, s.errf("is an array of %d elements; use Elem(i), Peek(i) or Poke(i, v)", s.h.Elems())
	}
	return max(s.elem, 0), nil
}

// Value returns the signal's value (the low 64 bits of a wider signal).
func (s *Signal) Value() (uint64, error) {
	e, err := s.scalarElem()
	if err != nil {
		return 0, err
	}
	v, err := s.d.s.Get(s.h, e)
	return v, s.wrap(err)
}

// Get is Value without the error: 0 for an array handle or a closed
// simulator.
func (s *Signal) Get() uint64 {
	v, _ := s.Value()
	return v
}

// ValueBig returns the signal's value as an unsigned big integer.
func (s *Signal) ValueBig() (*big.Int, error) {
	e, err := s.scalarElem()
	if err != nil {
		return nil, err
	}
	v, err := s.d.s.GetBig(s.h, e)
	return v, s.wrap(err)
}

// GetBig is ValueBig without the error (0 on error).
func (s *Signal) GetBig() *big.Int {
	v, err := s.ValueBig()
	if err != nil {
		return new(big.Int)
	}
	return v
}

// GetSigned returns the value sign-extended from the signal's width when
// it is signed (zero-extended otherwise; the low 64 bits of wider signals).
func (s *Signal) GetSigned() int64 {
	v := s.Get()
	if s.h.Signed && s.h.Width < 64 && v>>(s.h.Width-1)&1 != 0 {
		v |= ^uint64(0) << s.h.Width
	}
	return int64(v)
}

// Set writes a top-level input. It fails when the signal is not a
// top-level input (use Deposit) or v does not fit its width.
func (s *Signal) Set(v uint64) error {
	ws := [1]uint64{v}
	return s.set(ws[:], false)
}

// SetWords is Set for any width: ws holds the value least significant
// word first (64 bits each); missing words are zero, extra ones must be.
func (s *Signal) SetWords(ws []uint64) error { return s.set(ws, false) }

// SetBig is Set for any width (v must be non-negative: the bit pattern).
func (s *Signal) SetBig(v *big.Int) error {
	ws, ok := sim.BigToWords(v, s.h.Width)
	if !ok {
		return s.fitErr(v)
	}
	return s.set(ws, false)
}

// SetSigned writes a signed value: it must lie in the range of the
// signal's width (two's complement for signed signals, 0..2^W-1 else).
func (s *Signal) SetSigned(v int64) error {
	w := s.h.Width
	if s.h.Signed {
		if w < 64 && (v < -(1<<(w-1)) || v >= 1<<(w-1)) {
			return s.errf("value %d does not fit in %d signed bits (%d..%d)", v, w, -(int64(1) << (w - 1)), int64(1)<<(w-1)-1)
		}
		u := uint64(v)
		if w < 64 {
			u &= 1<<w - 1
		}
		return s.set([]uint64{u}, false)
	}
	if v < 0 {
		return s.fitErr(big.NewInt(v))
	}
	return s.Set(uint64(v))
}

// Deposit writes any signal once: a deliberate write to internal state
// (a flop keeps the value until its process assigns it; a net that comb
// logic drives until the next settle recomputes it). The value must fit.
// (It is not a Verilog force, which holds the value: see bench.Force.)
func (s *Signal) Deposit(v uint64) error {
	ws := [1]uint64{v}
	return s.set(ws[:], true)
}

// DepositWords is Deposit for any width, with words as in SetWords.
func (s *Signal) DepositWords(ws []uint64) error { return s.set(ws, true) }

// DepositBig is Deposit for any width.
func (s *Signal) DepositBig(v *big.Int) error {
	ws, ok := sim.BigToWords(v, s.h.Width)
	if !ok {
		return s.fitErr(v)
	}
	return s.set(ws, true)
}

func (s *Signal) fitErr(v *big.Int) error {
	return s.errf("value %s (%#x) does not fit in %d bits", v, v, s.h.Width)
}

func (s *Signal) set(ws []uint64, force bool) error {
	e, err := s.scalarElem()
	if err != nil {
		return err
	}
	if force {
		err = s.d.s.DepositWords(s.h, e, ws)
	} else {
		err = s.d.s.SetInputWords(s.h, e, ws)
	}
	if err == nil {
		// Before the errors.As targets: taking their addresses moves them
		// to the heap, two allocations per write otherwise.
		return nil
	}
	var fe *sim.FitError
	if errors.As(err, &fe) {
		return s.errf("value %s does not fit in %d bits", fe.Value, fe.Width)
	}
	var ie *sim.InputError
	if errors.As(err, &ie) {
		return s.errf("not a top-level input (%s of %s); Set drives inputs only, use Deposit to write internal state deliberately", kindPhrase(ie.Kind), ie.Inst)
	}
	return s.wrap(err)
}

// Elem returns a handle on one element of an array signal, by declared
// index (one per unpacked dimension).
func (s *Signal) Elem(idx ...int) (*Signal, error) {
	if !s.IsArray() {
		return nil, s.errf("is not an array; no element %v (bit selects are not handles: use Get()>>i&1)", idx)
	}
	dims := s.h.Unpacked
	if len(idx) != len(dims) {
		return nil, s.errf("has %d unpacked dimensions, got %d indexes", len(dims), len(idx))
	}
	e := 0
	for k, d := range dims {
		if idx[k] < d.Lo() || idx[k] > d.Hi() {
			return nil, s.errf("index %d out of range %s", idx[k], d)
		}
		e = e*d.Size() + idx[k] - d.Lo()
	}
	el := &Signal{d: s.d, h: s.h, elem: e}
	el.name = s.name + el.indexText()
	return el, nil
}

// memElem maps a declared index of a one-dimensional array to its element.
func (s *Signal) memElem(i int) (int, error) {
	if !s.IsArray() {
		return 0, s.errf("is not an array (memory)")
	}
	if len(s.h.Unpacked) != 1 {
		return 0, s.errf("has %d unpacked dimensions; use Elem(i, j, ...)", len(s.h.Unpacked))
	}
	d := s.h.Unpacked[0]
	if i < d.Lo() || i > d.Hi() {
		return 0, s.errf("index %d out of range %s", i, d)
	}
	return i - d.Lo(), nil
}

// Peek reads word i (declared index) of a memory.
func (s *Signal) Peek(i int) (uint64, error) {
	e, err := s.memElem(i)
	if err != nil {
		return 0, err
	}
	v, err := s.d.s.Get(s.h, e)
	return v, s.wrap(err)
}

// PeekBig reads word i of a memory of any width.
func (s *Signal) PeekBig(i int) (*big.Int, error) {
	e, err := s.memElem(i)
	if err != nil {
		return nil, err
	}
	v, err := s.d.s.GetBig(s.h, e)
	return v, s.wrap(err)
}

// Poke writes word i (declared index) of a memory: a deliberate write to
// internal state, like Deposit.
func (s *Signal) Poke(i int, v uint64) error {
	e, err := s.memElem(i)
	if err != nil {
		return err
	}
	if err = s.d.s.Deposit(s.h, e, v); err == nil {
		return nil
	}
	var fe *sim.FitError
	if errors.As(err, &fe) {
		return s.errf("value %s does not fit word %d (%d bits)", fe.Value, i, fe.Width)
	}
	return s.wrap(err)
}

// PokeBig writes word i of a memory of any width.
func (s *Signal) PokeBig(i int, v *big.Int) error {
	e, err := s.memElem(i)
	if err != nil {
		return err
	}
	ws, ok := sim.BigToWords(v, s.h.Width)
	if !ok {
		return s.errf("value %s (%#x) does not fit word %d (%d bits)", v, v, i, s.h.Width)
	}
	return s.wrap(s.d.s.DepositWords(s.h, e, ws))
}

// Load writes words to a memory from its lowest element on (fewer words
// than elements leave the rest unchanged). Every value is checked first.
func (s *Signal) Load(words []uint64) error {
	if !s.IsArray() {
		return s.errf("is not an array (memory)")
	}
	err := s.d.s.SetMem(s.h, 0, words)
	var fe *sim.FitError
	if errors.As(err, &fe) {
		return s.errf("%s does not fit in %d bits", fe.Value, fe.Width)
	}
	return s.wrap(err)
}

// Words reads every element of a memory (elements of at most 64 bits).
func (s *Signal) Words() ([]uint64, error) {
	if !s.IsArray() {
		return nil, s.errf("is not an array (memory)")
	}
	v, err := s.d.s.GetMem(s.h)
	return v, s.wrap(err)
}

func kindPhrase(k program.Kind) string {
	switch k {
	case program.KindInput:
		return "an input port"
	case program.KindOutput:
		return "an output port"
	case program.KindVar:
		return "a variable"
	case program.KindNet:
		return "a net"
	case program.KindBlockLocal:
		return "a process-local variable"
	}
	return "a " + k.String()
}
