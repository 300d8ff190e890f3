package opt

import (
	"math/bits"

	"github.com/weft-hdl/weft/sir"
)

// bitmove works on the bits a block moves through state one field at a
// time (an RTL bit reversal, a shifter stage written bit by bit, a vector
// built from single-bit assigns). Two rewrites, each within a block:
//
//   - Forwarding: a static load or loadbits that reads only bits a static
//     store or storebits of the block wrote from a register, at most
//     bitmoveForwardWindow instructions before, with no store to those
//     bits in between and the register not assigned since, reads the
//     register instead (an extract; a constant 0 for the bits a store
//     zero-extended). cse forwards only a load of exactly the stored bytes
//     at exactly their width.
//   - Packing: a run of static storebits (and stores) to one home whose
//     bytes fit in 1, 2, 4 or 8 bytes of an aligned 8-byte window, with no
//     other access to those bytes between the first and the last, is
//     built in a register and stored once at the last one. Where every
//     value comes from fields of a few registers that are not assigned
//     before the last store, the word is gathered from them with one shift
//     and one mask per distinct (register, distance), or, for a whole
//     word reversed bit by bit, with a swap network of log2(w) steps;
//     otherwise it is an insert per store. Bits the run does not write are
//     read once, at the first store, and kept.
//
// A storebits is a read-modify-write of memory, so a run of them is a
// chain through memory; the packed form is a few register operations and
// one store.
func bitmove(u *sir.Unit) {
	bm := &bitmover{u: u, lastDef: make([]int32, len(u.Regs))}
	for i := range bm.lastDef {
		bm.lastDef[i] = -1
	}
	for _, b := range u.Blocks {
		if b == nil {
			continue
		}
		bm.forward(b)
		bm.pack(b)
	}
}

// bitmoveMaxFields bounds the fields remembered per home in a block and
// bitmoveMaxMembers the stores of one run, so huge blocks stay linear.
const (
	bitmoveMaxFields  = 64
	bitmoveMaxMembers = 128
)

// bitmoveForwardWindow is how far (in instructions) a load may follow the
// store it is forwarded from: a load from the cache costs less than the
// spills of a register kept alive across a long stretch of code.
const bitmoveForwardWindow = 128

type bitmover struct {
	u *sir.Unit
	// lastDef is the index in the block being scanned of each register's
	// latest assignment (-1: none yet); touched lists the entries to reset.
	lastDef []int32
	touched []sir.Reg
}

func (bm *bitmover) def(r sir.Reg, i int) {
	if r <= 0 {
		return
	}
	if int(r) >= len(bm.lastDef) {
		n := len(bm.lastDef)
		bm.lastDef = append(bm.lastDef, make([]int32, int(r)+1-n)...)
		for j := n; j < len(bm.lastDef); j++ {
			bm.lastDef[j] = -1
		}
	}
	if bm.lastDef[r] < 0 {
		bm.touched = append(bm.touched, r)
	}
	bm.lastDef[r] = int32(i)
}

func (bm *bitmover) defAt(r sir.Reg) int {
	if r <= 0 || int(r) >= len(bm.lastDef) {
		return -1
	}
	return int(bm.lastDef[r])
}

func (bm *bitmover) reset() {
	for _, r := range bm.touched {
		bm.lastDef[r] = -1
	}
	bm.touched = bm.touched[:0]
}

// bitRange is the bits [lo, hi) of its home a static access touches, and
// for a store the width of the value written there (bits past lo+vw are
// written as zero).
func bitRange(u *sir.Unit, in *sir.Inst) (lo, hi, vw int) {
	base := 8 * in.Addr.Offset
	switch in.Op {
	case sir.OpLoadBits:
		w := u.Width(in.Dst)
		return base + in.Lo, base + in.Lo + w, w
	case sir.OpStoreBits:
		w := u.Width(in.A)
		return base + in.Lo, base + in.Lo + w, w
	case sir.OpLoad:
		return base, base + u.Width(in.Dst), u.Width(in.Dst)
	}
	return base, base + 8*in.Size, u.Width(in.A)
}

// storedField is bits [lo, hi) of a home as a store left them: the low vw
// bits from register val (as it was at instruction at), zeros above.
type storedField struct {
	lo, hi, vw int
	val        sir.Reg
	at         int
}

