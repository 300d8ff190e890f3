package sir

import "sort"

// Range is a byte range [Lo, Hi) of state memory (absolute offsets, after
// layout) inside Home.
type Range struct {
	Home    HomeID
	Lo, Hi  int
	Dynamic bool // some access in it has a register index (or is the event ring)
}

// Footprint is what a unit may read and write.
type Footprint struct {
	Reads, Writes []Range // sorted by Lo, merged per home
}

// Effects returns the bytes u may read and write under layout l: exact
// byte ranges for static accesses (a bit field covers the bytes it
// touches), the whole home for dynamically indexed accesses when l
// implements Sizer and knows the home's size (otherwise the envelope of every in-range element), and
// the whole event ring (read and written: OpEvent updates the header) for a
// unit with events. Every block counts, reachable or not. This is the
// semantic footprint; a backend that widens stores reports its own.
func Effects(u *Unit, l Layout) Footprint {
	var fp Footprint
	sizer, _ := l.(Sizer)
	events := false
	for _, b := range u.Blocks {
		for i := range b.Insts {
			in := &b.Insts[i]
			if in.Op == OpEvent {
				events = true
				continue
			}
			if !in.Op.IsMem() {
				continue
			}
			first, n := in.Addr.Offset, in.Size
			if in.Op == OpLoadBits || in.Op == OpStoreBits {
				w := u.Width(in.Dst)
				if in.Op == OpStoreBits {
					w = u.Width(in.A)
				}
				first += in.Lo / 8
				n = (in.Lo%8 + w + 7) / 8
			}
			base := l.Offset(in.Addr.Home)
			r := Range{Home: in.Addr.Home, Lo: base + first, Hi: base + first + n}
			if in.Addr.Dynamic() {
				r.Dynamic = true
				if s := homeSize(sizer, in.Addr.Home); s > 0 {
					r.Lo, r.Hi = base, base+s
				} else {
					r.Hi += (in.Addr.Count - 1) * in.Addr.Stride
				}
			}
			if in.Op.IsStore() {
				fp.Writes = append(fp.Writes, r)
			} else {
				fp.Reads = append(fp.Reads, r)
			}
		}
	}
	if events {
		base := l.Offset(RingHome)
		size := RingHeaderSize
		if s := homeSize(sizer, RingHome); s > 0 {
			size = s
		}
		r := Range{Home: RingHome, Lo: base, Hi: base + size, Dynamic: true}
		fp.Reads = append(fp.Reads, r)
		fp.Writes = append(fp.Writes, r)
	}
	fp.Reads, fp.Writes = mergeRanges(fp.Reads), mergeRanges(fp.Writes)
	return fp
}

func homeSize(s Sizer, h HomeID) int {
	if s == nil {
		return 0
	}
	return s.Size(h)
}

// mergeRanges merges overlapping or adjacent ranges of the same home and
// sorts the result by Lo (then Home).
func mergeRanges(rs []Range) []Range {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Home != rs[j].Home {
			return rs[i].Home < rs[j].Home
		}
		return rs[i].Lo < rs[j].Lo
	})
	var out []Range
	for _, r := range rs {
		if k := len(out) - 1; k >= 0 && out[k].Home == r.Home && out[k].Hi >= r.Lo {
			out[k].Hi = max(out[k].Hi, r.Hi)
			out[k].Dynamic = out[k].Dynamic || r.Dynamic
			continue
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Lo != out[j].Lo {
			return out[i].Lo < out[j].Lo
		}
		return out[i].Home < out[j].Home
	})
	return out
}

// Overlaps reports whether two ranges share a byte.
func (r Range) Overlaps(s Range) bool { return r.Lo < s.Hi && s.Lo < r.Hi }
