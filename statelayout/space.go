package statelayout

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/slt"
)

// Kind says what a storage object holds.
type Kind uint8

const (
	KindHome     Kind = iota // a design home
	KindStaging              // the staging copy of a design home (non-blocking targets)
	KindTriggers             // one byte per trigger event
	KindPrev                 // one byte per trigger bit: its previous value
	KindSys                  // diagnostics, $random state, $time
	KindScratch              // kernel scratch (NBA queue slots, function-local arrays)
	KindRing                 // the runtime-event ring
)

func (k Kind) String() string {
	return [...]string{"home", "staging", "triggers", "prev", "sys", "scratch", "ring"}[k]
}

// System block fields (byte offsets inside the KindSys object): the
// runtime's definition (program), which the simulator reads.
const (
	SysDiag   = program.SysDiag
	SysRandom = program.SysRandom
	SysTime   = program.SysTime
	SysSize   = program.SysSize
)

// DefaultRingCap is the record space of the event ring when Options.RingCap
// is 0.
const DefaultRingCap = 64 << 10

// MaxRingCap is the largest ring record space: the ring header holds sizes
// as u32, and the ring is part of state memory.
const MaxRingCap = 1 << 30

// DefaultMaxStateBytes bounds state memory when Options.MaxStateBytes is 0.
// Beyond it a design is almost surely a mistake (a memory declared far
// larger than meant), and the simulator would commit all of it at time
// zero; the native backend cannot address more than 2 GiB anyway.
const DefaultMaxStateBytes = 1 << 30

// Object is one storage object: Elems elements of ElemSize bytes.
type Object struct {
	ID   sir.HomeID
	Kind Kind
	Name string
	// Home is the design home of a KindHome or KindStaging object.
	Home            *design.Home
	ElemSize, Elems int
	// Align is the required alignment of the object's offset.
	Align int
}

// Size is the object's size in bytes.
func (o *Object) Size() int { return o.ElemSize * o.Elems }

// ElemSize is the bytes one element of a width-bit value takes: the
// runtime's encoding (program.ElemSize).
func ElemSize(width int) int { return program.ElemSize(width) }

// elemAlign is the natural alignment of an element of size s.
func elemAlign(s int) int { return min(s, 8) }

// Options configure NewSpace.
type Options struct {
	// RingCap is the record space of the runtime-event ring in bytes
	// (0: DefaultRingCap, at most MaxRingCap). It is rounded up to a
	// multiple of 8.
	RingCap int
	// MaxStateBytes bounds state memory (0: DefaultMaxStateBytes): NewSpace
	// and CheckSize fail past it, naming the largest objects.
	MaxStateBytes int64
	// Stage lists homes that need a staging copy besides the non-blocking
	// targets slt stages (the kernel lowering adds sparse targets written
	// inside loops).
	Stage []*design.Home
}

// Event is one trigger event: an edge of one trigger bit, with its trigger
// byte.
type Event struct {
	// Index is the event's byte inside the trigger object (and its index
	// in Space.Events).
	Index int
	// Trigger is the bit (Schedule.Triggers[TriggerIndex]).
	Trigger      *slt.Trigger
	TriggerIndex int
	Edge         design.Edge
	// Groups are the trigger groups (indexes in Schedule.FF) the event
	// fires, ascending.
	Groups []int
}

func (e *Event) String() string { return fmt.Sprintf("%s %s", e.Edge, e.Trigger) }

// Space is the set of storage objects of a design (see the package
// documentation). Build it with NewSpace, add scratch objects, then place
// it with a layout constructor (Packed), which freezes it.
type Space struct {
	Design   *design.Design
	Schedule *slt.Schedule
	// Events are the trigger events, sorted by trigger bit then edge.
	Events []*Event

	objects  []*Object // by ID
	ring     *Object
	staging  []*Object // by design home ID
	triggers *Object
	prev     *Object
	sys      *Object
	frozen   bool
	maxState int64
}

