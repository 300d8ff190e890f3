package statelayout

import (
	"bytes"
	"math/big"
	"math/bits"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
)

// allIDs lists every object of sp, the ring last.
func allIDs(sp *Space) []sir.HomeID {
	var ids []sir.HomeID
	for _, o := range sp.Objects() {
		ids = append(ids, o.ID)
	}
	return append(ids, sir.RingHome)
}

// checkSegmented checks the invariants of a segmented layout l of lanes
// lanes built with writer masks masks.
func checkSegmented(t *testing.T, l *Layout, lanes int, masks map[sir.HomeID]uint64) {
	t.Helper()
	sp := l.Space()
	if l.Kind() != "segmented" {
		t.Errorf("kind %q", l.Kind())
	}
	segs := l.Segments()
	if len(segs) == 0 {
		t.Fatal("no segments")
	}
	segOf := map[sir.HomeID]int{}
	laneSegs := map[int]int{}
	for i, sg := range segs {
		if len(sg.Objects) == 0 {
			t.Errorf("segment %d is empty", i)
		}
		if sg.Lo%SegmentAlign != 0 {
			t.Errorf("segment %d starts at %d, not %d-aligned", i, sg.Lo, SegmentAlign)
		}
		if i == 0 && sg.Lo != 0 {
			t.Errorf("first segment starts at %d", sg.Lo)
		}
		if i > 0 && sg.Lo < segs[i-1].Hi+SegmentGap {
			t.Errorf("segment %d starts at %d, previous ends at %d", i, sg.Lo, segs[i-1].Hi)
		}
		if sg.Lane < MultiLane || sg.Lane >= lanes {
			t.Errorf("segment %d: lane %d of %d", i, sg.Lane, lanes)
		}
		if sg.Lane >= 0 && !(len(sg.Objects) == 1 && sg.Objects[0] == sir.RingHome) {
			laneSegs[sg.Lane]++
		}
		if sg.Lane == SharedLane && i != 0 && !(i == len(segs)-1 && sg.Objects[0] == sir.RingHome) {
			t.Errorf("shared segment %d is not first", i)
		}
		if sg.Lane == MultiLane && len(sg.Objects) != 1 {
			t.Errorf("multi-lane segment %d holds %d objects", i, len(sg.Objects))
		}
		// placement like Packed: ID order, each at the next aligned offset
		off := sg.Lo
		for j, id := range sg.Objects {
			if _, dup := segOf[id]; dup {
				t.Errorf("object %d placed twice", id)
			}
			segOf[id] = i
			o := sp.Object(id)
			if j > 0 && id != sir.RingHome && id < sg.Objects[j-1] {
				t.Errorf("segment %d: objects out of ID order: %v", i, sg.Objects)
			}
			off = alignUp(off, o.Align)
			if got := l.Offset(id); got != off {
				t.Errorf("%s at %d, want %d (segment %d)", o.Name, got, off, i)
			}
			off += o.Size()
		}
		if sg.Hi != off {
			t.Errorf("segment %d ends at %d, last object ends at %d", i, sg.Hi, off)
		}
	}
	for ln, n := range laneSegs {
		if n != 1 {
			t.Errorf("lane %d has %d segments", ln, n)
		}
	}
	// lane segments in lane order
	prev := -1
	for _, sg := range segs {
		if sg.Lane >= 0 && sg.Objects[0] != sir.RingHome {
			if sg.Lane <= prev {
				t.Errorf("lane %d segment after lane %d", sg.Lane, prev)
			}
			prev = sg.Lane
		}
	}
	// every object exactly once, in the segment its writers call for
	type iv struct {
		lo, hi int
		name   string
	}
	var ivs []iv
	for _, id := range allIDs(sp) {
		o := sp.Object(id)
		si, ok := segOf[id]
		if !ok {
			t.Errorf("%s not in any segment", o.Name)
			continue
		}
		sg := segs[si]
		off := l.Offset(id)
		if off%o.Align != 0 {
			t.Errorf("%s at %d, not %d-aligned", o.Name, off, o.Align)
		}
		if off < sg.Lo || off+o.Size() > sg.Hi {
			t.Errorf("%s [%d,%d) outside its segment [%d,%d)", o.Name, off, off+o.Size(), sg.Lo, sg.Hi)
		}
		m := masks[id]
		want := MultiLane
		switch bits.OnesCount64(m) {
		case 0:
			want = SharedLane
		case 1:
			want = bits.TrailingZeros64(m)
		}
		if sg.Lane != want {
			t.Errorf("%s (writers %#x) in a segment of lane %d, want %d", o.Name, m, sg.Lane, want)
		}
		if want == MultiLane && len(sg.Objects) != 1 {
			t.Errorf("multi-writer %s shares its segment", o.Name)
		}
		if id == sir.RingHome && si != len(segs)-1 {
			t.Errorf("ring in segment %d of %d", si, len(segs))
		}
		if o.Size() > 0 {
			ivs = append(ivs, iv{off, off + o.Size(), o.Name})
		}
	}
	if n := len(allIDs(sp)); len(segOf) != n {
		t.Errorf("%d objects placed, want %d", len(segOf), n)
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].lo < ivs[j].lo })
	for i := 1; i < len(ivs); i++ {
		if ivs[i].lo < ivs[i-1].hi {
			t.Errorf("%s [%d,%d) overlaps %s [%d,%d)", ivs[i].name, ivs[i].lo, ivs[i].hi, ivs[i-1].name, ivs[i-1].lo, ivs[i-1].hi)
		}
	}
	// the ring is the last object of state memory
	r := l.Ring()
	if last := ivs[len(ivs)-1]; last.lo != r.Offset {
		t.Errorf("%s lies after the ring", last.name)
	}
	if end := segs[len(segs)-1].Hi; l.StateSize() < end+SegmentGap || l.StateSize()%SegmentAlign != 0 || r.Offset+r.Size != end {
		t.Errorf("state size %d, last segment ends at %d, ring [%d,%d)", l.StateSize(), end, r.Offset, r.Offset+r.Size)
	}
}

