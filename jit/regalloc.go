package jit

import (
	"container/heap"
	"math"
	"sort"

	"github.com/weft-hdl/weft/jit/amd64"
	"github.com/weft-hdl/weft/sir"
)

// Register allocation: linear scan (Poletto and Sarkar) over live-range
// hulls, one location per SIR register for its whole life.
//
// The reachable blocks are laid out in a loop-aware reverse postorder (see
// layout; lower emits them in that order, unreachable ones not at all),
// and every point of the code gets a position: a block's start, then for
// each instruction a use position (its operands are read) and a def position
// (its destination is written), then the terminator's use, then the
// block's end. A register's interval is the hull [start, end] of every
// position where it is defined, used, live into a block (the block's
// start) or live out of one (the block's end), with liveness from a
// sparse backward walk over predecessors. The hull holds every point where
// the register's value may still be read, whatever the shape of the CFG
// (loops included: a value live around a back edge is live out of the
// latch, so its hull reaches the latch's end), so two registers whose
// hulls do not overlap may share a location. Because uses come before the
// def of the same instruction, an operand whose last use is the
// instruction may share its machine register with the destination; the
// lowering reads such operands before it writes the destination (see
// lowerer.target).
//
// Intervals are scanned by start; each takes a free machine register
// (preferably the one its defining instruction's operand just released)
// or, when all are taken, the active interval ending last gives up its
// register and lives in an arena slot for its whole life. Spilled
// intervals then share arena slots by a second scan. A register never
// lives partly in a register and partly in memory, so no moves are ever
// needed at block edges.
//
// Two refinements: a register with exactly one definition, an OpConst, is
// not allocated at all but rematerialised at every use (an immediate
// operand where the instruction has one): definite assignment (sir.Check)
// makes that definition reach every use. A register never read is not
// allocated either, and the instructions defining it (all pure) are not
// emitted.
//
// Allocation is linear in the unit's size and live ranges (plus a sort);
// nothing is quadratic in the number of registers or blocks.

// allocatable lists the machine registers SIR registers may live in, in
// order of preference. RAX, RCX and RDX stay the lowering's scratch: they
// are the implicit operands of mul, div, cqo and shifts by CL, and the
// temporaries of the multi-instruction sequences (see lower.go). RBX is
// the state base and RSP is never touched (abi.go).
var allocatable = []amd64.Reg{amd64.RSI, amd64.RDI, amd64.R8, amd64.R9, amd64.R10, amd64.R11,
	amd64.RBP, amd64.R12, amd64.R13, amd64.R14, amd64.R15}

type locKind uint8

const (
	locNone  locKind = iota // never read: its definitions are dropped
	locReg                  // in machine register reg
	locSlot                 // in arena slot slot (8 bytes)
	locConst                // the constant imm, rematerialised at each use
)

// loc is where a SIR register lives for its whole life.
type loc struct {
	kind locKind
	reg  amd64.Reg
	slot int
	imm  uint64
}

// interval is a SIR register's live-range hull.
type interval struct {
	r          sir.Reg
	start, end int32
	// hint: operands of the instruction defining r at start, whose
	// machine registers are preferred (no move when one dies there).
	hint [2]sir.Reg
}

// allocation is the result of allocate.
type allocation struct {
	// order lists the reachable blocks in reverse postorder, the order
	// they are laid out and emitted in; index is each block's place in it
	// (-1: unreachable, not emitted).
	order []sir.BlockID
	index []int
	locs  []loc // by SIR register
	ivs   []interval
	// ends is each register's interval end (-1: none); termPos is each
	// block's terminator position. Together they tell when a branch is a
	// condition's only remaining use. bstart and bend are the blocks'
	// start and end positions.
	ends         []int32
	termPos      []int32
	bstart, bend []int32
	// slots is the number of arena slots used, slot 0 (the back-edge
	// budget) included.
	slots int
	// ndef counts each register's definitions in the laid-out blocks.
	ndef []int32
}

// condDiesAtBranch reports whether r, a branch condition of block bi, is
// read nowhere after that branch.
func (al *allocation) condDiesAtBranch(bi int, r sir.Reg) bool {
	return int(r) < len(al.ends) && al.ends[r] == al.termPos[bi]
}

type regUse struct {
	lo, hi     int32
	ndef, nuse int32
	def        *sir.Inst // the first definition met
}