// forward rewrites loads of bits the block stored from a register.
func (bm *bitmover) forward(b *sir.Block) {
	u := bm.u
	fields := map[sir.HomeID][]storedField{}
	out := b.Insts[:0]
	for i := range b.Insts {
		in := b.Insts[i]
		switch {
		case (in.Op == sir.OpLoad || in.Op == sir.OpLoadBits) && !in.Addr.Dynamic():
			if rep, ok := bm.forwarded(fields[in.Addr.Home], &in, i); ok {
				if rep.Op == sir.OpInvalid {
					continue // the register already holds the value
				}
				in = rep
			}
		case in.Op == sir.OpStore || in.Op == sir.OpStoreBits:
			h := in.Addr.Home
			if in.Addr.Dynamic() {
				delete(fields, h)
				break
			}
			lo, hi, vw := bitRange(u, &in)
			fs := fields[h][:0] // in place: each kept field moves down or stays
			for _, f := range fields[h] {
				if f.hi <= lo || hi <= f.lo {
					fs = append(fs, f)
				}
			}
			if len(fs) >= bitmoveMaxFields {
				fs = fs[1:]
			}
			fields[h] = append(fs, storedField{lo: lo, hi: hi, vw: vw, val: in.A, at: i})
		}
		if in.Op.HasDst() {
			bm.def(in.Dst, i)
		}
		out = append(out, in)
	}
	b.Insts = out
	bm.reset()
}

// forwarded is the instruction that replaces load in (at index i) when a
// field of fs holds the bits it reads; OpInvalid means "drop it".
func (bm *bitmover) forwarded(fs []storedField, in *sir.Inst, i int) (sir.Inst, bool) {
	u := bm.u
	lo, hi, w := bitRange(u, in)
	for _, f := range fs {
		if lo < f.lo || f.hi < hi {
			continue
		}
		if i-f.at > bitmoveForwardWindow || bm.defAt(f.val) >= f.at {
			return sir.Inst{}, false // assigned since the store
		}
		k := lo - f.lo
		switch {
		case k >= f.vw:
			return sir.Inst{Op: sir.OpConst, Dst: in.Dst}, true
		case k+w > f.vw:
			return sir.Inst{}, false // straddles the zero extension
		case k == 0 && w == f.vw:
			if in.Dst == f.val {
				return sir.Inst{}, true
			}
			return sir.Inst{Op: sir.OpCopy, Dst: in.Dst, A: f.val}, true
		}
		return sir.Inst{Op: sir.OpExtract, Dst: in.Dst, A: f.val, Lo: k}, true
	}
	return sir.Inst{}, false
}

// runMember is one store of a run: its index, where its bits start in the
// run's word, the value and its width, and the bits it writes (a store
// writes zeros above the value).
type runMember struct {
	idx, bit, vw, nbits int
	val                 sir.Reg
	bitsOp              bool // a storebits
	src                 bitSource
}

// bitSource is where a stored value's bits come from: bits [k, k+vw) of x, as
// x was from instruction from on (ok false: unknown).
type bitSource struct {
	x    sir.Reg
	k    int
	from int
	ok   bool
}

type storeRun struct {
	home    sir.HomeID
	lo, hi  int // bytes
	members []runMember
	gather  bool // every member's leaf is known and its source unchanged
}

// pack builds runs of stores to one word in a register.
func (bm *bitmover) pack(b *sir.Block) {
	u := bm.u
	open := map[sir.HomeID]*storeRun{}
	edits := map[int][]sir.Inst{} // replacements by index (an empty one deletes)
	for i := range b.Insts {
		in := &b.Insts[i]
		if in.Op.IsMem() {
			h := in.Addr.Home
			r := open[h]
			switch {
			case in.Addr.Dynamic():
				if r != nil {
					bm.finish(b, r, edits)
					delete(open, h)
				}
			case in.Op.IsStore():
				br := memRange(u, in)
				if r != nil && (len(r.members) >= bitmoveMaxMembers ||
					min(r.lo, br.lo)/8 != (max(r.hi, br.hi)-1)/8) {
					bm.finish(b, r, edits)
					r = nil
				}
				if r == nil {
					r = &storeRun{home: h, lo: br.lo, hi: br.hi, gather: true}
					open[h] = r
				}
				r.lo, r.hi = min(r.lo, br.lo), max(r.hi, br.hi)
				bm.addMember(b, r, i)
			default:
				if r != nil && memRange(u, in).overlaps(byteRange{r.lo, r.hi}) {
					bm.finish(b, r, edits)
					delete(open, h)
				}
			}
		}
		if in.Op.HasDst() {
			bm.def(in.Dst, i)
		}
	}
	for _, r := range open {
		bm.finish(b, r, edits)
	}
	bm.reset()
	if len(edits) == 0 {
		return
	}
	out := make([]sir.Inst, 0, len(b.Insts)+len(edits))
	for i, in := range b.Insts {
		if rep, ok := edits[i]; ok {
			out = append(out, rep...)
			continue
		}
		out = append(out, in)
	}
	b.Insts = out
}

