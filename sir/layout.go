package sir

// Layout resolves homes to byte offsets in state memory. SIR itself never
// knows offsets; statelayout implements Layout, and the interpreter, the
// native backend and Effects consult it. Offset(RingHome) is the offset of the
// runtime-event ring header.
type Layout interface {
	Offset(h HomeID) int
}

// Sizer is optionally implemented by a Layout that knows each home's size
// in bytes (0 when it does not); Effects then reports dynamic accesses as
// whole-home ranges.
type Sizer interface {
	Size(h HomeID) int
}

// MapLayout is a simple Layout for tests and tools: explicit offsets and
// (optionally) sizes. Homes missing from Offsets resolve to -1, which the
// interpreter rejects.
type MapLayout struct {
	Offsets map[HomeID]int
	Sizes   map[HomeID]int
}

// Offset implements Layout.
func (l *MapLayout) Offset(h HomeID) int {
	if o, ok := l.Offsets[h]; ok {
		return o
	}
	return -1
}

// Size implements Sizer (0 when unknown).
func (l *MapLayout) Size(h HomeID) int { return l.Sizes[h] }

// PackedLayout places homes 0..len(sizes)-1 one after another, each aligned
// to 8 bytes, followed by a runtime-event ring with ringCap bytes of record
// space. It returns the layout and the total state size.
func PackedLayout(sizes []int, ringCap int) (*MapLayout, int) {
	l := &MapLayout{Offsets: map[HomeID]int{}, Sizes: map[HomeID]int{}}
	off := 0
	for i, s := range sizes {
		l.Offsets[HomeID(i)] = off
		l.Sizes[HomeID(i)] = s
		off += (s + 7) &^ 7
	}
	l.Offsets[RingHome] = off
	l.Sizes[RingHome] = RingHeaderSize + ringCap
	return l, off + RingHeaderSize + ringCap
}

// RingAt is l with the runtime-event ring moved to off, size bytes
// (header included): the layout a lane's task units are compiled and
// ordered against, since each lane of a partitioned kernel writes its own
// ring. Every other home resolves as in l.
func RingAt(l Layout, off, size int) Layout { return ringAt{l, off, size} }

type ringAt struct {
	Layout
	off, size int
}

func (r ringAt) Offset(h HomeID) int {
	if h == RingHome {
		return r.off
	}
	return r.Layout.Offset(h)
}

func (r ringAt) Size(h HomeID) int {
	if h == RingHome {
		return r.size
	}
	if s, ok := r.Layout.(Sizer); ok {
		return s.Size(h)
	}
	return 0
}

// StateSize passes on the state size of a layout that knows it (the
// native backend sizes its code by it).
func (r ringAt) StateSize() int {
	if s, ok := r.Layout.(interface{ StateSize() int }); ok {
		return s.StateSize()
	}
	return 0
}