// NewSpace lists the storage objects of d (whose schedule is s).
func NewSpace(d *design.Design, s *slt.Schedule, opts Options) (*Space, error) {
	if d == nil || s == nil {
		return nil, fmt.Errorf("statelayout: nil design or schedule")
	}
	if opts.RingCap < 0 || opts.RingCap > MaxRingCap {
		return nil, fmt.Errorf("statelayout: ring capacity %d bytes: want 0 (the default) to %d", opts.RingCap, MaxRingCap)
	}
	if opts.MaxStateBytes < 0 {
		return nil, fmt.Errorf("statelayout: negative state limit %d", opts.MaxStateBytes)
	}
	sp := &Space{Design: d, Schedule: s, staging: make([]*Object, len(d.Homes)), maxState: opts.MaxStateBytes}
	if sp.maxState == 0 {
		sp.maxState = DefaultMaxStateBytes
	}
	for i, h := range d.Homes {
		if h.ID != i {
			return nil, fmt.Errorf("statelayout: Design.Homes[%d] has ID %d", i, h.ID)
		}
		es := ElemSize(h.Width)
		sp.add(&Object{Kind: KindHome, Name: h.Path, Home: h, ElemSize: es, Elems: h.Elems(), Align: elemAlign(es)})
	}
	stage := map[*design.Home]bool{}
	for _, g := range s.FF {
		for _, a := range g.Staged {
			stage[a.Home] = true
		}
	}
	for _, h := range opts.Stage {
		if h == nil || h.ID < 0 || h.ID >= len(d.Homes) || d.Homes[h.ID] != h {
			return nil, fmt.Errorf("statelayout: Options.Stage names a home not in the design: %v", h)
		}
		stage[h] = true
	}
	staged := make([]*design.Home, 0, len(stage))
	for h := range stage {
		staged = append(staged, h)
	}
	sort.Slice(staged, func(i, j int) bool { return staged[i].ID < staged[j].ID })
	for _, h := range staged {
		home := sp.objects[h.ID]
		o := &Object{Kind: KindStaging, Name: h.Path + "$stage", Home: h, ElemSize: home.ElemSize, Elems: home.Elems, Align: home.Align}
		sp.add(o)
		sp.staging[h.ID] = o
	}
	for ti, t := range s.Triggers {
		var edges []design.Edge
		groups := map[design.Edge][]int{}
		for _, u := range t.Uses {
			if _, ok := groups[u.Edge]; !ok {
				edges = append(edges, u.Edge)
			}
			groups[u.Edge] = append(groups[u.Edge], u.Group)
		}
		sort.Slice(edges, func(i, j int) bool { return edges[i] < edges[j] })
		for _, e := range edges {
			gs := groups[e]
			sort.Ints(gs)
			gs = dedup(gs)
			sp.Events = append(sp.Events, &Event{Index: len(sp.Events), Trigger: t, TriggerIndex: ti, Edge: e, Groups: gs})
		}
	}
	sp.triggers = sp.add(&Object{Kind: KindTriggers, Name: "$triggers", ElemSize: 1, Elems: len(sp.Events), Align: 1})
	sp.prev = sp.add(&Object{Kind: KindPrev, Name: "$prev", ElemSize: 1, Elems: len(s.Triggers), Align: 1})
	sp.sys = sp.add(&Object{Kind: KindSys, Name: "$sys", ElemSize: SysSize, Elems: 1, Align: 8})
	rc := opts.RingCap
	if rc == 0 {
		rc = DefaultRingCap
	}
	rc = (rc + 7) &^ 7
	sp.ring = &Object{ID: sir.RingHome, Kind: KindRing, Name: "$ring", ElemSize: sir.RingHeaderSize + rc, Elems: 1, Align: 8}
	// Checked before any kernel is lowered: lowering and placing a state
	// that cannot be had is time lost.
	if err := sp.CheckSize(sp.objectBytes()); err != nil {
		return nil, err
	}
	return sp, nil
}

// objectBytes is the sum of the object sizes, the ring included (alignment
// padding aside).
func (sp *Space) objectBytes() int64 {
	n := int64(sp.ring.Size())
	for _, o := range sp.objects {
		n += int64(o.Size())
	}
	return n
}

// MaxStateBytes is the state memory bound (Options.MaxStateBytes).
func (sp *Space) MaxStateBytes() int64 { return sp.maxState }