// addMember adds the store at index i to r, resolving where its value's
// bits come from and re-checking that earlier members' sources still hold.
func (bm *bitmover) addMember(b *sir.Block, r *storeRun, i int) {
	u := bm.u
	in := &b.Insts[i]
	m := runMember{idx: i, val: in.A, vw: u.Width(in.A), bitsOp: in.Op == sir.OpStoreBits}
	lo, hi, _ := bitRange(u, in)
	m.bit, m.nbits = lo, hi-lo // made relative to the run's start in finish
	m.src = bitSource{x: in.A, from: bm.defAt(in.A) + 1, ok: true}
	if d := bm.defAt(in.A); d >= 0 {
		switch di := &b.Insts[d]; di.Op {
		case sir.OpExtract:
			m.src = bitSource{x: di.A, k: di.Lo, from: d, ok: true}
		case sir.OpTrunc, sir.OpCopy:
			m.src = bitSource{x: di.A, from: d, ok: true}
		}
		if m.src.x != in.A && bm.defAt(m.src.x) >= d {
			m.src = bitSource{x: in.A, from: d + 1, ok: true} // the source changed at or after the extract
		}
	}
	r.members = append(r.members, m)
	for _, o := range r.members {
		if bm.defAt(o.src.x) >= o.src.from {
			r.gather = false
		}
	}
}

// finish rewrites run r when that pays: at least two storebits in 1, 2, 4
// or 8 bytes.
func (bm *bitmover) finish(b *sir.Block, r *storeRun, edits map[int][]sir.Inst) {
	u := bm.u
	n := r.hi - r.lo
	if n != 1 && n != 2 && n != 4 && n != 8 {
		return
	}
	nbits := 0
	for _, m := range r.members {
		if m.bitsOp {
			nbits++
		}
	}
	if nbits < 2 {
		return
	}
	w := 8 * n
	var covered uint64
	for k := range r.members {
		m := &r.members[k]
		m.bit -= 8 * r.lo
		covered |= sir.Mask(m.nbits) << uint(m.bit)
	}
	full := covered == sir.Mask(w)
	first, last := r.members[0].idx, r.members[len(r.members)-1].idx
	addr := sir.Addr{Home: r.home, Offset: r.lo}
	var base sir.Reg
	if !full {
		base = u.NewReg(w)
		edits[first] = append(edits[first], sir.Inst{Op: sir.OpLoad, Dst: base, Size: n, Addr: addr})
	}
	var tail []sir.Inst
	var word sir.Reg
	if r.gather {
		word, tail = bm.gather(r, w, base, covered)
	}
	if word == sir.NoReg {
		// An insert per member, in place, from a zero or the loaded word.
		acc := base
		if full {
			acc = u.NewReg(w)
			edits[first] = append(edits[first], sir.Inst{Op: sir.OpConst, Dst: acc})
		}
		for _, m := range r.members {
			v := m.val
			var rep []sir.Inst
			if !m.bitsOp && m.vw < m.nbits {
				z := u.NewReg(m.nbits)
				rep = append(rep, sir.Inst{Op: sir.OpZExt, Dst: z, A: v})
				v = z
			}
			next := u.NewReg(w)
			rep = append(rep, sir.Inst{Op: sir.OpInsert, Dst: next, A: acc, B: v, Lo: m.bit})
			acc = next
			edits[m.idx] = append(edits[m.idx], rep...)
		}
		word = acc
	} else {
		for _, m := range r.members {
			if _, ok := edits[m.idx]; !ok {
				edits[m.idx] = []sir.Inst{}
			}
		}
		edits[last] = append(edits[last], tail...)
	}
	edits[last] = append(edits[last], sir.Inst{Op: sir.OpStore, Size: n, Addr: addr, A: word})
}