// checkSameValues checks that Init writes the same bytes for every object
// in l as in p, and zeroes elsewhere.
func checkSameValues(t *testing.T, d *design.Design, l, p *Layout) {
	t.Helper()
	sl, sp := make([]byte, l.StateSize()), make([]byte, p.StateSize())
	for i := range sl {
		sl[i] = 0xee
	}
	l.Init(sl)
	p.Init(sp)
	for _, h := range d.Homes {
		for e := 0; e < h.Elems(); e++ {
			if a, b := l.Get(sl, h, e), p.Get(sp, h, e); a.Cmp(b) != 0 {
				t.Errorf("%s[%d] = %#x, packed %#x", h.Path, e, a, b)
			}
		}
	}
	covered := make([]bool, len(sl))
	for _, id := range allIDs(l.Space()) {
		a, b := l.Slot(id), p.Slot(id)
		if a.Size != b.Size || a.ElemSize != b.ElemSize || a.Elems != b.Elems {
			t.Errorf("object %d: slot %+v, packed %+v", id, a, b)
			continue
		}
		if !bytes.Equal(sl[a.Offset:a.Offset+a.Size], sp[b.Offset:b.Offset+b.Size]) {
			t.Errorf("object %d: bytes % x, packed % x", id, sl[a.Offset:a.Offset+a.Size], sp[b.Offset:b.Offset+b.Size])
		}
		for i := a.Offset; i < a.Offset+a.Size; i++ {
			covered[i] = true
		}
	}
	for i, c := range covered {
		if !c && sl[i] != 0 {
			t.Errorf("byte %d outside every object is %#x", i, sl[i])
			break
		}
	}
}

