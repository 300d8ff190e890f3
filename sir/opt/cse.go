package opt

import "github.com/weft-hdl/weft/sir"

// cseMaxPerHome bounds how many available loads cse remembers per home in
// a block, so a store's invalidation scan stays cheap on huge blocks; the
// oldest half is forgotten when the bound is reached (losing only
// opportunities, never correctness).
const cseMaxPerHome = 1024

// cse is block-local common-subexpression elimination by value numbering:
// an instruction that recomputes a value some register of the block still
// holds becomes a copy of that register (copyprop and deadcode then remove
// it), or disappears when it would assign the holder its own value.
//
// SIR is not SSA, so value numbers name values, not registers: every
// assignment gives its destination a value number (a fresh one, the number
// of the value it recomputes, or its source's for a copy), and a register
// read before any assignment in the block gets a fresh number for its
// block-entry value. An expression's key is its op, result width, operand
// value numbers (sorted for commutative ops) and immediate fields; a table
// maps keys to the register that computed the value and the value number
// it had then, and an entry counts only while that register still holds
// that number. So reassigning an operand changes the key and reassigning
// the holder voids the entry, which is what makes it safe across repeated
// assignments without any global facts. Tables are reset at every block
// boundary: nothing moves or is reused across blocks.
//
// Pure ops take part (constants only give their destination a shared value
// number: materializing a constant is cheaper than keeping a register
// alive for it; copies only pass their source's number on). Loads take part
// while no store since may have written a byte they read: a static store
// forgets the available loads of its home whose bytes it overlaps (every
// dynamic load of the home included), a dynamic store every load of its
// home; other homes are untouched (homes never alias; an out-of-range
// dynamic store does nothing) and so are all loads at an event, which
// writes only the runtime-event ring that no load names. A static store
// also makes its value available to a later load of exactly its bytes at
// exactly its value's width (store A, Size n, then a load of Size n into a
// register as wide as A reads A back; likewise storebits then loadbits of
// the same field). Stores and events are never removed or reordered.
func cse(u *sir.Unit) {
	c := &cseState{
		u:     u,
		vn:    make([]uint32, len(u.Regs)),
		stamp: make([]uint32, len(u.Regs)),
		exprs: map[cseKey]uint32{},
		regs:  map[uint32][]sir.Reg{},
		loads: map[sir.HomeID][]cseLoad{},
		hulls: map[sir.HomeID]cseLoad{},
	}
	for _, b := range u.Blocks {
		if b != nil { // only in units sir.Check rejects
			c.block(b)
		}
	}
}

// cseVal is an operand in a key: the value number of a register (0 for
// NoReg or an unused operand).
type cseVal uint32

// cseKey identifies a computed value. Operand registers appear only as
// value numbers; widths of operands follow from them (a value number is
// never shared by registers of different widths: copies require equal
// widths, and a recomputed value has the holder's width).
type cseKey struct {
	op      sir.Op
	w       int32 // result width
	a, b, c cseVal
	imm     uint64
	lo      int32
	size    int32
	home    sir.HomeID
	offset  int
	index   cseVal
	stride  int
	count   int
}

// cseLoad is an available load (or forwarded store) of one home: its key
// and the bytes of the home it reads ([lo, hi); dynamic loads read
// anywhere in their home as far as stores are concerned).
type cseLoad struct {
	key    cseKey
	lo, hi int
	dyn    bool
}

type cseState struct {
	u     *sir.Unit
	vn    []uint32 // value number of each register, valid when stamp == blk
	stamp []uint32
	blk   uint32               // current block's stamp (1, 2, ...)
	next  uint32               // last value number handed out
	exprs map[cseKey]uint32    // value number of each available value
	regs  map[uint32][]sir.Reg // registers assigned each value number in this block
	loads map[sir.HomeID][]cseLoad
	// hulls cover each home's loads (a superset after remember drops
	// some): a store outside its home's hull invalidates nothing, which
	// spares the scan on the long runs of stores to fresh bytes that wide
	// values make.
	hulls map[sir.HomeID]cseLoad
}

func (c *cseState) fresh() uint32 {
	c.next++
	return c.next
}

// valid reports whether r is a register of the unit (units that fail
// sir.Check must not make the pass panic).
func (c *cseState) valid(r sir.Reg) bool { return r > 0 && int(r) < len(c.vn) }

// get returns r's value number in this block, numbering its block-entry
// value on first sight.
func (c *cseState) get(r sir.Reg) cseVal {
	if !c.valid(r) {
		return 0
	}
	if c.stamp[r] != c.blk {
		c.stamp[r] = c.blk
		c.vn[r] = c.fresh()
	}
	return cseVal(c.vn[r])
}

func (c *cseState) set(r sir.Reg, v uint32) {
	if c.valid(r) {
		c.stamp[r] = c.blk
		c.vn[r] = v
		c.regs[v] = append(c.regs[v], r)
	}
}

// holds reports whether r holds value number v now.
func (c *cseState) holds(r sir.Reg, v uint32) bool {
	return c.valid(r) && c.stamp[r] == c.blk && c.vn[r] == v
}

// holder returns a register that holds value number v now, forgetting
// those assigned since.
func (c *cseState) holder(v uint32) (sir.Reg, bool) {
	rs := c.regs[v]
	for len(rs) > 0 && !c.holds(rs[0], v) {
		rs = rs[1:]
	}
	c.regs[v] = rs
	if len(rs) == 0 {
		return sir.NoReg, false
	}
	return rs[0], true
}

func (c *cseState) block(b *sir.Block) {
	c.blk++
	clear(c.exprs)
	clear(c.regs)
	clear(c.loads)
	clear(c.hulls)
	out := b.Insts[:0]
	for i := range b.Insts {
		in := b.Insts[i]
		if c.inst(&in) {
			out = append(out, in)
		}
	}
	b.Insts = out
}