// gather builds the run's word from its members' sources at the last
// member: per source register and shift distance one shift and one mask,
// or a swap network for a whole-word bit reversal. It returns NoReg when
// that would not be cheaper than an insert per member.
func (bm *bitmover) gather(r *storeRun, w int, base sir.Reg, covered uint64) (sir.Reg, []sir.Inst) {
	u := bm.u
	var dest [64]bitOrigin
	for j := range dest {
		dest[j].bit = -2 // not written
	}
	for _, m := range r.members {
		for t := 0; t < m.nbits; t++ {
			if t >= m.vw {
				dest[m.bit+t] = bitOrigin{bit: -1}
				continue
			}
			dest[m.bit+t] = bitOrigin{x: m.src.x, bit: m.src.k + t}
		}
	}
	type group struct {
		x    sir.Reg
		d    int // left shift (negative: right)
		mask uint64
	}
	var groups []group
	for j := 0; j < w; j++ {
		o := dest[j]
		if o.bit < 0 {
			continue
		}
		d := j - o.bit
		found := false
		for g := range groups {
			if groups[g].x == o.x && groups[g].d == d {
				groups[g].mask |= 1 << uint(j)
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, group{x: o.x, d: d, mask: 1 << uint(j)})
		}
	}
	var code []sir.Inst
	emit := func(in sir.Inst) sir.Reg {
		code = append(code, in)
		return in.Dst
	}
	cnst := func(width int, v uint64) sir.Reg {
		return emit(sir.Inst{Op: sir.OpConst, Dst: u.NewReg(width), Imm: v & sir.Mask(width)})
	}
	// fit returns x at width w (zero-extended or truncated).
	fit := func(x sir.Reg) sir.Reg {
		switch xw := u.Width(x); {
		case xw < w:
			return emit(sir.Inst{Op: sir.OpZExt, Dst: u.NewReg(w), A: x})
		case xw > w:
			return emit(sir.Inst{Op: sir.OpTrunc, Dst: u.NewReg(w), A: x})
		}
		return x
	}
	var word sir.Reg
	if x, ok := reversed(u, dest[:w], w); ok {
		word = bm.swapNetwork(x, w, emit, cnst)
	} else {
		// Cost in machine instructions, roughly: a shift, a mask and an or
		// per group against an insert (about five) per member.
		if 3*len(groups) >= 5*len(r.members) {
			return sir.NoReg, nil
		}
		for _, g := range groups {
			x, xw := g.x, u.Width(g.x)
			// Shift at the wider of the two widths, then mask and fit.
			sw := max(xw, w)
			if xw < sw {
				x = emit(sir.Inst{Op: sir.OpZExt, Dst: u.NewReg(sw), A: x})
			}
			switch {
			case g.d > 0:
				x = emit(sir.Inst{Op: sir.OpShl, Dst: u.NewReg(sw), A: x, B: cnst(8, uint64(g.d))})
			case g.d < 0:
				x = emit(sir.Inst{Op: sir.OpLShr, Dst: u.NewReg(sw), A: x, B: cnst(8, uint64(-g.d))})
			}
			x = fit(x)
			if g.mask != sir.Mask(w) {
				x = emit(sir.Inst{Op: sir.OpAnd, Dst: u.NewReg(w), A: x, B: cnst(w, g.mask)})
			}
			if word == sir.NoReg {
				word = x
			} else {
				word = emit(sir.Inst{Op: sir.OpOr, Dst: u.NewReg(w), A: word, B: x})
			}
		}
		if word == sir.NoReg {
			word = cnst(w, 0)
		}
	}
	if base != sir.NoReg {
		kept := emit(sir.Inst{Op: sir.OpAnd, Dst: u.NewReg(w), A: base, B: cnst(w, ^covered)})
		word = emit(sir.Inst{Op: sir.OpOr, Dst: u.NewReg(w), A: word, B: kept})
	}
	return word, code
}

// bitOrigin is where one bit of a packed word comes from: bit bit of x,
// or -1 for a zero a store extended its value with, -2 for not written.
type bitOrigin struct {
	x   sir.Reg
	bit int
}

// reversed reports whether the word's bits are those of one w-bit register
// in reverse order (w a power of two from 8 to 64).
func reversed(u *sir.Unit, dest []bitOrigin, w int) (sir.Reg, bool) {
	if w < 8 || bits.OnesCount(uint(w)) != 1 || dest[0].bit < 0 {
		return sir.NoReg, false
	}
	x := dest[0].x
	if u.Width(x) != w {
		return sir.NoReg, false
	}
	for j, o := range dest {
		if o.x != x || o.bit != w-1-j {
			return sir.NoReg, false
		}
	}
	return x, true
}

// swapNetwork reverses the bits of the w-bit x: swap halves, then quarters
// within halves, and so on down to single bits.
func (bm *bitmover) swapNetwork(x sir.Reg, w int, emit func(sir.Inst) sir.Reg, cnst func(int, uint64) sir.Reg) sir.Reg {
	u := bm.u
	for s := w / 2; s >= 1; s /= 2 {
		// low: the low s bits of every 2s-bit group.
		var low uint64
		for g := 0; g < w; g += 2 * s {
			low |= sir.Mask(s) << uint(g)
		}
		amt := cnst(8, uint64(s))
		hi := emit(sir.Inst{Op: sir.OpLShr, Dst: u.NewReg(w), A: x, B: amt})
		lo := emit(sir.Inst{Op: sir.OpShl, Dst: u.NewReg(w), A: x, B: amt})
		if s < w/2 {
			m := cnst(w, low)
			hi = emit(sir.Inst{Op: sir.OpAnd, Dst: u.NewReg(w), A: hi, B: m})
			lo = emit(sir.Inst{Op: sir.OpAnd, Dst: u.NewReg(w), A: lo, B: cnst(w, ^low)})
		}
		x = emit(sir.Inst{Op: sir.OpOr, Dst: u.NewReg(w), A: hi, B: lo})
	}
	return x
}
