package opt

import (
	"sort"

	"github.com/weft-hdl/weft/sir"
)

// dseBytes bounds the bytes of a home dse tracks (offsets below it): a
// store reaching past it is never found dead.
const dseBytes = 64

// dseMaxHomes bounds the homes a block's set holds, so that the pass
// stays linear on units of many blocks: past it the set is emptied
// (losing only dead stores, never keeping a live one out).
const dseMaxHomes = 64

// dse removes static stores whose bytes every path from them overwrites
// before anything reads them and before the unit returns, across blocks
// (coalesce does it within one): the defaults a comb process stores
// before a case whose every arm stores again.
//
// It is a backward must-analysis over the blocks in postorder: the bytes
// (of the first dseBytes of each home) that every path from a point
// stores before reading. A block's set at its end is the intersection of
// its successors' at their starts; a return, and a jump back to a block
// not yet seen (a loop's back edge, where native code may stop for its
// step budget), leave nothing. Walking a block backward, a static store
// adds its bytes, and a load removes the bytes it may read (a dynamic one
// every byte of its home); a dynamic store or a storebits adds nothing
// (neither is sure to write a whole byte) and reads nothing, events read
// no memory.
//
// With scopes (Reuse's), a byte also remembers the segment of the store
// that overwrites it, and a store is dead only when its own segment's
// stores overwrite it, so that every instance's code changes alike.
// It reports whether it removed anything.
func dse(u *sir.Unit, scope func(b sir.BlockID, i int) Scope) bool {
	rpo := u.RPO()
	if len(rpo) < 2 {
		return false // one block: coalesce already did it
	}
	in := make([]dseSet, len(u.Blocks)) // at each block's start, once done
	done := make([]bool, len(u.Blocks))
	scopeAt := func(b sir.BlockID, i int) Scope {
		if scope == nil {
			return Scope{}
		}
		return scope(b, i)
	}
	bytes := func(off, n int) uint64 {
		if off >= dseBytes {
			return 0
		}
		hi := min(off+n, dseBytes)
		return (^uint64(0) >> (64 - (hi - off))) << off
	}
	removed := false
	var succ []sir.BlockID
	var keep []bool
	for i := len(rpo) - 1; i >= 0; i-- {
		id := rpo[i]
		b := u.Blocks[id]
		// The set at the block's end: the successors' meet (nothing at a
		// return or a back edge).
		var cur dseSet
		succ = b.Term.Succs(succ[:0])
		for j, s := range succ {
			if !done[s] {
				cur = nil
				break
			}
			if j == 0 {
				cur = append(dseSet(nil), in[s]...)
			} else {
				cur = cur.meet(in[s])
			}
		}
		keep = keep[:0]
		for range b.Insts {
			keep = append(keep, true)
		}
		dead := false
		for j := len(b.Insts) - 1; j >= 0; j-- {
			inst := &b.Insts[j]
			a := inst.Addr
			switch {
			case inst.Op == sir.OpStore && !a.Dynamic():
				if a.Offset+inst.Size > dseBytes {
					break // partly untracked: never dead, adds nothing
				}
				m := bytes(a.Offset, inst.Size)
				sc := scopeAt(id, j)
				if cur.get(a.Home, sc.Run, sc.Seg)&m == m {
					keep[j], dead = false, true
					continue
				}
				cur = cur.read(a.Home, m) // the bytes' first store from here is this one
				cur = cur.add(dseBits{a.Home, sc.Run, sc.Seg, m})
			case inst.Op == sir.OpLoad || inst.Op == sir.OpLoadBits:
				if a.Dynamic() {
					cur = cur.read(a.Home, ^uint64(0))
					break
				}
				lo, hi := cseBytes(u, inst, u.Width(inst.Dst))
				cur = cur.read(a.Home, bytes(lo, hi-lo))
			}
		}
		if dead {
			removed = true
			keepInsts(b, keep)
		}
		if len(cur) > dseMaxHomes {
			cur = nil
		}
		in[id], done[id] = cur, true
	}
	return removed
}

// dseBits are bytes of a home (bit i: byte i) that stores of one segment
// (or of the code outside every run) overwrite.
type dseBits struct {
	home     sir.HomeID
	run, seg int
	m        uint64
}

func (a dseBits) less(b dseBits) bool {
	if a.home != b.home {
		return a.home < b.home
	}
	if a.run != b.run {
		return a.run < b.run
	}
	return a.seg < b.seg
}

// dseSet is a set of overwritten bytes, sorted by home and segment, no
// entry empty.
type dseSet []dseBits

// find returns where an entry for (h, run, seg) is or would go.
func (s dseSet) find(h sir.HomeID, run, seg int) int {
	k := dseBits{home: h, run: run, seg: seg}
	return sort.Search(len(s), func(i int) bool { return !s[i].less(k) })
}

func (s dseSet) get(h sir.HomeID, run, seg int) uint64 {
	if i := s.find(h, run, seg); i < len(s) && s[i].home == h && s[i].run == run && s[i].seg == seg {
		return s[i].m
	}
	return 0
}

// add ors e's bytes into its entry.
func (s dseSet) add(e dseBits) dseSet {
	i := s.find(e.home, e.run, e.seg)
	if i < len(s) && s[i].home == e.home && s[i].run == e.run && s[i].seg == e.seg {
		s[i].m |= e.m
		return s
	}
	s = append(s, dseBits{})
	copy(s[i+1:], s[i:])
	s[i] = e
	return s
}

// read removes bytes m of home h from every segment's entry.
func (s dseSet) read(h sir.HomeID, m uint64) dseSet {
	i := s.find(h, -1<<62, 0)
	n := i
	for ; i < len(s) && s[i].home == h; i++ {
		if s[i].m &^= m; s[i].m != 0 {
			s[n] = s[i]
			n++
		}
	}
	return append(s[:n], s[i:]...)
}

// meet is the bytes both s and t hold (s is reused).
func (s dseSet) meet(t dseSet) dseSet {
	n, j := 0, 0
	for _, e := range s {
		for j < len(t) && t[j].less(e) {
			j++
		}
		if j < len(t) && !e.less(t[j]) { // the same entry
			if e.m &= t[j].m; e.m != 0 {
				s[n] = e
				n++
			}
		}
	}
	return s[:n]
}