// inst numbers in and rewrites it when it recomputes an available value;
// it returns false when in is to be dropped (it assigns a register the
// value it already holds).
func (c *cseState) inst(in *sir.Inst) bool {
	op := in.Op
	switch {
	case op == sir.OpCopy:
		v := uint32(c.get(in.A))
		if v == 0 || c.u.Width(in.A) != c.u.Width(in.Dst) { // only in units sir.Check rejects
			v = c.fresh()
		}
		c.set(in.Dst, v)
		return true
	case op == sir.OpStore || op == sir.OpStoreBits:
		c.store(in)
		return true
	case !op.Pure() || !op.HasDst() || !c.valid(in.Dst):
		// Events and anything unknown: they assign no register this pass
		// could reuse, and an event writes only the ring.
		if in.Dst != sir.NoReg {
			c.set(in.Dst, c.fresh())
		}
		return true
	}
	k := c.key(in)
	if v, ok := c.exprs[k]; ok {
		if c.holds(in.Dst, v) {
			return false // assigns the register the value it holds
		}
		if op == sir.OpConst {
			c.set(in.Dst, v) // same value number, but keep the cheap constant
			return true
		}
		if h, ok := c.holder(v); ok && c.u.Width(h) == c.u.Width(in.Dst) { // widths: always, by the key
			*in = sir.Inst{Op: sir.OpCopy, Dst: in.Dst, A: h}
			c.set(in.Dst, v)
			return true
		}
	}
	v := c.fresh()
	c.set(in.Dst, v)
	c.exprs[k] = v
	if op == sir.OpLoad || op == sir.OpLoadBits {
		lo, hi := cseBytes(c.u, in, c.u.Width(in.Dst))
		c.remember(in.Addr.Home, cseLoad{key: k, lo: lo, hi: hi, dyn: in.Addr.Dynamic()})
	}
	return true
}

// key is the value in computes. Operands are read before in assigns Dst.
func (c *cseState) key(in *sir.Inst) cseKey {
	k := cseKey{op: in.Op, w: int32(c.u.Width(in.Dst)), imm: in.Imm, lo: int32(in.Lo), size: int32(in.Size)}
	n := in.Op.NumArgs()
	if n > 0 {
		k.a = c.get(in.A)
	}
	if n > 1 {
		k.b = c.get(in.B)
	}
	if n > 2 {
		k.c = c.get(in.C)
	}
	if in.Op.Commutative() && k.b < k.a {
		k.a, k.b = k.b, k.a
	}
	if in.Op.IsMem() {
		a := in.Addr
		k.home, k.offset, k.stride, k.count = a.Home, a.Offset, a.Stride, a.Count
		if a.Dynamic() {
			k.index = c.get(a.Index)
			if k.index == 0 {
				k.index = cseVal(c.fresh()) // an invalid index register matches nothing
			}
		}
	}
	return k
}

// cseBytes is the byte range of its home a memory access of a w-bit value
// touches when static (the first element's when dynamic).
func cseBytes(u *sir.Unit, in *sir.Inst, w int) (lo, hi int) {
	switch in.Op {
	case sir.OpLoadBits, sir.OpStoreBits:
		lo = in.Addr.Offset + in.Lo/8
		return lo, lo + (in.Lo%8+w+7)/8
	}
	return in.Addr.Offset, in.Addr.Offset + in.Size
}

// remember records an available load of home h.
func (c *cseState) remember(h sir.HomeID, l cseLoad) {
	ls := c.loads[h]
	if len(ls) >= cseMaxPerHome {
		for _, old := range ls[:len(ls)/2] {
			delete(c.exprs, old.key)
		}
		ls = append(ls[:0], ls[len(ls)/2:]...)
	}
	hu := l
	if len(ls) > 0 {
		hu = c.hulls[h]
		hu.lo, hu.hi, hu.dyn = min(hu.lo, l.lo), max(hu.hi, l.hi), hu.dyn || l.dyn
	}
	c.hulls[h] = hu
	c.loads[h] = append(ls, l)
}

// store forgets the loads a store may change and makes its value
// available to a later load of the same bytes at the same width.
func (c *cseState) store(in *sir.Inst) {
	a := in.Addr
	w := c.u.Width(in.A)
	lo, hi := cseBytes(c.u, in, w)
	if ls := c.loads[a.Home]; len(ls) > 0 {
		if hu := c.hulls[a.Home]; a.Dynamic() || hu.dyn || hu.lo < hi && lo < hu.hi {
			kept := ls[:0]
			for _, l := range ls {
				if a.Dynamic() || l.dyn || l.lo < hi && lo < l.hi {
					delete(c.exprs, l.key)
					continue
				}
				if len(kept) == 0 {
					hu = l
				} else {
					hu.lo, hu.hi = min(hu.lo, l.lo), max(hu.hi, l.hi)
				}
				kept = append(kept, l)
			}
			c.loads[a.Home] = kept
			c.hulls[a.Home] = hu
		}
	}
	c.get(in.A) // number the stored value before it can be reassigned
	if a.Dynamic() || !c.valid(in.A) || w < 1 {
		return
	}
	// The load that reads back exactly the stored value.
	ld := sir.Inst{Op: sir.OpLoad, Dst: in.A, Size: in.Size, Addr: a}
	if in.Op == sir.OpStoreBits {
		ld = sir.Inst{Op: sir.OpLoadBits, Dst: in.A, Lo: in.Lo, Addr: a}
	}
	k := c.key(&ld)
	c.exprs[k] = c.vn[in.A]
	c.remember(a.Home, cseLoad{key: k, lo: lo, hi: hi})
}
