package statelayout

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
)

// Layout places every object of a Space in state memory. It implements
// sir.Layout and sir.Sizer. Every layout kind (Packed, Segmented) is a
// *Layout built by its own constructor; lookups are the same.
type Layout struct {
	space    *Space
	kind     string
	offsets  []int // by object ID
	ringOff  int
	size     int
	segments []Segment // nil for Packed
}

var (
	_ sir.Layout = (*Layout)(nil)
	_ sir.Sizer  = (*Layout)(nil)
)

// Slot is where an object lies: ID, absolute byte Offset, total Size, and
// Elems elements of ElemSize bytes.
type Slot struct {
	ID              sir.HomeID
	Offset, Size    int
	ElemSize, Elems int
}

// Elem is the absolute byte offset of element e.
func (s Slot) Elem(e int) int { return s.Offset + e*s.ElemSize }

// Packed places the objects of sp one after another in ID order (design
// homes, staging copies, trigger bytes, previous values, system block,
// scratch), each at the next multiple of its alignment, then the ring (8
// aligned). The total size is a multiple of 64. It freezes sp.
func Packed(sp *Space) *Layout {
	sp.frozen = true
	l := &Layout{space: sp, kind: "packed", offsets: make([]int, len(sp.objects))}
	off := 0
	for i, o := range sp.objects {
		if sp.shared(o) {
			continue
		}
		off = alignUp(off, o.Align)
		l.offsets[i] = off
		off += o.Size()
	}
	off = alignUp(off, 8)
	l.ringOff = off
	off += sp.ring.Size()
	l.size = alignUp(off, 64)
	l.placeShared()
	return l
}

// shared reports whether o is a design home with no storage of its own
// (design.Design.Shares).
func (sp *Space) shared(o *Object) bool {
	if o.Kind != KindHome {
		return false
	}
	_, ok := sp.Design.Shares(o.Home)
	return ok
}

// placeShared gives every home that shares another home's storage the
// offset of the element it shares (following chains of sharing homes).
func (l *Layout) placeShared() {
	var at func(h *design.Home) int
	at = func(h *design.Home) int {
		if s, ok := l.space.Design.Shares(h); ok {
			return at(s.Home) + s.Elem*l.space.objects[s.Home.ID].ElemSize
		}
		return l.offsets[h.ID]
	}
	for _, o := range l.space.objects {
		if l.space.shared(o) {
			l.offsets[o.ID] = at(o.Home)
		}
	}
}

