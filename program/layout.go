package program

import (
	"fmt"
	"io"
	"strings"

	"github.com/weft-hdl/weft/sir"
)

// System block fields: byte offsets inside the system object (Layout.Sys).
// The kernel lowering writes them and the simulator reads them; this is
// their one definition.
const (
	SysDiag   = 0  // u32: detail of the last error status (loop index or loop site)
	SysRandom = 4  // u32: $random / $urandom generator state
	SysTime   = 8  // u64: simulation time for $time
	SysSize   = 16 // bytes
)

// Lane status object fields (Parallel.Status): one object per lane.
const (
	// LaneStatus is the u32 status of the first $finish/$stop/$fatal a
	// task of the lane ran (0: none); the simulator clears it.
	LaneStatus = 0
	// LaneDiag is the u32 detail of a task's error status (what SysDiag
	// holds for the sequential kernels).
	LaneDiag = 4
	// LaneStatusSize is the size of a lane status object.
	LaneStatusSize = 8
)

// Object is one placed storage object: Elems elements of ElemSize bytes
// at Offset.
type Object struct {
	Name            string
	Kind            string // "home", "staging", "triggers", "prev", "sys", "scratch", "ring"
	Offset          int
	ElemSize, Elems int
}

// Size is the object's size in bytes.
func (o Object) Size() int { return o.ElemSize * o.Elems }

// Elem is the absolute byte offset of element e.
func (o Object) Elem(e int) int { return o.Offset + e*o.ElemSize }

// Stage pairs a signal with its staging copy (non-blocking targets).
type Stage struct {
	Signal int
	Copy   sir.HomeID
}

// Fill is one initial-value write: Count copies of Bytes, Stride bytes
// apart, from Offset.
type Fill struct {
	Offset, Stride, Count int
	Bytes                 []byte
}

// Segment is a run of state owned by one lane (see statelayout.Segment).
type Segment struct {
	Lane    int
	Lo, Hi  int
	Objects []sir.HomeID
}

// Layout is where every object of a program lies in state memory. It
// implements sir.Layout and sir.Sizer over the objects; object IDs are
// sir.HomeIDs, and signal i is object i.
type Layout struct {
	Kind string // "packed" or "segmented"
	// Bytes is the state size.
	Bytes   int
	Objects []Object // by sir.HomeID
	// Ring is the runtime-event ring (sir.RingHome): a sir.RingHeaderSize
	// header, then RingCap bytes of records.
	Ring    Object
	RingCap int
	// Triggers, Prev and Sys are the IDs of the trigger bytes, the previous
	// trigger values and the system block.
	Triggers, Prev, Sys sir.HomeID
	Staging             []Stage
	Init                []Fill
	Segments            []Segment // nil for "packed"

	stagingOf map[int]sir.HomeID
}

var (
	_ sir.Layout = (*Layout)(nil)
	_ sir.Sizer  = (*Layout)(nil)
)

// StateSize is the size of state memory in bytes.
func (l *Layout) StateSize() int { return l.Bytes }

// Object returns object h (a zero Object with Offset -1 when there is
// none).
func (l *Layout) Object(h sir.HomeID) Object {
	if h == sir.RingHome {
		return l.Ring
	}
	if h < 0 || int(h) >= len(l.Objects) {
		return Object{Offset: -1}
	}
	return l.Objects[h]
}

// Offset implements sir.Layout: the byte offset of object h (-1 if none).
func (l *Layout) Offset(h sir.HomeID) int { return l.Object(h).Offset }

// Size implements sir.Sizer: the size of object h in bytes (0 if none).
func (l *Layout) Size(h sir.HomeID) int {
	if o := l.Object(h); o.Offset >= 0 {
		return o.Size()
	}
	return 0
}

// Signal is where signal id lies.
func (l *Layout) Signal(id int) Object { return l.Object(sir.HomeID(id)) }

// StagingOf is where signal id's staging copy lies; ok is false when it
// has none.
func (l *Layout) StagingOf(id int) (Object, bool) {
	h, ok := l.stagingOf[id]
	if !ok {
		return Object{}, false
	}
	return l.Object(h), true
}

// TriggerByte is the absolute offset of trigger event e's byte.
func (l *Layout) TriggerByte(e int) int { return l.Offset(l.Triggers) + e }

// PrevByte is the absolute offset of trigger t's previous-value byte.
func (l *Layout) PrevByte(t int) int { return l.Offset(l.Prev) + t }

// SysOffset is the absolute offset of the system block (SysDiag...).
func (l *Layout) SysOffset() int { return l.Offset(l.Sys) }

// Bit is the byte offset and shift of bit `bit` of element elem of
// signal id: the bit is state[off]>>shift&1.
func (l *Layout) Bit(id, elem, bit int) (off int, shift uint) {
	return l.Signal(id).Elem(elem) + bit/8, uint(bit % 8)
}

