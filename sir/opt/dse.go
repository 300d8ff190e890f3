package opt

import "github.com/weft-hdl/weft/sir"

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
	type key struct {
		home     sir.HomeID
		run, seg int
	}
	type set map[key]uint64
	in := make([]set, len(u.Blocks)) // at each block's start, once done
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
		// The set at the block's end: the successors' meet.
		var cur set
		succ = b.Term.Succs(succ[:0])
		for j, s := range succ {
			if !done[s] {
				cur = set{}
				break
			}
			if j == 0 {
				cur = make(set, len(in[s]))
				for k, m := range in[s] {
					cur[k] = m
				}
				continue
			}
			for k, m := range cur {
				if m &= in[s][k]; m == 0 {
					delete(cur, k)
				} else {
					cur[k] = m
				}
			}
		}
		if cur == nil {
			cur = set{} // a return
		}
		read := func(h sir.HomeID, m uint64) {
			for k, v := range cur {
				if k.home == h {
					if v &^= m; v == 0 {
						delete(cur, k)
					} else {
						cur[k] = v
					}
				}
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
				m := bytes(a.Offset, inst.Size)
				if a.Offset+inst.Size > dseBytes {
					break // partly untracked: never dead, adds nothing
				}
				sc := scopeAt(id, j)
				own := key{a.Home, sc.Run, sc.Seg}
				if cur[own]&m == m {
					keep[j], dead = false, true
					continue
				}
				read(a.Home, m) // the bytes' first store from here is this one
				cur[own] |= m
			case inst.Op == sir.OpLoad || inst.Op == sir.OpLoadBits:
				if a.Dynamic() {
					read(a.Home, ^uint64(0))
					break
				}
				lo, hi := cseBytes(u, inst, u.Width(inst.Dst))
				read(a.Home, bytes(lo, hi-lo))
			}
		}
		if dead {
			removed = true
			n := 0
			for j := range b.Insts {
				if keep[j] {
					b.Insts[n] = b.Insts[j]
					n++
				}
			}
			b.Insts = b.Insts[:n]
		}
		if len(cur) > dseMaxHomes {
			cur = set{}
		}
		in[id], done[id] = cur, true
	}
	return removed
}