func alignUp(x, a int) int {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

// Space is the placed space.
func (l *Layout) Space() *Space { return l.space }

// Kind names the layout kind ("packed" or "segmented").
func (l *Layout) Kind() string { return l.kind }

// StateSize is the size of state memory in bytes.
func (l *Layout) StateSize() int { return l.size }

// Offset implements sir.Layout: the byte offset of object h (-1 if none).
func (l *Layout) Offset(h sir.HomeID) int {
	if h == sir.RingHome {
		return l.ringOff
	}
	if h < 0 || int(h) >= len(l.offsets) {
		return -1
	}
	return l.offsets[h]
}

// Size implements sir.Sizer: the size of object h in bytes (0 if none).
func (l *Layout) Size(h sir.HomeID) int {
	if o := l.space.Object(h); o != nil {
		return o.Size()
	}
	return 0
}

// Slot returns where object id lies.
func (l *Layout) Slot(id sir.HomeID) Slot {
	o := l.space.Object(id)
	if o == nil {
		return Slot{ID: id, Offset: -1}
	}
	return Slot{ID: id, Offset: l.Offset(id), Size: o.Size(), ElemSize: o.ElemSize, Elems: o.Elems}
}

// Home returns where design home h lies.
func (l *Layout) Home(h *design.Home) Slot { return l.Slot(sir.HomeID(h.ID)) }

// Staging returns where the staging copy of h lies; ok is false when h has
// none.
func (l *Layout) Staging(h *design.Home) (s Slot, ok bool) {
	o := l.space.Staging(h)
	if o == nil {
		return Slot{}, false
	}
	return l.Slot(o.ID), true
}

// TriggerByte is the absolute offset of trigger event e's byte
// (Space.Events[e]).
func (l *Layout) TriggerByte(e int) int { return l.Offset(l.space.triggers.ID) + e }

// Triggers returns where the trigger bytes lie.
func (l *Layout) Triggers() Slot { return l.Slot(l.space.triggers.ID) }

// PrevByte is the absolute offset of the previous-value byte of
// Schedule.Triggers[t].
func (l *Layout) PrevByte(t int) int { return l.Offset(l.space.prev.ID) + t }

// Sys is the absolute offset of the system block (see SysDiag...).
func (l *Layout) Sys() int { return l.Offset(l.space.sys.ID) }

// Ring returns where the event ring lies (header first).
func (l *Layout) Ring() Slot { return l.Slot(sir.RingHome) }

// Bit returns the byte offset and bit shift of bit `bit` of element elem
// of h: the bit is state[off]>>shift&1.
func (l *Layout) Bit(h *design.Home, elem, bit int) (off int, shift uint) {
	s := l.Home(h)
	return s.Elem(elem) + bit/8, uint(bit % 8)
}

// Init writes the time-zero state into state (at least StateSize bytes):
// zeroes, every home's initial value, staging copies equal to their
// homes, and an empty ring.
func (l *Layout) Init(state []byte) {
	if len(state) < l.size {
		panic(fmt.Sprintf("statelayout: state of %d bytes, need %d", len(state), l.size))
	}
	clear(state[:l.size])
	for _, h := range l.space.Design.Homes {
		if h.Init == nil {
			continue
		}
		s := l.Home(h)
		if h.Init.Value != nil && h.Init.Value.Sign() != 0 {
			for e := 0; e < s.Elems; e++ {
				PutValue(state[s.Elem(e):s.Elem(e)+s.ElemSize], h.Init.Value)
			}
		}
		for e, v := range h.Init.Elems {
			if e >= 0 && e < s.Elems {
				PutValue(state[s.Elem(e):s.Elem(e)+s.ElemSize], design.Mask(v, h.Width))
			}
		}
	}
	l.SyncStaging(state)
	r := l.Ring()
	sir.InitRing(state[r.Offset:], l.space.RingCap())
}

// SyncStaging copies every staged home into its staging copy. Kernels do
// not need it (evaluate fills staging from the home), but a simulator that
// pokes a flop may call it to keep the two equal.
func (l *Layout) SyncStaging(state []byte) {
	for _, o := range l.space.staging {
		if o == nil {
			continue
		}
		h := l.Home(o.Home)
		s := l.Slot(o.ID)
		copy(state[s.Offset:s.Offset+s.Size], state[h.Offset:h.Offset+h.Size])
	}
}

// PutValue writes v (non-negative, masked by the caller) little-endian into
// dst, zero-filling the rest; bits that do not fit are dropped.
func PutValue(dst []byte, v *big.Int) {
	clear(dst)
	be := v.Bytes()
	for i := range dst {
		if i >= len(be) {
			break
		}
		dst[i] = be[len(be)-1-i]
	}
}

// GetValue reads a little-endian unsigned value from src.
func GetValue(src []byte) *big.Int {
	be := make([]byte, len(src))
	for i, b := range src {
		be[len(src)-1-i] = b
	}
	return new(big.Int).SetBytes(be)
}

// Get returns element elem of h from state (unsigned bits).
func (l *Layout) Get(state []byte, h *design.Home, elem int) *big.Int {
	s := l.Home(h)
	return design.Mask(GetValue(state[s.Elem(elem):s.Elem(elem)+s.ElemSize]), h.Width)
}

// Set writes element elem of h (v is masked to the home's width).
func (l *Layout) Set(state []byte, h *design.Home, elem int, v *big.Int) {
	s := l.Home(h)
	PutValue(state[s.Elem(elem):s.Elem(elem)+s.ElemSize], design.Mask(v, h.Width))
}

// GetUint returns the low 64 bits of element elem of h.
func (l *Layout) GetUint(state []byte, h *design.Home, elem int) uint64 {
	s := l.Home(h)
	var v uint64
	p := state[s.Elem(elem) : s.Elem(elem)+min(s.ElemSize, 8)]
	for i := len(p) - 1; i >= 0; i-- {
		v = v<<8 | uint64(p[i])
	}
	return v & sir.Mask(h.Width)
}

// SetUint writes v (masked to the home's width) to element elem of h.
func (l *Layout) SetUint(state []byte, h *design.Home, elem int, v uint64) {
	l.Set(state, h, elem, new(big.Int).SetUint64(v))
}

// Dump writes one line per object: offset, size, kind, name. A segmented
// layout writes a line per segment (lane, byte range) before the objects of
// the segment, in placement order.
func (l *Layout) Dump(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "layout %s: %d bytes\n", l.kind, l.size)
	line := func(o *Object) {
		fmt.Fprintf(&b, "  %6d %6d  %-8s %-4s %s", l.Offset(o.ID), o.Size(), o.Kind, o.ID, o.Name)
		if o.Elems > 1 {
			fmt.Fprintf(&b, " [%d x %d]", o.Elems, o.ElemSize)
		}
		b.WriteByte('\n')
	}
	if l.segments != nil {
		for _, sg := range l.segments {
			fmt.Fprintf(&b, "segment %s [%d, %d)\n", program.LaneName(sg.Lane), sg.Lo, sg.Hi)
			for _, id := range sg.Objects {
				line(l.space.Object(id))
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	for _, o := range l.space.objects {
		line(o)
	}
	line(l.space.ring)
	_, err := io.WriteString(w, b.String())
	return err
}