// CheckSize returns an error when a state of size bytes passes the bound:
// it names the bound, the largest design homes (with their staging copies)
// and where they are declared.
func (sp *Space) CheckSize(size int64) error {
	if size <= sp.maxState {
		return nil
	}
	// The largest users: design homes (with their staging copies) and the
	// event ring.
	type user struct {
		text  string
		bytes int64
	}
	users := []user{{fmt.Sprintf("the runtime-event ring (--ring, %s)", byteSize(int64(sp.ring.Size()))), int64(sp.ring.Size())}}
	for _, o := range sp.objects {
		if o.Kind != KindHome {
			continue
		}
		h := o.Home
		n := int64(o.Size())
		what := fmt.Sprintf("%d bits", h.Width)
		if h.IsArray() {
			what = fmt.Sprintf("%d elements of %d bits", h.Elems(), h.Width)
		}
		if st := sp.staging[h.ID]; st != nil {
			n += int64(st.Size())
			what += ", with its staging copy"
		}
		users = append(users, user{fmt.Sprintf("%s at %s (%s: %s)", h.Path, h.Pos, byteSize(n), what), n})
	}
	sort.SliceStable(users, func(i, j int) bool { return users[i].bytes > users[j].bytes })
	var b strings.Builder
	fmt.Fprintf(&b, "statelayout: the design needs %s of state memory, over the limit of %s", byteSize(size), byteSize(sp.maxState))
	for i, u := range users {
		if i == 3 || u.bytes < size/100 {
			break
		}
		sep := "; largest: "
		if i > 0 {
			sep = ", "
		}
		b.WriteString(sep + u.text)
	}
	b.WriteString("; raise the limit with --max-state-mb (weft run), compile.Builder.MaxStateBytes (Go)")
	return errors.New(b.String())
}

// byteSize formats n bytes for a message: "1.5 GiB", "640 KiB", "12 bytes".
func byteSize(n int64) string {
	const k = 1024
	switch {
	case n >= k*k*k:
		return fmt.Sprintf("%.1f GiB", float64(n)/(k*k*k))
	case n >= k*k:
		return fmt.Sprintf("%.1f MiB", float64(n)/(k*k))
	case n >= k:
		return fmt.Sprintf("%.1f KiB", float64(n)/k)
	}
	return fmt.Sprintf("%d bytes", n)
}

func dedup(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func (sp *Space) add(o *Object) *Object {
	o.ID = sir.HomeID(len(sp.objects))
	sp.objects = append(sp.objects, o)
	return o
}

// AddScratch adds a scratch object of elems elements of elemSize bytes
// (aligned to min(elemSize, 8), at least 1) and returns it. It panics once
// the space has been placed.
func (sp *Space) AddScratch(name string, elemSize, elems int) *Object {
	if sp.frozen {
		panic("statelayout: AddScratch after the space was placed")
	}
	if elemSize < 1 || elems < 1 {
		panic(fmt.Sprintf("statelayout: scratch %q of %d x %d bytes", name, elems, elemSize))
	}
	align := 1
	for align < 8 && elemSize%(align*2) == 0 {
		align *= 2
	}
	return sp.add(&Object{Kind: KindScratch, Name: name, ElemSize: elemSize, Elems: elems, Align: align})
}

// Discard empties scratch object id, which nothing will access: it keeps
// its ID but takes no bytes and needs no alignment, so the layout is the
// one the space would have without it (the lanes' status words and rings
// of a build in which no kernel was worth partitioning).
func (sp *Space) Discard(id sir.HomeID) {
	if sp.frozen {
		panic("statelayout: Discard after the space was placed")
	}
	o := sp.Object(id)
	if o == nil || o.Kind != KindScratch {
		panic(fmt.Sprintf("statelayout: Discard of %d, not a scratch object", id))
	}
	o.Elems, o.Align = 0, 1
}

// Objects lists every object but the ring, by ID. Read-only.
func (sp *Space) Objects() []*Object { return sp.objects }

// Object returns the object with the given ID (the ring for sir.RingHome),
// or nil.
func (sp *Space) Object(id sir.HomeID) *Object {
	if id == sir.RingHome {
		return sp.ring
	}
	if id < 0 || int(id) >= len(sp.objects) {
		return nil
	}
	return sp.objects[id]
}

// Home is the object of a design home.
func (sp *Space) Home(h *design.Home) *Object { return sp.objects[h.ID] }

// Staging is the staging copy of h, or nil when h has none.
func (sp *Space) Staging(h *design.Home) *Object {
	if h.ID < 0 || h.ID >= len(sp.staging) {
		return nil
	}
	return sp.staging[h.ID]
}

// Triggers is the trigger-byte object (Elems == len(Events)).
func (sp *Space) Triggers() *Object { return sp.triggers }

// Prev is the previous-value object (one byte per Schedule.Triggers entry).
func (sp *Space) Prev() *Object { return sp.prev }

// Sys is the system block.
func (sp *Space) Sys() *Object { return sp.sys }

// Ring is the runtime-event ring (ID sir.RingHome).
func (sp *Space) Ring() *Object { return sp.ring }

// RingCap is the ring's record space in bytes.
func (sp *Space) RingCap() int { return sp.ring.ElemSize - sir.RingHeaderSize }