// InitState writes the time-zero state into state (at least Size bytes):
// zeroes, every initial value, staging copies equal to their signals, and
// an empty ring.
func (l *Layout) InitState(state []byte) {
	clear(state[:l.Bytes])
	for _, f := range l.Init {
		for k := 0; k < f.Count; k++ {
			copy(state[f.Offset+k*f.Stride:], f.Bytes)
		}
	}
	l.SyncStaging(state)
	sir.InitRing(state[l.Ring.Offset:], l.RingCap)
}

// SyncStaging copies every staged signal into its staging copy (a poke of
// a flop keeps the two equal this way).
func (l *Layout) SyncStaging(state []byte) {
	for _, st := range l.Staging {
		h, c := l.Signal(st.Signal), l.Object(st.Copy)
		copy(state[c.Offset:c.Offset+c.Size()], state[h.Offset:h.Offset+h.Size()])
	}
}

// link builds the staging index.
func (l *Layout) link() {
	l.stagingOf = make(map[int]sir.HomeID, len(l.Staging))
	for _, st := range l.Staging {
		l.stagingOf[st.Signal] = st.Copy
	}
}

// check reports an object, fill or staging pair that reaches outside the
// state, so that a damaged image is refused before anything runs on it.
func (l *Layout) check(signals int) error {
	in := func(off, n int) bool { return off >= 0 && n >= 0 && off <= l.Bytes && n <= l.Bytes-off }
	if l.Bytes <= 0 || l.Bytes > 1<<31 {
		return fmt.Errorf("program: layout of %d bytes", l.Bytes)
	}
	for i, o := range l.Objects {
		if o.ElemSize < 0 || o.Elems < 0 || o.Elems > 0 && o.ElemSize > l.Bytes/o.Elems+1 || !in(o.Offset, o.Size()) {
			return fmt.Errorf("program: object %d (%s) at %d, %d×%d bytes, outside the %d-byte state", i, o.Name, o.Offset, o.Elems, o.ElemSize, l.Bytes)
		}
	}
	if len(l.Objects) < signals {
		return fmt.Errorf("program: %d objects for %d signals", len(l.Objects), signals)
	}
	if l.RingCap < 0 || l.Ring.Size() != sir.RingHeaderSize+l.RingCap || !in(l.Ring.Offset, l.Ring.Size()) {
		return fmt.Errorf("program: ring at %d (%d bytes, capacity %d) outside the state", l.Ring.Offset, l.Ring.Size(), l.RingCap)
	}
	for _, id := range []sir.HomeID{l.Triggers, l.Prev, l.Sys} {
		if id < 0 || int(id) >= len(l.Objects) {
			return fmt.Errorf("program: system object %d out of range", id)
		}
	}
	if l.Object(l.Sys).Size() < SysSize {
		return fmt.Errorf("program: system block of %d bytes", l.Object(l.Sys).Size())
	}
	for _, f := range l.Init {
		if f.Count < 0 || f.Stride < 0 || !in(f.Offset, len(f.Bytes)) || f.Count > 0 && !in(f.Offset, (f.Count-1)*f.Stride+len(f.Bytes)) {
			return fmt.Errorf("program: initial value at %d outside the state", f.Offset)
		}
	}
	for _, st := range l.Staging {
		if st.Signal < 0 || st.Signal >= signals || st.Copy < 0 || int(st.Copy) >= len(l.Objects) || l.Object(st.Copy).Size() != l.Signal(st.Signal).Size() {
			return fmt.Errorf("program: staging pair %d/%d invalid", st.Signal, st.Copy)
		}
	}
	return nil
}

// Dump writes one line per object: offset, size, kind, name; a segmented
// layout writes each segment's line before its objects.
func (l *Layout) Dump(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "layout %s: %d bytes\n", l.Kind, l.Bytes)
	line := func(id sir.HomeID) {
		o := l.Object(id)
		fmt.Fprintf(&b, "  %6d %6d  %-8s %-4s %s", o.Offset, o.Size(), o.Kind, id, o.Name)
		if o.Elems > 1 {
			fmt.Fprintf(&b, " [%d x %d]", o.Elems, o.ElemSize)
		}
		b.WriteByte('\n')
	}
	if l.Segments != nil {
		for _, sg := range l.Segments {
			fmt.Fprintf(&b, "segment %s [%d, %d)\n", LaneName(sg.Lane), sg.Lo, sg.Hi)
			for _, id := range sg.Objects {
				line(id)
			}
		}
	} else {
		for i := range l.Objects {
			line(sir.HomeID(i))
		}
		line(sir.RingHome)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Segment lanes that are not lanes.
const (
	SharedLane = -1 // no lane writes the segment
	MultiLane  = -2 // several lanes write its one object
)

// LaneName names a segment's lane: "lane 3", "shared", "multi".
func LaneName(lane int) string {
	switch lane {
	case SharedLane:
		return "shared"
	case MultiLane:
		return "multi"
	}
	return fmt.Sprintf("lane %d", lane)
}