// blockPair is a (register, block) fact.
type blockPair struct {
	r sir.Reg
	b int32
}

// allocate assigns every SIR register of u a location, using the machine
// registers regs (allocatable outside tests). u must pass sir.Check.
func allocate(u *sir.Unit, regs []amd64.Reg) *allocation {
	n, nb := len(u.Regs), len(u.Blocks)
	info := make([]regUse, n)
	for i := range info {
		info[i].lo, info[i].hi = math.MaxInt32, -1
	}
	ext := func(r sir.Reg, p int32) {
		ri := &info[r]
		ri.lo, ri.hi = min(ri.lo, p), max(ri.hi, p)
	}
	valid := func(r sir.Reg) bool { return r > 0 && int(r) < n }
	bstart, bend := make([]int32, nb), make([]int32, nb)
	al := &allocation{locs: make([]loc, n), ends: make([]int32, n), termPos: make([]int32, nb),
		bstart: bstart, bend: bend, slots: 1}
	al.order = layout(u)
	al.index = make([]int, nb)
	for i := range al.index {
		al.index[i] = -1
	}
	for i, b := range al.order {
		al.index[b] = i
	}

	// Local facts: positions of every def and use, upward-exposed uses and
	// defining blocks.
	defStamp, ueStamp := make([]int32, n), make([]int32, n)
	var ue, defs []blockPair
	var buf []sir.Reg
	pos := int32(0)
	for _, id := range al.order {
		bi, b := int(id), u.Blocks[id]
		stamp := int32(bi + 1)
		bstart[bi] = pos
		pos++
		use := func(r sir.Reg, p int32) {
			if !valid(r) {
				return
			}
			info[r].nuse++
			ext(r, p)
			if defStamp[r] != stamp && ueStamp[r] != stamp {
				ueStamp[r] = stamp
				ue = append(ue, blockPair{r, int32(bi)})
			}
		}
		for ii := range b.Insts {
			in := &b.Insts[ii]
			buf = in.Uses(buf[:0])
			for _, r := range buf {
				use(r, pos)
			}
			if r := in.Dst; in.Op.HasDst() && valid(r) {
				if info[r].ndef == 0 {
					info[r].def = in
				}
				info[r].ndef++
				ext(r, pos+1)
				if defStamp[r] != stamp {
					defStamp[r] = stamp
					defs = append(defs, blockPair{r, int32(bi)})
				}
			}
			pos += 2
		}
		if b.Term.Kind == sir.TermBranch {
			use(b.Term.Cond, pos)
		}
		al.termPos[bi] = pos
		bend[bi] = pos + 1
		pos += 2
	}

	// Liveness across blocks, one register at a time: from each block
	// where r is used before any definition, walk predecessors back to
	// the blocks that define it. Stamps (r itself) mark the blocks
	// visited for r, so nothing is cleared between registers.
	ueBy, defBy := byReg(ue, n), byReg(defs, n)
	preds := u.Preds()
	blkDef, liveIn := make([]sir.Reg, nb), make([]sir.Reg, nb)
	var work []int32
	for r := sir.Reg(1); int(r) < n; r++ {
		if info[r].nuse == 0 {
			continue
		}
		for _, b := range defBy(r) {
			blkDef[b] = r
		}
		for _, b := range ueBy(r) {
			liveIn[b] = r
			ext(r, bstart[b])
			work = append(work, b)
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range preds[b] {
				if al.index[p] < 0 {
					continue // unreachable: never runs
				}
				ext(r, bend[p])
				if blkDef[p] != r && liveIn[p] != r {
					liveIn[p] = r
					ext(r, bstart[p])
					work = append(work, int32(p))
				}
			}
		}
	}

	// Locations that need no allocation, then the intervals.
	var ivs []interval
	al.ndef = make([]int32, n)
	for r := sir.Reg(1); int(r) < n; r++ {
		ri := &info[r]
		al.ends[r], al.ndef[r] = ri.hi, ri.ndef
		switch {
		case ri.nuse == 0:
			al.locs[r] = loc{kind: locNone}
		case ri.ndef == 1 && ri.def.Op == sir.OpConst:
			al.locs[r] = loc{kind: locConst, imm: ri.def.Imm}
		default:
			iv := interval{r: r, start: ri.lo, end: ri.hi}
			if d := ri.def; d != nil && d.Op != sir.OpConst && ri.ndef == 1 {
				iv.hint = [2]sir.Reg{d.A, d.B}
			}
			ivs = append(ivs, iv)
		}
	}
	sort.Slice(ivs, func(i, j int) bool {
		if ivs[i].start != ivs[j].start {
			return ivs[i].start < ivs[j].start
		}
		return ivs[i].r < ivs[j].r
	})
	al.ivs = ivs
	spilled := al.scan(ivs, regs)
	al.assignSlots(spilled)
	return al
}