func TestSegmented(t *testing.T) {
	d, _, sp := build(t, src, Options{RingCap: 100})
	sp.AddScratch("x", 8, 3)
	sp.AddScratch("y", 3, 1)
	lookup := func(name string) *design.Home {
		h, ok := d.Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return h
	}
	q, b17, b130 := lookup("q"), lookup("b17"), lookup("b130")
	masks := map[sir.HomeID]uint64{
		sir.HomeID(q.ID):                     1 << 0,
		sp.Staging(q).ID:                     1 << 0,
		sir.HomeID(b17.ID):                   1 << 2,
		sp.Staging(b17).ID:                   1 << 2,
		sir.HomeID(b130.ID):                  1<<1 | 1<<2,
		sp.Staging(b130).ID:                  1 << 1,
		sir.HomeID(lookup("mem").ID):         1<<0 | 1<<3,
		sp.Sys().ID:                          1<<0 | 1<<1 | 1<<2 | 1<<3,
		sp.Objects()[len(sp.Objects())-1].ID: 1 << 3,
		sir.RingHome:                         1 << 0,
	}
	writers := func(id sir.HomeID) uint64 { return masks[id] }
	p := Packed(sp)
	l, err := Segmented(sp, 4, writers)
	if err != nil {
		t.Fatal(err)
	}
	checkSegmented(t, l, 4, masks)
	checkSameValues(t, d, l, p)

	// shared, lane 0..3, three multi-lane objects (b130, mem, sys), ring
	var lanesSeen []int
	for _, sg := range l.Segments() {
		lanesSeen = append(lanesSeen, sg.Lane)
	}
	want := []int{SharedLane, 0, 1, 2, 3, MultiLane, MultiLane, MultiLane, 0}
	if len(lanesSeen) != len(want) {
		t.Fatalf("segment lanes %v, want %v", lanesSeen, want)
	}
	for i := range want {
		if lanesSeen[i] != want[i] {
			t.Fatalf("segment lanes %v, want %v", lanesSeen, want)
		}
	}
	if p.Segments() != nil || p.Kind() != "packed" {
		t.Errorf("packed: kind %q, segments %v", p.Kind(), p.Segments())
	}

	// accessors go through offsets
	state := make([]byte, l.StateSize())
	l.Init(state)
	l.Set(state, b130, 0, new(big.Int).Lsh(big.NewInt(7), 128)) // masked to 130 bits
	if got := l.Get(state, b130, 0); got.Cmp(new(big.Int).Lsh(big.NewInt(3), 128)) != 0 {
		t.Errorf("b130 = %#x", got)
	}
	off, sh := l.Bit(b130, 0, 128)
	if state[off]>>sh&1 != 1 || off != l.Home(b130).Offset+16 {
		t.Errorf("Bit(b130, 128) = %d, %d", off, sh)
	}
	l.SyncStaging(state)
	st, _ := l.Staging(b130)
	if got := GetValue(state[st.Offset : st.Offset+st.Size]); got.Cmp(new(big.Int).Lsh(big.NewInt(3), 128)) != 0 {
		t.Errorf("staging of b130 = %#x", got)
	}
	l.SetUint(state, b17, 0, 0x1ffff)
	if got := l.GetUint(state, b17, 0); got != 0x1ffff {
		t.Errorf("b17 = %#x", got)
	}
	if l.Sys() != l.Offset(sp.Sys().ID) || l.TriggerByte(1) != l.Triggers().Offset+1 || l.PrevByte(1) != l.Offset(sp.Prev().ID)+1 {
		t.Errorf("sys %d triggers %+v", l.Sys(), l.Triggers())
	}

	var b strings.Builder
	if err := l.Dump(&b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"layout segmented:", "segment shared [0, ", "segment lane 0 [", "segment lane 3 [", "segment multi [", "m.b130$stage", "$ring"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("dump lacks %q:\n%s", s, b.String())
		}
	}
	b.Reset()
	p.Dump(&b)
	if strings.Contains(b.String(), "segment") || !strings.HasPrefix(b.String(), "layout packed:") {
		t.Errorf("packed dump:\n%s", b.String())
	}
}

