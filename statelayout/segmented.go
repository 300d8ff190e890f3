package statelayout

import (
	"fmt"
	"math/bits"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
)

// Lane values of a Segment that is not owned by one lane.
const (
	// SharedLane owns the objects no partitioned task writes.
	SharedLane = program.SharedLane
	// MultiLane marks the segment of one object written by several lanes.
	MultiLane = program.MultiLane
)

// Segment geometry of a segmented layout.
const (
	// SegmentAlign is the alignment of every segment's first byte.
	SegmentAlign = 128
	// SegmentGap is the least number of bytes between the end of one
	// segment and the start of the next (and between the last segment and
	// the end of state memory): a store widened to 8 bytes, or a dynamic
	// write a few bytes past its home, stays out of other segments.
	SegmentGap = 16
	// MaxLanes is the most lanes Segmented accepts (one bit per lane in a
	// writer mask).
	MaxLanes = 64
)

// Segment is a SegmentAlign-aligned run of state owned by one lane, by no
// lane (SharedLane) or, for a single object, by several (MultiLane).
type Segment struct {
	// Lane is the owning lane, SharedLane or MultiLane.
	Lane int
	// Lo is the segment's first byte (a multiple of SegmentAlign) and the
	// offset of its first object; Hi is one past the last object's last
	// byte.
	Lo, Hi int
	// Objects are the segment's objects in placement order.
	Objects []sir.HomeID
}

// Segments returns the segments of a segmented layout in address order, nil
// for Packed. Read-only.
func (l *Layout) Segments() []Segment { return l.segments }

// Segmented places sp for partitioned kernels running on lanes lanes
// (1..MaxLanes). writers(id) is the bit mask of the lanes (bit l: lane l)
// whose partitioned tasks write object id; it is asked once for every
// object of sp and for sir.RingHome. The segments are, in address order:
//
//   - the shared segment (SharedLane): every object no lane writes (read
//     only to partitioned kernels, or written only by sequential kernels
//     and the simulator);
//   - one segment per lane 0..lanes-1: the objects only that lane writes;
//   - one MultiLane segment per object several lanes write, by ID;
//   - the runtime-event ring, alone in the last segment, whose Lane is the
//     lane that writes it, MultiLane or SharedLane by the same rule. The
//     ring stays the last object of state memory, as in Packed (its record
//     space reaches up to the end of the state).
//
// Empty segments are left out. Inside a segment objects lie in ID order,
// each at the next multiple of its alignment, as in Packed, so the value
// encoding is the same. Every segment starts on a SegmentAlign boundary at
// least SegmentGap bytes after the end of the previous one, and state
// memory ends at least SegmentGap bytes after the ring, on a SegmentAlign
// boundary. It freezes sp.
func Segmented(sp *Space, lanes int, writers func(sir.HomeID) uint64) (*Layout, error) {
	if sp == nil {
		return nil, fmt.Errorf("statelayout: nil space")
	}
	if lanes < 1 || lanes > MaxLanes {
		return nil, fmt.Errorf("statelayout: %d lanes, want 1 to %d", lanes, MaxLanes)
	}
	if writers == nil {
		return nil, fmt.Errorf("statelayout: nil writer function")
	}
	valid := ^uint64(0)
	if lanes < 64 {
		valid = 1<<lanes - 1
	}
	// owner classifies an object: a lane, SharedLane or MultiLane.
	owner := func(id sir.HomeID) (int, error) {
		m := writers(id)
		if m&^valid != 0 {
			return 0, fmt.Errorf("statelayout: %s written by lanes %#x, but there are %d lanes", sp.Object(id).Name, m, lanes)
		}
		switch bits.OnesCount64(m) {
		case 0:
			return SharedLane, nil
		case 1:
			return bits.TrailingZeros64(m), nil
		}
		return MultiLane, nil
	}

	shared := []sir.HomeID{}
	perLane := make([][]sir.HomeID, lanes)
	var multi []sir.HomeID
	for _, o := range sp.objects {
		if sp.shared(o) {
			continue
		}
		ln, err := owner(o.ID)
		if err != nil {
			return nil, err
		}
		switch ln {
		case SharedLane:
			shared = append(shared, o.ID)
		case MultiLane:
			multi = append(multi, o.ID)
		default:
			perLane[ln] = append(perLane[ln], o.ID)
		}
	}
	ringLane, err := owner(sir.RingHome)
	if err != nil {
		return nil, err
	}

	l := &Layout{space: sp, kind: "segmented", offsets: make([]int, len(sp.objects))}
	off := 0 // end of the previous segment
	first := true
	place := func(lane int, ids []sir.HomeID) {
		if len(ids) == 0 {
			return
		}
		lo := 0
		if !first {
			lo = alignUp(off+SegmentGap, SegmentAlign)
		}
		first = false
		off = lo
		for _, id := range ids {
			o := sp.Object(id)
			off = alignUp(off, o.Align)
			if id == sir.RingHome {
				l.ringOff = off
			} else {
				l.offsets[id] = off
			}
			off += o.Size()
		}
		l.segments = append(l.segments, Segment{Lane: lane, Lo: lo, Hi: off, Objects: ids})
	}
	place(SharedLane, shared)
	for ln, ids := range perLane {
		place(ln, ids)
	}
	for _, id := range multi {
		place(MultiLane, []sir.HomeID{id})
	}
	place(ringLane, []sir.HomeID{sir.RingHome})
	l.size = alignUp(off+SegmentGap, SegmentAlign)
	l.placeShared()
	sp.frozen = true
	return l, nil
}