// layout orders the reachable blocks for emission: a reverse postorder,
// so that every edge but the retreating ones jumps forward and every cycle
// has a backward jump (which pays the back-edge budget), from a
// depth-first search that visits a block's loop exits before the
// successors inside its innermost loop, and a branch's else before its
// then. A loop's blocks then follow its header, the exits after them (so
// the intervals of values carried around the loop span the loop, not the
// rest of the unit), and a branch falls through to its then arm.
func layout(u *sir.Unit) []sir.BlockID {
	nb := len(u.Blocks)
	preds := u.Preds()
	// Natural loops of the back edges of a first search, by header.
	var backs [][2]sir.BlockID
	dfs(u, func(b sir.BlockID, buf []sir.BlockID) []sir.BlockID { return u.Blocks[b].Term.Succs(buf) },
		func(from, to sir.BlockID) { backs = append(backs, [2]sir.BlockID{from, to}) })
	sort.Slice(backs, func(i, j int) bool { return backs[i][1] < backs[j][1] })
	var loops [][]sir.BlockID // each loop's blocks, its header first
	mark := make([]int, nb)   // loop number + 1 being collected
	for i := 0; i < len(backs); {
		h := backs[i][1]
		body := []sir.BlockID{h}
		mark[h] = len(loops) + 1
		var work []sir.BlockID
		for ; i < len(backs) && backs[i][1] == h; i++ {
			if l := backs[i][0]; mark[l] != len(loops)+1 {
				mark[l] = len(loops) + 1
				body = append(body, l)
				work = append(work, l)
			}
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range preds[b] {
				if mark[p] != len(loops)+1 {
					mark[p] = len(loops) + 1
					body = append(body, p)
					work = append(work, p)
				}
			}
		}
		loops = append(loops, body)
	}
	// Outer loops first, so inner ones overwrite innermost; parent is the
	// innermost loop around a loop's header.
	sort.SliceStable(loops, func(i, j int) bool { return len(loops[i]) > len(loops[j]) })
	innermost := make([]int, nb)
	for i := range innermost {
		innermost[i] = -1
	}
	parent := make([]int, len(loops))
	for l, body := range loops {
		parent[l] = innermost[body[0]]
		for _, b := range body {
			innermost[b] = l
		}
	}
	inside := func(s sir.BlockID, l int) bool {
		if l < 0 {
			return true
		}
		for m := innermost[s]; m >= 0; m = parent[m] {
			if m == l {
				return true
			}
		}
		return false
	}
	post := dfs(u, func(b sir.BlockID, buf []sir.BlockID) []sir.BlockID {
		var ss [2]sir.BlockID
		succ := u.Blocks[b].Term.Succs(ss[:0])
		l := innermost[b]
		for _, in := range []bool{false, true} { // exits first, then the loop's own
			for k := len(succ) - 1; k >= 0; k-- { // else, then then
				if inside(succ[k], l) == in {
					buf = append(buf, succ[k])
				}
			}
		}
		return buf
	}, nil)
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// dfs searches u's CFG from the entry, visiting the successors of each
// block in the order succs gives, and returns the postorder; back reports
// each edge to a block on the search stack.
func dfs(u *sir.Unit, succs func(sir.BlockID, []sir.BlockID) []sir.BlockID, back func(from, to sir.BlockID)) []sir.BlockID {
	nb := len(u.Blocks)
	if nb == 0 {
		return nil
	}
	const (
		unseen = iota
		onStack
		done
	)
	state := make([]uint8, nb)
	type frame struct {
		b    sir.BlockID
		succ []sir.BlockID
	}
	post := make([]sir.BlockID, 0, nb)
	stack := []frame{{b: 0, succ: succs(0, nil)}}
	state[0] = onStack
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if len(f.succ) == 0 {
			state[f.b] = done
			post = append(post, f.b)
			stack = stack[:len(stack)-1]
			continue
		}
		s := f.succ[0]
		f.succ = f.succ[1:]
		if s < 0 || int(s) >= nb {
			continue
		}
		switch state[s] {
		case unseen:
			state[s] = onStack
			stack = append(stack, frame{b: s, succ: succs(s, nil)})
		case onStack:
			if back != nil {
				back(f.b, s)
			}
		}
	}
	return post
}

