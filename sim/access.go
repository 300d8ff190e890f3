package sim

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/bits"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
)

// Values move in and out of state memory as the layout encodes them:
// little-endian, ElemSize bytes per element, padding bits zero. Elements
// are 0-based flattened indexes (program.Dim: element k is index Lo()+k).

// Lookup finds a home by hierarchical name (with or without the top
// prefix; port aliases too).
func (s *Simulator) Lookup(name string) (*program.Signal, bool) { return s.p.Lookup(name) }

// IsTopInput reports whether h is an input port of the top instance: the
// homes SetInput accepts.
func (s *Simulator) IsTopInput(h *program.Signal) bool {
	return s.checkHome(h) == nil && s.isTopInput(h)
}

func (s *Simulator) isTopInput(h *program.Signal) bool {
	return h.Kind == program.KindInput && h.Scope() == s.p.Top
}

// checkHome reports whether h is a home of the simulated design.
func (s *Simulator) checkHome(h *program.Signal) error {
	if h == nil {
		return fmt.Errorf("sim: nil signal")
	}
	if h.ID < 0 || h.ID >= len(s.p.Signals) || s.p.Signals[h.ID] != h {
		return fmt.Errorf("sim: %s is not a home of the simulated design", h.Path)
	}
	return nil
}

// loc returns the byte offset and size of element elem of h.
func (s *Simulator) loc(h *program.Signal, elem int) (off, size int, err error) {
	if s.st == nil {
		return 0, 0, ErrClosed
	}
	if err := s.checkHome(h); err != nil {
		return 0, 0, err
	}
	if elem < 0 || elem >= h.Elems() {
		return 0, 0, fmt.Errorf("sim: %s: element %d out of range (0..%d)", h.Path, elem, h.Elems()-1)
	}
	size = s.homeESz[h.ID]
	return s.homeOff[h.ID] + elem*size, size, nil
}

// Get returns element elem of h (the low 64 bits of a wider home).
func (s *Simulator) Get(h *program.Signal, elem int) (uint64, error) {
	off, size, err := s.loc(h, elem)
	if err != nil {
		return 0, err
	}
	return load(s.st[off:off+size], size), nil
}

func load(p []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(p[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(p))
	case 4:
		return uint64(binary.LittleEndian.Uint32(p))
	}
	return binary.LittleEndian.Uint64(p)
}

// GetWords appends element elem of h to dst as ceil(Width/64) 64-bit
// words, least significant first.
func (s *Simulator) GetWords(h *program.Signal, elem int, dst []uint64) ([]uint64, error) {
	off, size, err := s.loc(h, elem)
	if err != nil {
		return dst, err
	}
	if size <= 8 {
		return append(dst, load(s.st[off:off+size], size)), nil
	}
	for i := 0; i < size; i += 8 {
		dst = append(dst, binary.LittleEndian.Uint64(s.st[off+i:]))
	}
	return dst, nil
}

// GetBig returns element elem of h as an unsigned big integer.
func (s *Simulator) GetBig(h *program.Signal, elem int) (*big.Int, error) {
	ws, err := s.GetWords(h, elem, nil)
	if err != nil {
		return nil, err
	}
	return wordsToBig(ws), nil
}

func wordsToBig(ws []uint64) *big.Int {
	x := new(big.Int)
	for i := len(ws) - 1; i >= 0; i-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(ws[i]))
	}
	return x
}

// BigToWords converts a non-negative v to n words; ok is false when v is
// negative or needs more than width bits.
func BigToWords(v *big.Int, width int) (ws []uint64, ok bool) {
	if v == nil || v.Sign() < 0 || v.BitLen() > width {
		return nil, false
	}
	n := (width + 63) / 64
	ws = make([]uint64, n)
	x := new(big.Int).Set(v)
	mask := new(big.Int).SetUint64(^uint64(0))
	for i := 0; i < n; i++ {
		ws[i] = new(big.Int).And(x, mask).Uint64()
		x.Rsh(x, 64)
	}
	return ws, true
}

// FitError says that a value does not fit the width of the home written.
type FitError struct {
	Name  string
	Width int
	Value string
}

func (e *FitError) Error() string {
	return fmt.Sprintf("%s: value %s does not fit in %d bits", e.Name, e.Value, e.Width)
}

func valueText(v *big.Int) string { return fmt.Sprintf("%s (%#x)", v, v) }

// InputError says that a home written as an input is not a top-level input.
type InputError struct {
	Name string
	Kind program.Kind
	Inst string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s is not a top-level input (it is a %s of %s); write internal state deliberately with Deposit", e.Name, e.Kind, e.Inst)
}

// CopyError says that a write names an element a continuous assignment
// drove (assign Name = From) which the compiler let share From's storage:
// writing it would change From too, where the assignment would have
// undone the write at the next settle.
type CopyError struct {
	Name string
	Elem int
	From string
	Pos  program.Pos
}

func (e *CopyError) Error() string {
	name := e.Name
	if e.Elem > 0 {
		name = fmt.Sprintf("%s element %d", e.Name, e.Elem)
	}
	return fmt.Sprintf("%s is a continuous copy of %s (the assignment at %s), which weft keeps in the same storage: writing it would change %s too; write %s instead", name, e.From, e.Pos, e.From, e.From)
}

// copied returns the CopyError of element elem of h, nil when no removed
// copy drove it.
func copied(h *program.Signal, elem int) error {
	for _, c := range h.Copies {
		if c.Elem == elem {
			return &CopyError{Name: h.Path, Elem: elem, From: c.From, Pos: c.Pos}
		}
	}
	return nil
}

