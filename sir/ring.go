package sir

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Runtime-event ring format (all fields little-endian, in state memory at
// Layout.Offset(RingHome)):
//
//	header (RingHeaderSize = 16 bytes)
//	  +0  u32 count    records written since the last drain
//	  +4  u32 used     bytes of record space in use
//	  +8  u32 cap      bytes of record space (set by Go; kernels only read it)
//	  +12 u32 dropped  events dropped because the record space was full
//	records, from +16, each a multiple of 8 bytes:
//	  +0  u8  kind     EventKind
//	  +1  u8  0
//	  +2  u16 nargs
//	  +4  u32 format   string-table id
//	  +8  u32 level
//	  +12 u32 size     bytes of this record, header included
//	  +16 u32 seq      Event.Seq: where its statement runs in the sequential kernel
//	  +20 u32 0
//	  +24 nargs × { u32 width, u32 flags (bit 0: signed), ceil(width/64) × u64 words }
//
// Overflow rule: an event whose record does not fit in cap-used bytes, or
// any event after one was dropped (dropped != 0), is not written: dropped is
// incremented instead, so the ring always holds a prefix, in program order,
// of the events the unit produced. A unit that contains OpEvent returns
// StatusRingFull instead of StatusOK when dropped != 0 at its return. Go
// drains by reading count records, then resets count, used and dropped.
//
// These constants are the one definition of the header: the interpreter,
// the native code generator and the simulator all address it through them.
const (
	RingHeaderSize   = 16
	RingFieldCount   = 0
	RingFieldUsed    = 4
	RingFieldCap     = 8
	RingFieldDropped = 12
	RecordHeaderSize = 24
)

// MaxEventArgs is the most arguments one event may carry (nargs is a u16);
// MaxEventArgWidth the widest argument, in bits.
const (
	MaxEventArgs     = 1<<16 - 1
	MaxEventArgWidth = 1 << 20
)

// RecordSize is the size in bytes of ev's ring record.
func RecordSize(ev *Event) int {
	n := RecordHeaderSize
	for _, a := range ev.Args {
		n += 8 + 8*((a.Width+63)/64)
	}
	return n
}

// InitRing writes an empty ring header with capacity cap bytes at ring[0:].
func InitRing(ring []byte, cap int) {
	binary.LittleEndian.PutUint32(ring[RingFieldCount:], 0)
	binary.LittleEndian.PutUint32(ring[RingFieldUsed:], 0)
	binary.LittleEndian.PutUint32(ring[RingFieldCap:], uint32(cap))
	binary.LittleEndian.PutUint32(ring[RingFieldDropped:], 0)
}

// ResetRing empties the ring (keeps its capacity).
func ResetRing(ring []byte) { InitRing(ring, int(binary.LittleEndian.Uint32(ring[RingFieldCap:]))) }

// RingDropped is the ring's dropped-event count.
func RingDropped(ring []byte) int {
	if len(ring) < RingHeaderSize {
		return 0
	}
	return int(binary.LittleEndian.Uint32(ring[RingFieldDropped:]))
}

// RingReserve reserves size bytes for one record in the ring starting at
// ring[0] (ring extends to the end of state memory) and returns the
// record's offset within ring, or -1 when the event is dropped (the
// overflow rule). A capacity reaching past the end of ring is clamped, so a
// corrupt header never causes an out-of-bounds write.
func RingReserve(ring []byte, size int) int {
	if len(ring) < RingHeaderSize {
		return -1
	}
	le := binary.LittleEndian
	used, capacity, dropped := int(le.Uint32(ring[RingFieldUsed:])), int(le.Uint32(ring[RingFieldCap:])), le.Uint32(ring[RingFieldDropped:])
	if max := len(ring) - RingHeaderSize; capacity > max {
		capacity = max
	}
	if dropped != 0 || used < 0 || used+size > capacity {
		le.PutUint32(ring[RingFieldDropped:], dropped+1)
		return -1
	}
	le.PutUint32(ring[RingFieldUsed:], uint32(used+size))
	le.PutUint32(ring[RingFieldCount:], le.Uint32(ring[RingFieldCount:])+1)
	return RingHeaderSize + used
}

// PutRecordHeader writes a record header at rec[0:].
func PutRecordHeader(rec []byte, ev *Event, size int) {
	le := binary.LittleEndian
	rec[0] = byte(ev.Kind)
	rec[1] = 0
	le.PutUint16(rec[2:], uint16(len(ev.Args)))
	le.PutUint32(rec[4:], uint32(ev.Format))
	le.PutUint32(rec[8:], uint32(ev.Level))
	le.PutUint32(rec[12:], uint32(size))
	le.PutUint32(rec[16:], ev.Seq)
	le.PutUint32(rec[20:], 0)
}

// Record is one decoded ring record.
type Record struct {
	Kind   EventKind
	Format int
	Level  int
	Seq    uint32
	Args   []Value
}

// Value is one decoded event argument.
type Value struct {
	Width  int
	Signed bool
	Words  []uint64 // least significant first
}

// DecodeRing decodes the records of the ring at ring[0:] and returns them
// with the dropped count. It reports malformed contents as an error.
func DecodeRing(ring []byte) ([]Record, int, error) {
	if len(ring) < RingHeaderSize {
		return nil, 0, errors.New("sir: ring shorter than its header")
	}
	le := binary.LittleEndian
	count, used := int(le.Uint32(ring[RingFieldCount:])), int(le.Uint32(ring[RingFieldUsed:]))
	dropped := int(le.Uint32(ring[RingFieldDropped:]))
	if used > len(ring)-RingHeaderSize {
		return nil, dropped, fmt.Errorf("sir: ring uses %d bytes, has %d", used, len(ring)-RingHeaderSize)
	}
	data := ring[RingHeaderSize : RingHeaderSize+used]
	var recs []Record
	for p := 0; p < len(data); {
		if len(data)-p < RecordHeaderSize {
			return recs, dropped, fmt.Errorf("sir: truncated record at +%d", p)
		}
		r := data[p:]
		size := int(le.Uint32(r[12:]))
		if size < RecordHeaderSize || size > len(r) || size%8 != 0 {
			return recs, dropped, fmt.Errorf("sir: bad record size %d at +%d", size, p)
		}
		rec := Record{Kind: EventKind(r[0]), Format: int(le.Uint32(r[4:])), Level: int(le.Uint32(r[8:])), Seq: le.Uint32(r[16:])}
		q := RecordHeaderSize
		for i := 0; i < int(le.Uint16(r[2:])); i++ {
			if q+8 > size {
				return recs, dropped, fmt.Errorf("sir: record at +%d: argument %d past its end", p, i)
			}
			v := Value{Width: int(le.Uint32(r[q:])), Signed: le.Uint32(r[q+4:])&1 != 0}
			q += 8
			n := (v.Width + 63) / 64
			if v.Width < 1 || q+8*n > size {
				return recs, dropped, fmt.Errorf("sir: record at +%d: argument %d has bad width %d", p, i, v.Width)
			}
			for j := 0; j < n; j++ {
				v.Words = append(v.Words, le.Uint64(r[q:]))
				q += 8
			}
			rec.Args = append(rec.Args, v)
		}
		recs = append(recs, rec)
		p += size
	}
	if len(recs) != count {
		return recs, dropped, fmt.Errorf("sir: ring count %d, %d records decoded", count, len(recs))
	}
	return recs, dropped, nil
}

// RingPending reports whether the ring at ring[0:] holds records or
// dropped events: whether the simulator must drain it.
func RingPending(ring []byte) bool {
	return len(ring) >= RingHeaderSize &&
		(binary.LittleEndian.Uint32(ring[RingFieldCount:]) != 0 || binary.LittleEndian.Uint32(ring[RingFieldDropped:]) != 0)
}