func TestSegmentedNoWriters(t *testing.T) {
	d, _, sp := build(t, src, Options{})
	p := Packed(sp)
	l, err := Segmented(sp, 1, func(sir.HomeID) uint64 { return 0 })
	if err != nil {
		t.Fatal(err)
	}
	checkSegmented(t, l, 1, nil)
	checkSameValues(t, d, l, p)
	if segs := l.Segments(); len(segs) != 2 || segs[0].Lane != SharedLane || segs[1].Lane != SharedLane || segs[1].Objects[0] != sir.RingHome {
		t.Errorf("segments %+v", segs)
	}
	// the shared segment is packed exactly like Packed
	for _, o := range sp.Objects() {
		if l.Offset(o.ID) != p.Offset(o.ID) {
			t.Errorf("%s at %d, packed %d", o.Name, l.Offset(o.ID), p.Offset(o.ID))
		}
	}
}

func TestSegmentedErrors(t *testing.T) {
	_, _, sp := build(t, src, Options{})
	none := func(sir.HomeID) uint64 { return 0 }
	for _, n := range []int{-1, 0, 65, 1000} {
		if _, err := Segmented(sp, n, none); err == nil {
			t.Errorf("%d lanes accepted", n)
		}
	}
	if _, err := Segmented(sp, 4, nil); err == nil {
		t.Error("nil writers accepted")
	}
	if _, err := Segmented(nil, 4, none); err == nil {
		t.Error("nil space accepted")
	}
	if _, err := Segmented(sp, 4, func(sir.HomeID) uint64 { return 1 << 4 }); err == nil {
		t.Error("writer lane 4 of 4 accepted")
	}
	if _, err := Segmented(sp, 4, func(id sir.HomeID) uint64 {
		if id == sir.RingHome {
			return 1 << 5
		}
		return 1
	}); err == nil {
		t.Error("ring writer lane 5 of 4 accepted")
	}
	// a failed placement does not freeze the space; 64 lanes use bit 63
	sp.AddScratch("s", 4, 2)
	l, err := Segmented(sp, 64, func(id sir.HomeID) uint64 { return 1 << 63 })
	if err != nil {
		t.Fatal(err)
	}
	if segs := l.Segments(); len(segs) != 2 || segs[0].Lane != 63 || segs[1].Lane != 63 {
		t.Errorf("segments %+v", segs)
	}
	defer func() {
		if recover() == nil {
			t.Error("AddScratch after Segmented did not panic")
		}
	}()
	sp.AddScratch("late", 8, 1)
}

func TestSegmentedRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	iters := 300
	if testing.Short() {
		iters = 50
	}
	for it := 0; it < iters; it++ {
		d, _, sp := build(t, src, Options{RingCap: 8 * rng.Intn(20)})
		for i, n := 0, rng.Intn(8); i < n; i++ {
			sp.AddScratch("s", 1+rng.Intn(40), 1+rng.Intn(5))
		}
		lanes := 1 + rng.Intn(64)
		masks := map[sir.HomeID]uint64{}
		for _, id := range allIDs(sp) {
			var m uint64
			switch rng.Intn(3) {
			case 0:
			case 1:
				m = 1 << rng.Intn(lanes)
			case 2:
				for j := 0; j < 1+rng.Intn(4); j++ {
					m |= 1 << rng.Intn(lanes)
				}
			}
			masks[id] = m
		}
		p := Packed(sp)
		l, err := Segmented(sp, lanes, func(id sir.HomeID) uint64 { return masks[id] })
		if err != nil {
			t.Fatal(err)
		}
		checkSegmented(t, l, lanes, masks)
		checkSameValues(t, d, l, p)
		if t.Failed() {
			var b strings.Builder
			l.Dump(&b)
			t.Fatalf("iteration %d, %d lanes, masks %v:\n%s", it, lanes, masks, b.String())
		}
	}
}