// write stores words (least significant first) into element elem of h,
// keeps its staging copy equal, and marks the state for an input settle
// when comb logic reads h. A signal without storage of its own
// (program.Signal.Shares) is written where it lies.
func (s *Simulator) write(h *program.Signal, elem int, ws []uint64) error {
	off, size, err := s.loc(h, elem)
	if err != nil {
		return err
	}
	if !fits(ws, h.Width) {
		return &FitError{Name: h.Path, Width: h.Width, Value: valueText(wordsToBig(ws))}
	}
	if err := copied(h, elem); err != nil {
		return err
	}
	if h.Shares != nil {
		for h.Shares != nil {
			h, elem = s.p.Signals[h.Shares.Signal], h.Shares.Elem
		}
		if off, size, err = s.loc(h, elem); err != nil {
			return err
		}
	}
	p := s.st[off : off+size]
	switch size {
	case 1:
		p[0] = byte(word(ws, 0))
	case 2:
		binary.LittleEndian.PutUint16(p, uint16(word(ws, 0)))
	case 4:
		binary.LittleEndian.PutUint32(p, uint32(word(ws, 0)))
	default:
		for i := 0; i < size; i += 8 {
			binary.LittleEndian.PutUint64(p[i:], word(ws, i/8))
		}
	}
	if so := s.stageOff[h.ID]; so >= 0 {
		copy(s.st[so+elem*size:so+elem*size+size], p)
	}
	if s.combRead[h.ID] {
		s.dirty = true
	}
	s.written = true
	if s.shadow != nil {
		for _, ref := range s.shadow.refs {
			if err := ref.write(ref.p.Signals[h.ID], elem, ws); err != nil {
				return err
			}
		}
	}
	return nil
}

func word(ws []uint64, i int) uint64 {
	if i < len(ws) {
		return ws[i]
	}
	return 0
}

// fits reports whether the value of ws has no bit at or above width.
func fits(ws []uint64, width int) bool {
	for i, w := range ws {
		lo := i * 64
		if lo >= width {
			if w != 0 {
				return false
			}
			continue
		}
		if width-lo < 64 && w&^sir.Mask(width-lo) != 0 {
			return false
		}
	}
	return true
}

// SetInput writes v to the top-level input h (a scalar of at most 64
// bits; wider or array inputs use SetInputWords). The next Step sees it.
func (s *Simulator) SetInput(h *program.Signal, v uint64) error {
	return s.SetInputWords(h, 0, []uint64{v})
}

// SetInputWords writes element elem of the top-level input h.
func (s *Simulator) SetInputWords(h *program.Signal, elem int, ws []uint64) error {
	if s.st == nil {
		return ErrClosed
	}
	if err := s.checkHome(h); err != nil {
		return err
	}
	if !s.isTopInput(h) {
		inst := "<none>"
		if sc := h.Scope(); sc != nil {
			inst = sc.Path
		}
		return &InputError{Name: h.Path, Kind: h.Kind, Inst: inst}
	}
	return s.write(h, elem, ws)
}

// Deposit writes element elem of any home: a deliberate write to internal
// state (a flop, a memory word). Its staging copy follows. A value
// deposited on a net that comb logic drives lasts until the next settle
// recomputes it.
func (s *Simulator) Deposit(h *program.Signal, elem int, v uint64) error {
	return s.write(h, elem, []uint64{v})
}

// DepositWords is Deposit for values of any width.
func (s *Simulator) DepositWords(h *program.Signal, elem int, ws []uint64) error {
	return s.write(h, elem, ws)
}

// GetMem returns every element of h (elements of at most 64 bits).
func (s *Simulator) GetMem(h *program.Signal) ([]uint64, error) {
	if _, _, err := s.loc(h, 0); err != nil {
		return nil, err
	}
	if h.Width > 64 {
		return nil, fmt.Errorf("sim: %s: GetMem needs elements of at most 64 bits, they are %d", h.Path, h.Width)
	}
	n, size, off := h.Elems(), s.homeESz[h.ID], s.homeOff[h.ID]
	out := make([]uint64, n)
	for e := range out {
		out[e] = load(s.st[off+e*size:], size)
	}
	return out, nil
}

// SetMem writes vals to elements first, first+1, ... of h (elements of at
// most 64 bits). It checks every value before writing any.
func (s *Simulator) SetMem(h *program.Signal, first int, vals []uint64) error {
	if _, _, err := s.loc(h, 0); err != nil {
		return err
	}
	if h.Width > 64 {
		return fmt.Errorf("sim: %s: SetMem needs elements of at most 64 bits, they are %d", h.Path, h.Width)
	}
	if first < 0 || first+len(vals) > h.Elems() {
		return fmt.Errorf("sim: %s: %d values from element %d do not fit its %d elements", h.Path, len(vals), first, h.Elems())
	}
	for i, v := range vals {
		if bits.Len64(v) > h.Width {
			return &FitError{Name: fmt.Sprintf("%s element %d", h.Path, first+i), Width: h.Width, Value: valueText(new(big.Int).SetUint64(v))}
		}
		if err := copied(h, first+i); err != nil {
			return err
		}
	}
	for i, v := range vals {
		if err := s.write(h, first+i, []uint64{v}); err != nil {
			return err
		}
	}
	return nil
}
