package ordering

import (
	"sort"

	"github.com/weft-hdl/weft/sir"
)

// Range is a byte range [Lo, Hi) of state memory (absolute offsets).
type Range struct{ Lo, Hi int }

// Overlaps reports whether r and s share a byte.
func (r Range) Overlaps(s Range) bool {
	return r.Lo < s.Hi && s.Lo < r.Hi && r.Lo < r.Hi && s.Lo < s.Hi
}

// Effects is what one task may touch, in absolute state bytes.
type Effects struct {
	Reads  []Range // exact bytes read
	Writes []Range // exact bytes written (read/write ordering)
	// Footprint is every byte the code generator may store (write/write
	// ordering): a superset of Writes.
	Footprint []Range
}

// DynamicSlack is how many bytes past its object a dynamically addressed
// store may touch (the code generator may write a whole word at the last
// element).
const DynamicSlack = 8

// RoundPart rounds the size of the last part of a store (1..8 bytes) up to
// the size of a machine store: 1, 2, 4 or 8.
func RoundPart(n int) int {
	switch {
	case n <= 0:
		return 0
	case n <= 1:
		return 1
	case n <= 2:
		return 2
	case n <= 4:
		return 4
	}
	return 8
}

// StoreFootprint is the footprint of a static store of n bytes at absolute
// offset off: parts of at most 8 bytes, the last one rounded up by RoundPart
// (3 bytes cover off..off+4; 11 bytes cover off..off+8 and off+8..off+12).
func StoreFootprint(off, n int) Range {
	if n <= 0 {
		return Range{off, off}
	}
	full := (n - 1) / 8 * 8 // bytes in the parts before the last
	return Range{off, off + full + RoundPart(n-full)}
}

// FromUnits computes a task's Effects from its final SIR units under layout l
// (a task may be several units run in order): reads and writes from sir.Effects
// (exact bytes; dynamic accesses and the event ring cover the whole object);
// Footprint per the codegen rule: a static store of n bytes at offset o is
// written in parts of at most 8 bytes, the last part rounded up to 1, 2, 4 or 8
// bytes (so a 3-byte store covers o..o+4, an 11-byte one o..o+8 then
// o+8..o+12 (3 rounded to 4)); a bit-field store (OpStoreBits) covers the
// bytes holding the field, rounded the same way; a dynamically addressed store
// covers its whole object plus 8 bytes after it (DynamicSlack); the event ring
// is covered as a whole resource (what sir.Effects reports).
//
// When l does not implement sir.Sizer (or does not know an object's size), a
// dynamic access covers the envelope of its in-range elements instead of the
// whole object, as in sir.Effects.
func FromUnits(l sir.Layout, units ...*sir.Unit) Effects {
	var e Effects
	sizer, _ := l.(sir.Sizer)
	for _, u := range units {
		if u == nil {
			continue
		}
		fp := sir.Effects(u, l)
		for _, r := range fp.Reads {
			e.Reads = append(e.Reads, Range{r.Lo, r.Hi})
		}
		for _, r := range fp.Writes {
			// Exact writes are also in the footprint; this brings in the
			// event ring as a whole resource.
			e.Writes = append(e.Writes, Range{r.Lo, r.Hi})
			e.Footprint = append(e.Footprint, Range{r.Lo, r.Hi})
		}
		for _, b := range u.Blocks {
			for i := range b.Insts {
				if r, ok := storeFootprint(u, &b.Insts[i], l, sizer); ok {
					e.Footprint = append(e.Footprint, r)
				}
			}
		}
	}
	return e.Normalize()
}

// storeFootprint is the footprint of one store instruction.
func storeFootprint(u *sir.Unit, in *sir.Inst, l sir.Layout, sizer sir.Sizer) (Range, bool) {
	var first, n int
	switch in.Op {
	case sir.OpStore:
		first, n = in.Addr.Offset, in.Size
	case sir.OpStoreBits:
		w := u.Width(in.A)
		first = in.Addr.Offset + in.Lo/8
		n = (in.Lo%8 + w + 7) / 8
	default:
		return Range{}, false
	}
	base := l.Offset(in.Addr.Home)
	if !in.Addr.Dynamic() {
		return StoreFootprint(base+first, n), true
	}
	if sizer != nil {
		if s := sizer.Size(in.Addr.Home); s > 0 {
			return Range{base, base + s + DynamicSlack}, true
		}
	}
	// Unknown size: the envelope of the in-range elements, each rounded.
	last := StoreFootprint(base+first+max(in.Addr.Count-1, 0)*in.Addr.Stride, n)
	return Range{base + first, last.Hi + DynamicSlack}, true
}

// Normalize returns e with every range list sorted by Lo, overlapping and
// adjacent ranges merged, empty ranges dropped, and Writes added to
// Footprint. It does not modify e's slices.
func (e Effects) Normalize() Effects {
	fp := make([]Range, 0, len(e.Footprint)+len(e.Writes))
	fp = append(append(fp, e.Footprint...), e.Writes...)
	return Effects{
		Reads:     mergeRanges(append([]Range(nil), e.Reads...)),
		Writes:    mergeRanges(append([]Range(nil), e.Writes...)),
		Footprint: mergeRanges(fp),
	}
}

// mergeRanges sorts rs by Lo and merges overlapping or adjacent ranges,
// dropping empty ones. It reuses rs.
func mergeRanges(rs []Range) []Range {
	out := rs[:0]
	for _, r := range rs {
		if r.Lo < r.Hi {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Lo < out[j].Lo })
	merged := out[:0]
	for _, r := range out {
		if k := len(merged) - 1; k >= 0 && merged[k].Hi >= r.Lo {
			merged[k].Hi = max(merged[k].Hi, r.Hi)
			continue
		}
		merged = append(merged, r)
	}
	if len(merged) == 0 {
		return nil
	}
	return merged
}

// intersect reports the first byte shared by two sorted, merged range lists.
func intersect(a, b []Range) (int, bool) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i].Lo < b[j].Hi && b[j].Lo < a[i].Hi {
			return max(a[i].Lo, b[j].Lo), true
		}
		if a[i].Hi <= b[j].Hi {
			i++
		} else {
			j++
		}
	}
	return 0, false
}
