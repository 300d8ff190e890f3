package slt

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/weft-hdl/weft/design"
)

// Read and write sets are lists of design.Access: a rectangle of bits
// Lo..Hi of elements ElemLo..ElemHi of one home (Dynamic: the conservative
// envelope of a non-constant index or offset). That is the bit-exact view.
// ByteRange is the byte-exact view of the same set.

// ByteRange is bytes Lo..Hi (inclusive) of elements ElemLo..ElemHi of a
// home. Bytes are counted inside one element, least significant first:
// byte k holds bits 8k..8k+7 of the element. How far apart elements lie is
// the state layout's business, so it is not part of the range.
type ByteRange struct {
	Home           *design.Home
	Lo, Hi         int
	ElemLo, ElemHi int
	Dynamic        bool
}

func (b ByteRange) String() string {
	s := b.Home.Path
	if b.Home.IsArray() {
		if b.ElemLo == b.ElemHi {
			s += fmt.Sprintf("@%d", b.ElemLo)
		} else {
			s += fmt.Sprintf("@%d..%d", b.ElemLo, b.ElemHi)
		}
	}
	s += fmt.Sprintf(" bytes %d..%d", b.Lo, b.Hi)
	if b.Dynamic {
		s += " dyn"
	}
	return s
}

// Overlaps reports whether two byte ranges share a byte.
func (b ByteRange) Overlaps(c ByteRange) bool {
	return b.Home == c.Home && b.Lo <= c.Hi && c.Lo <= b.Hi && b.ElemLo <= c.ElemHi && c.ElemLo <= b.ElemHi
}

// Bytes converts bit ranges to the byte ranges holding them (merged).
func Bytes(as []design.Access) []ByteRange {
	if len(as) == 0 {
		return nil
	}
	out := make([]ByteRange, 0, len(as))
	for _, a := range as {
		out = append(out, ByteRange{Home: a.Home, Lo: a.Lo / 8, Hi: a.Hi / 8, ElemLo: a.ElemLo, ElemHi: a.ElemHi, Dynamic: a.Dynamic})
	}
	// Merge ranges of the same home and element range whose bytes touch.
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Home.ID != y.Home.ID {
			return x.Home.ID < y.Home.ID
		}
		if x.ElemLo != y.ElemLo {
			return x.ElemLo < y.ElemLo
		}
		if x.ElemHi != y.ElemHi {
			return x.ElemHi < y.ElemHi
		}
		return x.Lo < y.Lo
	})
	m := out[:1]
	for _, b := range out[1:] {
		l := &m[len(m)-1]
		if l.Home == b.Home && l.ElemLo == b.ElemLo && l.ElemHi == b.ElemHi && b.Lo <= l.Hi+1 {
			l.Hi = max(l.Hi, b.Hi)
			l.Dynamic = l.Dynamic || b.Dynamic
			continue
		}
		m = append(m, b)
	}
	return m
}

// overlap reports whether two accesses share a bit (same home, element
// ranges and bit ranges intersect).
func overlap(a, b design.Access) bool {
	return a.Home == b.Home && a.Lo <= b.Hi && b.Lo <= a.Hi && a.ElemLo <= b.ElemHi && b.ElemLo <= a.ElemHi
}

// overlapsAny reports whether a overlaps some access of list.
func overlapsAny(a design.Access, list []design.Access) bool {
	for _, b := range list {
		if overlap(a, b) {
			return true
		}
	}
	return false
}

// intersect returns the common bits of two overlapping accesses.
func intersect(a, b design.Access) design.Access {
	return design.Access{Home: a.Home, Lo: max(a.Lo, b.Lo), Hi: min(a.Hi, b.Hi),
		ElemLo: max(a.ElemLo, b.ElemLo), ElemHi: min(a.ElemHi, b.ElemHi), Dynamic: a.Dynamic || b.Dynamic}
}

// bitCount is the number of bits an access covers.
func bitCount(a design.Access) int {
	return (a.Hi - a.Lo + 1) * (a.ElemHi - a.ElemLo + 1)
}

// mergeAccesses returns list sorted by home, element and bit, with ranges
// of the same home and element range whose bits touch merged, and then
// ranges with equal bits and adjacent elements merged. It may reorder list
// and returns it as is when it holds one access.
func mergeAccesses(list []design.Access) []design.Access {
	if len(list) <= 1 {
		if len(list) == 0 {
			return nil
		}
		return list
	}
	out := append([]design.Access(nil), list...)
	slices.SortStableFunc(out, cmpElemsBits)
	m := out[:1]
	for _, a := range out[1:] {
		l := &m[len(m)-1]
		if l.Home == a.Home && l.ElemLo == a.ElemLo && l.ElemHi == a.ElemHi && a.Lo <= l.Hi+1 {
			l.Hi = max(l.Hi, a.Hi)
			l.Dynamic = l.Dynamic || a.Dynamic
			continue
		}
		m = append(m, a)
	}
	if len(m) == 1 {
		return m
	}
	// Equal bits, adjacent or overlapping elements.
	slices.SortStableFunc(m, cmpBitsElems)
	n := m[:1]
	for _, a := range m[1:] {
		l := &n[len(n)-1]
		if l.Home == a.Home && l.Lo == a.Lo && l.Hi == a.Hi && a.ElemLo <= l.ElemHi+1 {
			l.ElemHi = max(l.ElemHi, a.ElemHi)
			l.Dynamic = l.Dynamic || a.Dynamic
			continue
		}
		n = append(n, a)
	}
	slices.SortStableFunc(n, cmpElemsBits)
	return n
}

func cmpElemsBits(x, y design.Access) int {
	return cmp.Or(cmp.Compare(x.Home.ID, y.Home.ID), cmp.Compare(x.ElemLo, y.ElemLo),
		cmp.Compare(x.ElemHi, y.ElemHi), cmp.Compare(x.Lo, y.Lo), cmp.Compare(x.Hi, y.Hi))
}

func cmpBitsElems(x, y design.Access) int {
	return cmp.Or(cmp.Compare(x.Home.ID, y.Home.ID), cmp.Compare(x.Lo, y.Lo),
		cmp.Compare(x.Hi, y.Hi), cmp.Compare(x.ElemLo, y.ElemLo))
}

// accessList formats a list of accesses ("-" when empty).
func accessList(as []design.Access) string {
	if len(as) == 0 {
		return "-"
	}
	return design.AccessList(as)
}

// lvalueAccesses returns the accesses an assignment to lv writes (one per
// concatenation part; none for a constant out-of-range address). It
// mirrors design.Analyze: constant addresses are exact, others give the
// envelope with Dynamic set.
func lvalueAccesses(lv design.LValue, out []design.Access) []design.Access {
	if c, ok := lv.(*design.Concat); ok {
		for _, p := range c.Parts {
			out = lvalueAccesses(p.(design.LValue), out)
		}
		return out
	}
	if a, ok, empty := design.RefAccess(lv); ok && !empty {
		out = append(out, a)
	}
	return out
}

// staticRef reports whether lv is a reference chain with constant
// addresses only (so its write set is exact).
func staticRef(lv design.Expr) bool {
	switch e := lv.(type) {
	case *design.HomeRef:
		return !e.Home.IsArray()
	case *design.ElemRef:
		for _, ix := range e.Index {
			if _, ok := design.ConstUint(ix); !ok {
				return false
			}
		}
		return true
	case *design.Slice:
		if _, ok := design.ConstUint(e.Lsb); !ok {
			return false
		}
		return staticRef(e.X)
	}
	return false
}