// byReg groups pairs by register (a counting sort); the returned function
// lists the blocks of one register.
func byReg(ps []blockPair, n int) func(sir.Reg) []int32 {
	start := make([]int32, n+1)
	for _, p := range ps {
		start[p.r+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	at := append([]int32(nil), start[:n]...)
	blocks := make([]int32, len(ps))
	for _, p := range ps {
		blocks[at[p.r]] = p.b
		at[p.r]++
	}
	return func(r sir.Reg) []int32 { return blocks[start[r]:start[r+1]] }
}

// scan is the linear scan proper. It returns the spilled intervals.
func (al *allocation) scan(ivs []interval, regs []amd64.Reg) []interval {
	var active []int // indexes into ivs
	free := make([]bool, len(regs))
	for i := range free {
		free[i] = true
	}
	regIndex := func(m amd64.Reg) int {
		for i, x := range regs {
			if x == m {
				return i
			}
		}
		return -1
	}
	var spilled []interval
	for i := range ivs {
		iv := &ivs[i]
		keep := active[:0]
		for _, a := range active {
			if ivs[a].end < iv.start {
				free[regIndex(al.locs[ivs[a].r].reg)] = true
			} else {
				keep = append(keep, a)
			}
		}
		active = keep
		pick := -1
		for _, h := range iv.hint {
			if h > 0 && int(h) < len(al.locs) && al.locs[h].kind == locReg {
				if k := regIndex(al.locs[h].reg); k >= 0 && free[k] {
					pick = k
					break
				}
			}
		}
		for k := 0; pick < 0 && k < len(regs); k++ {
			if free[k] {
				pick = k
			}
		}
		if pick < 0 {
			// Every register is taken: the interval ending last goes to
			// memory (the current one when it ends last).
			far := -1
			for j, a := range active {
				if far < 0 || ivs[a].end > ivs[active[far]].end {
					far = j
				}
			}
			if far < 0 || ivs[active[far]].end <= iv.end {
				spilled = append(spilled, *iv)
				continue
			}
			victim := active[far]
			pick = regIndex(al.locs[ivs[victim].r].reg)
			spilled = append(spilled, ivs[victim])
			active[far] = active[len(active)-1]
			active = active[:len(active)-1]
		}
		free[pick] = false
		al.locs[iv.r] = loc{kind: locReg, reg: regs[pick]}
		active = append(active, i)
	}
	return spilled
}

// assignSlots gives the spilled intervals arena slots (from 1; slot 0 is
// the back-edge budget), sharing a slot between intervals that do not
// overlap.
func (al *allocation) assignSlots(sp []interval) {
	sort.Slice(sp, func(i, j int) bool {
		if sp[i].start != sp[j].start {
			return sp[i].start < sp[j].start
		}
		return sp[i].r < sp[j].r
	})
	var busy slotHeap
	var freeSlots []int
	for _, iv := range sp {
		for len(busy) > 0 && busy[0].end < iv.start {
			freeSlots = append(freeSlots, heap.Pop(&busy).(slotUse).slot)
		}
		var s int
		if k := len(freeSlots); k > 0 {
			s, freeSlots = freeSlots[k-1], freeSlots[:k-1]
		} else {
			s = al.slots
			al.slots++
		}
		al.locs[iv.r] = loc{kind: locSlot, slot: s}
		heap.Push(&busy, slotUse{end: iv.end, slot: s})
	}
}

type slotUse struct {
	end  int32
	slot int
}

// slotHeap orders the slots in use by the end of their interval.
type slotHeap []slotUse

func (h slotHeap) Len() int           { return len(h) }
func (h slotHeap) Less(i, j int) bool { return h[i].end < h[j].end }
func (h slotHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *slotHeap) Push(x any)        { *h = append(*h, x.(slotUse)) }
func (h *slotHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
