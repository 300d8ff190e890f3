package jit

import (
	"fmt"
	"slices"

	"github.com/weft-hdl/weft/jit/amd64"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/opt"
	"golang.org/x/sys/cpu"
)

// Lowering: each SIR register lives where the register allocator
// (regalloc.go) put it for its whole life: a machine register, an 8-byte
// slot of the kernel's arena, or nowhere (a constant rematerialised at
// each use, or a value never read). Each instruction reads its operands
// in place (register, memory or immediate forms), computes in the
// destination's register when that is safe and in the scratch registers
// otherwise, and masks the result to the destination width: registers
// hold their values zero-extended, as in the interpreter.
//
// RAX, RCX and RDX are scratch, never allocated: they are what mul, div,
// cqo and shifts by CL use implicitly, and the temporaries of the longer
// sequences. An instruction's code writes only the scratch registers and
// its destination's location, so it cannot disturb another live value.
//
// # The arena convention
//
// The arena lies after the simulation state, addressed from StateReg (RBX)
// like the state itself, never on the goroutine stack:
//
//	[0, StateSize)                         simulation state (homes, ring)
//	[ArenaOffset, ArenaOffset+ArenaSize)   this kernel's arena
//
// where ArenaOffset = StateSize rounded up to 8. Slot 0 holds the back-edge
// budget, slots 1.. the SIR registers the allocator spilled (registers
// whose lives do not overlap share a slot), so ArenaSize is 8 bytes per
// slot, at most 8*len(Unit.Regs). The caller allocates
// StateSize+padding+ArenaSize bytes (Kernel.Size) and passes the whole
// buffer; the arena needs no initialisation and holds nothing between runs,
// so kernels run one after another may share it (size it for the largest).
//
// # What is lowered
//
// Every op, at widths 1..64: Compile returns an error naming any op it
// does not lower (OpPopCnt on a CPU without POPCNT), and the caller falls
// back to the interpreter. OpEvent appends its record to the event ring
// byte for byte as sir/interp does (sir.RingReserve's overflow rule, the
// capacity clamped to the end of the state, so nothing is written past
// it), and a ret ok of a unit with events returns ringfull when the ring's
// dropped count is non-zero. clz uses bsr (no LZCNT needed);
// popcnt needs the POPCNT instruction (x86-64-v2), checked with
// golang.org/x/sys/cpu at compile time. Division tests the divisor (0, and
// -1 for signed ops) before div/idiv, so no #DE is possible; dynamic
// indexes are bounds-checked before the access; loadbits/storebits touch
// exactly the bytes the interpreter touches. A branch on a comparison made
// by the block's last instruction branches on the flags.
//
// # Runaway loops
//
// The interpreter bounds instructions per run; native code bounds backward
// jumps instead (Options.MaxBackEdges, a budget in arena slot 0), returning
// sir.StatusStepLimit when it runs out. Units without backward jumps never
// pay for it.
//
// # Footprint
//
// As it emits a store the lowering records the state bytes it may write:
// a store's own bytes (load/storebits touch exactly theirs, never a wider
// word), every element a dynamic store can address, and the event ring
// from its header to the end of the state. Kernel.Footprint reports them;
// the simulator recomputes the waits of partitioned kernels from this
// final footprint, so the tasks' ordering matches the code that runs.

// Options tune Compile.
type Options struct {
	// StateSize is the size in bytes of the simulation state; the arena
	// starts at StateSize rounded up to 8. 0 means the unit's own extent
	// (the highest byte it accesses), which is right only when this unit
	// is the only user of the state buffer.
	StateSize int
	// ArenaOffset, when non-zero, places the arena there instead (at or
	// after StateSize, a multiple of 8): partitioned kernels give every
	// lane its own arena, since lanes run at once.
	ArenaOffset int
	// MaxBackEdges bounds the backward jumps of one run (0: 1<<28).
	MaxBackEdges int64
	// regs, when non-nil, replaces the allocatable registers (tests use
	// few to force spilling).
	regs []amd64.Reg
}

// DefaultMaxBackEdges is the default of Options.MaxBackEdges.
const DefaultMaxBackEdges = 1 << 28

// Scratch registers (RBX is the state base; see regalloc.go for the
// allocatable ones). rK is where a constant operand that fits no
// immediate field is materialised: no sequence that takes such an
// operand holds anything in it.
const (
	rA   = amd64.RAX
	rC   = amd64.RCX
	rD   = amd64.RDX
	rK   = rC
	base = StateReg
)

// UnsupportedError reports an op the native backend does not lower.
type UnsupportedError struct {
	Unit string
	Op   sir.Op
	Why  string
}

func (e *UnsupportedError) Error() string {
	s := fmt.Sprintf("jit: unit %q: op %s not supported by the native backend", e.Unit, e.Op)
	if e.Why != "" {
		s += " (" + e.Why + ")"
	}
	return s
}

type lowerer struct {
	u        *sir.Unit
	l        sir.Layout
	a        *amd64.Assembler
	al       *allocation
	arenaOff int
	minState int
	blocks   []amd64.Label
	stepExit amd64.Label
	usedStep bool
	// stateSize is the size of the simulation state; ring is the offset
	// of the event ring header (-1 when the unit has no events) and
	// ringEnd the end of its record space: the ring's size where the
	// layout knows it (a lane's ring lies between other objects), else the
	// end of the state.
	stateSize int
	ring      int
	ringEnd   int
	// bi is the block being lowered. When flagsOK, the instruction just
	// lowered left the flags so that condition flagsCC holds exactly when
	// flagsReg is non-zero, which a branch on flagsReg may use.
	bi       int
	flagsOK  bool
	flagsReg sir.Reg
	flagsCC  amd64.Cond
	// stores are the state byte ranges the generated code may write
	// (Kernel.Footprint), as [lo, hi).
	stores [][2]int
	// roll is the rolled run being lowered (roll.go), rollPos the
	// position in its segment of the instruction being lowered.
	roll    *rollRun
	rollPos int
	// region is the region run whose segment 0 is being lowered
	// (region.go).
	region *regionRun
	// kz are the bits each register always has clear (zeros.go).
	kz []uint64
}

// zeros returns the bits r's value always has clear. Inside a rolled run
// or a region loop only those above its width: the code lowered there
// serves every replica, and knownZeros read the first replica's
// constants, which the others step.
func (x *lowerer) zeros(r sir.Reg) uint64 {
	if r <= 0 || int(r) >= len(x.kz) {
		return 0
	}
	if x.roll != nil || x.region != nil {
		return ^sir.Mask(x.w(r))
	}
	return x.kz[r]
}

// mergeRanges sorts rs and merges the ranges that overlap or touch.
func mergeRanges(rs [][2]int) [][2]int {
	slices.SortFunc(rs, func(a, b [2]int) int { return a[0] - b[0] })
	var out [][2]int
	for _, r := range rs {
		if n := len(out); n > 0 && r[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// lowered is a unit's machine code, the number of arena slots it uses and
// the state bytes it may store.
type lowered struct {
	code   []byte
	slots  int
	stores [][2]int
	// blocks are the code ranges of the unit's blocks in layout order
	// (the profiler's symbols: perfmap.go).
	blocks []blockCode
}

// blockCode is where one block's code lies in the unit's code.
type blockCode struct {
	id     sir.BlockID
	lo, hi int
}

// lower emits the machine code of u. arenaOff is the byte offset of the
// arena from the state base; regs are the machine registers to allocate.
func lower(u *sir.Unit, l sir.Layout, stateSize, arenaOff int, maxBack int64, regs []amd64.Reg) (*lowered, error) {
	rolls := findRolls(u, l)
	order := layout(u)
	regions := findRegions(u, l, order, rolls)
	if !noReuse.Load() {
		// Values reused across blocks, within each instance's code where
		// the regions loop over instances: then every instance's code
		// changes alike and the regions are found again (kept only if
		// they cover as many instances).
		if r := opt.Reuse(u, regionScopes(u, order, regions)); r != nil {
			rr := findRolls(r, l)
			rg := findRegions(r, l, layout(r), rr)
			if regionsCovered(rg) >= regionsCovered(regions) {
				u, rolls, regions = r, rr, rg
			}
		}
	}
	if len(rolls) > 0 || len(regions) > 0 {
		regs = withoutBases(regs)
	}
	if len(regions) > 0 {
		regs = slices.DeleteFunc(regs, func(r amd64.Reg) bool { return r == regionBases[2] })
	}
	al := allocate(u, regs)
	slots := al.slots
	for _, r := range regions {
		for _, st := range r.all {
			st.slot = slots
			slots++
		}
	}
	if int64(arenaOff)+8*int64(slots) >= 1<<31 {
		return nil, fmt.Errorf("jit: unit %q: state+arena beyond 2 GiB", u.Name)
	}
	x := &lowerer{u: u, l: l, a: amd64.New(), al: al, arenaOff: arenaOff, stateSize: stateSize, ring: -1, kz: knownZeros(u, al)}
	a := x.a
	x.blocks = make([]amd64.Label, len(u.Blocks))
	for i := range x.blocks {
		x.blocks[i] = a.NewLabel()
	}
	x.stepExit = a.NewLabel()
	if hasEvent(u) {
		x.ring = l.Offset(sir.RingHome)
		if x.ring < 0 || x.ring+sir.RingHeaderSize > stateSize {
			return nil, fmt.Errorf("jit: unit %q: event ring at %d outside the state of %d bytes", u.Name, x.ring, stateSize)
		}
		x.ringEnd = stateSize
		if sz, ok := l.(sir.Sizer); ok {
			if n := sz.Size(sir.RingHome); n >= sir.RingHeaderSize && x.ring+n <= stateSize {
				x.ringEnd = x.ring + n
			}
		}
	}
	if x.hasBackEdge() {
		if maxBack <= 0 || maxBack >= 1<<31 {
			maxBack = DefaultMaxBackEdges
		}
		a.MovMemImm(x.slotN(0), maxBack, 64)
	}
	var skipping *regionRun // a region run whose later segments are being skipped
	var top amd64.Label     // the active region's loop head
	for oi, id := range al.order {
		bi, b := int(id), u.Blocks[id]
		x.bi = bi
		x.flagsOK = false
		from := 0
		if skipping != nil {
			if oi < skipping.end.oi {
				continue // inside the run's later segments: never emitted
			}
			from = skipping.end.i
			skipping = nil
		}
		if from == 0 {
			a.Bind(x.blocks[bi])
		}
		runs := rolls[bi]
		for len(runs) > 0 && runs[0].start < from {
			runs = runs[1:]
		}
		segDone := false
		// A region boundary at the block's end comes between its last
		// instruction and the branch: that instruction must leave its
		// result in place, not only in the flags.
		endBound := slices.ContainsFunc(regions, func(r *regionRun) bool {
			return r.start == tokPos{oi, len(b.Insts)} || r.segEnd == tokPos{oi, len(b.Insts)}
		})
		for ii := from; ii <= len(b.Insts); ii++ {
			if ii < len(b.Insts) {
				x.flagsOK = false
			}
			if r := x.region; r != nil && oi == r.segEnd.oi && ii == r.segEnd.i {
				x.regionBack(r, top)
				x.region, skipping, segDone = nil, r, true
				for _, in := range r.reload { // the last segment's values read after the run
					x.flagsOK = false
					if err := x.inst(in, false); err != nil {
						return nil, err
					}
				}
				break
			}
			for _, r := range regions {
				if oi == r.start.oi && ii == r.start.i {
					top = x.regionInit(r)
					x.region = r
				}
			}
			if ii == len(b.Insts) {
				break
			}
			if len(runs) > 0 && runs[0].start == ii {
				lowerRun := x.rolled
				if runs[0].vec != nil {
					lowerRun = x.vectorized
				}
				if err := lowerRun(b, runs[0]); err != nil {
					return nil, err
				}
				ii += runs[0].period*runs[0].count - 1
				runs = runs[1:]
				continue
			}
			if err := x.inst(&b.Insts[ii], ii == len(b.Insts)-1 && !endBound); err != nil {
				return nil, err
			}
		}
		if !segDone {
			x.term(bi, &b.Term)
		}
	}
	if x.usedStep {
		a.Bind(x.stepExit)
		a.MovRegImm(StatusReg, int64(sir.StatusStepLimit), 32)
		a.Ret()
	}
	code, err := a.Finish()
	if err != nil {
		return nil, err
	}
	blocks := make([]blockCode, 0, len(al.order))
	for i, id := range al.order {
		lo, ok := a.Offset(x.blocks[id])
		if !ok {
			continue // a region run's later segment: never emitted
		}
		hi := len(code)
		for _, nid := range al.order[i+1:] {
			if o, ok := a.Offset(x.blocks[nid]); ok && o >= lo {
				hi = o
				break
			}
		}
		blocks = append(blocks, blockCode{id: id, lo: lo, hi: hi})
	}
	return &lowered{code: code, slots: slots, stores: mergeRanges(x.stores), blocks: blocks}, nil
}

func hasEvent(u *sir.Unit) bool {
	for _, b := range u.Blocks {
		for i := range b.Insts {
			if b.Insts[i].Op == sir.OpEvent {
				return true
			}
		}
	}
	return false
}

// backward reports whether the edge from block from to block to jumps
// backward in the layout (a retreating edge of the reverse postorder):
// every cycle of the CFG has one, so charging the back-edge budget on
// these bounds every loop, and the forward edges of an if/else pay nothing.
func (x *lowerer) backward(from int, to sir.BlockID) bool {
	return x.al.index[to] <= x.al.index[from]
}

func (x *lowerer) hasBackEdge() bool {
	for _, id := range x.al.order {
		var buf [2]sir.BlockID
		for _, s := range x.u.Blocks[id].Term.Succs(buf[:0]) {
			if x.backward(int(id), s) {
				return true
			}
		}
	}
	return false
}

// next is the block laid out after block bi (-1 after the last).
func (x *lowerer) next(bi int) sir.BlockID {
	if i := x.al.index[bi] + 1; i < len(x.al.order) {
		return x.al.order[i]
	}
	return -1
}

func fits32(v int64) bool { return v >= -1<<31 && v < 1<<31 }

func (x *lowerer) slotN(i int) amd64.Mem { return amd64.M(base, int32(x.arenaOff+8*i)) }
func (x *lowerer) w(r sir.Reg) int       { return x.u.Width(r) }

// at is r's location.
func (x *lowerer) at(r sir.Reg) loc {
	if r <= 0 || int(r) >= len(x.al.locs) {
		return loc{}
	}
	if x.roll != nil && x.roll.step.ok && r == x.roll.step.reg {
		return loc{kind: locReg, reg: rollStep} // a rolled run's stepped constant
	}
	if x.region != nil {
		if st := x.region.stepRegs[r]; st != nil {
			return loc{kind: locSlot, slot: st.slot} // a region's stepped constant
		}
	}
	return x.al.locs[r]
}

// sameReg reports whether r and s live in the same machine register.
func (x *lowerer) sameReg(r, s sir.Reg) bool {
	lr, ls := x.at(r), x.at(s)
	return lr.kind == locReg && ls.kind == locReg && lr.reg == ls.reg
}

// ld sets machine register m to r's value.
func (x *lowerer) ld(m amd64.Reg, r sir.Reg) {
	switch l := x.at(r); l.kind {
	case locReg:
		if l.reg != m {
			x.a.MovRegReg(m, l.reg, 64)
		}
	case locSlot:
		x.a.MovRegMem(m, x.slotN(l.slot), 64)
	case locConst:
		x.a.MovRegImm(m, int64(l.imm), 64)
	default: // never read in a checked unit; keep the code well defined
		x.a.MovRegImm(m, 0, 64)
	}
}

// st sets r to machine register m.
func (x *lowerer) st(r sir.Reg, m amd64.Reg) {
	switch l := x.at(r); l.kind {
	case locReg:
		if l.reg != m {
			x.a.MovRegReg(l.reg, m, 64)
		}
	case locSlot:
		x.a.MovMemReg(x.slotN(l.slot), m, 64)
	}
}

// setImm sets r to the constant v (clobbers RAX; keeps the flags).
func (x *lowerer) setImm(r sir.Reg, v uint64) {
	switch l := x.at(r); l.kind {
	case locReg:
		x.a.MovRegImm(l.reg, int64(v), 64)
	case locSlot:
		if fits32(int64(v)) {
			x.a.MovMemImm(x.slotN(l.slot), int64(v), 64)
			return
		}
		x.a.MovRegImm(rA, int64(v), 64)
		x.a.MovMemReg(x.slotN(l.slot), rA, 64)
	}
}

// move sets dst to src's value (clobbers RAX).
func (x *lowerer) move(dst, src sir.Reg) {
	d := x.at(dst)
	switch d.kind {
	case locReg:
		x.ld(d.reg, src)
	case locSlot:
		switch s := x.at(src); s.kind {
		case locReg:
			x.a.MovMemReg(x.slotN(d.slot), s.reg, 64)
		case locConst:
			x.setImm(dst, s.imm)
		default:
			x.ld(rA, src)
			x.st(dst, rA)
		}
	}
}

// target returns the machine register to compute r's new value in: r's
// own register, unless an operand in later (those read after the first
// write) shares it; otherwise the scratch RAX, which st then copies.
func (x *lowerer) target(r sir.Reg, later ...sir.Reg) amd64.Reg {
	l := x.at(r)
	if l.kind != locReg {
		return rA
	}
	for _, o := range later {
		if x.sameReg(r, o) {
			return rA
		}
	}
	return l.reg
}

// opWidth is the width to compute a w-bit result at: 32 when w <= 32 (the
// operands are below 2^32, and a 32-bit operation zero-extends its result,
// which then needs no mask at w = 32), else 64.
func opWidth(w int) int {
	if w <= 32 {
		return 32
	}
	return 64
}

// src emits m = m op r at width opw: 64, or 32 when the result is used
// modulo 2^32 and both operands are below 2^32 (callers that need the
// carry out of bit 31 pass 64). Clobbers rK for a constant that fits no
// immediate field.
func (x *lowerer) src(op amd64.AluOp, m amd64.Reg, r sir.Reg, opw int) {
	a := x.a
	switch l := x.at(r); l.kind {
	case locReg:
		a.AluRegReg(op, m, l.reg, opw)
	case locSlot:
		a.AluRegMem(op, m, x.slotN(l.slot), opw)
	case locConst:
		x.opImm(op, m, l.imm, opw)
	default:
		x.ld(rK, r)
		a.AluRegReg(op, m, rK, opw)
	}
}

// opImm emits m = m op v at width opw (v below 2^32 when opw is 32).
// Clobbers rK for a 64-bit constant that fits no immediate field.
func (x *lowerer) opImm(op amd64.AluOp, m amd64.Reg, v uint64, opw int) {
	if opw == 32 || fits32(int64(v)) {
		x.a.AluRegImm(op, m, int64(v), opw)
		return
	}
	x.a.MovRegImm(rK, int64(v), 64)
	x.a.AluRegReg(op, m, rK, 64)
}

// imulSrc emits m *= r at width opw (clobbers rK for a wide constant).
func (x *lowerer) imulSrc(m amd64.Reg, r sir.Reg, opw int) {
	a := x.a
	switch l := x.at(r); l.kind {
	case locReg:
		a.ImulRegReg(m, l.reg, opw)
	case locSlot:
		a.ImulRegMem(m, x.slotN(l.slot), opw)
	default:
		if l.kind == locConst && (opw == 32 || fits32(int64(l.imm))) {
			a.ImulRegRegImm(m, m, int64(l.imm), opw)
			return
		}
		x.ld(rK, r)
		a.ImulRegReg(m, rK, 64)
	}
}

// cmovSrc emits cmovcc m, r (clobbers rK for a constant; keeps the flags).
func (x *lowerer) cmovSrc(cc amd64.Cond, m amd64.Reg, r sir.Reg) {
	switch l := x.at(r); l.kind {
	case locReg:
		x.a.Cmov(cc, m, l.reg, 64)
	case locSlot:
		x.a.CmovMem(cc, m, x.slotN(l.slot), 64)
	default:
		x.ld(rK, r)
		x.a.Cmov(cc, m, rK, 64)
	}
}

// swapped is the condition that holds for (b, a) when cc holds for (a, b).
var swapped = map[amd64.Cond]amd64.Cond{amd64.CondE: amd64.CondE, amd64.CondNE: amd64.CondNE,
	amd64.CondB: amd64.CondA, amd64.CondBE: amd64.CondAE, amd64.CondA: amd64.CondB, amd64.CondAE: amd64.CondBE}

// cmp sets the flags to p compared with q, both w bits, for the unsigned
// or equality condition cc, and returns the condition to test (the
// operands may be swapped). Clobbers RAX and rK.
func (x *lowerer) cmp(p, q sir.Reg, w int, cc amd64.Cond) amd64.Cond {
	lp, lq := x.at(p), x.at(q)
	if lp.kind == locConst && lq.kind != locConst {
		p, q, lp, lq, cc = q, p, lq, lp, swapped[cc]
	}
	opw := opWidth(w)
	switch {
	case lp.kind == locReg:
		x.src(amd64.Cmp, lp.reg, q, opw)
	case lp.kind == locSlot && lq.kind == locReg:
		x.a.AluMemReg(amd64.Cmp, x.slotN(lp.slot), lq.reg, opw)
	case lp.kind == locSlot && lq.kind == locConst && (opw == 32 || fits32(int64(lq.imm))):
		x.a.AluMemImm(amd64.Cmp, x.slotN(lp.slot), int64(lq.imm), opw)
	default:
		x.ld(rA, p)
		x.src(amd64.Cmp, rA, q, opw)
	}
	return cc
}

// mask clears the bits of m at and above w.
func (x *lowerer) mask(m amd64.Reg, w int) {
	a := x.a
	switch {
	case w >= 64:
	case w == 32:
		a.MovRegReg(m, m, 32)
	case w < 32:
		a.AluRegImm(amd64.And, m, int64(sir.Mask(w)), 32)
	default:
		a.ShiftRegImm(amd64.Shl, m, uint8(64-w), 64)
		a.ShiftRegImm(amd64.Shr, m, uint8(64-w), 64)
	}
}

// sext sign-extends the low w bits of m to 64 bits.
func (x *lowerer) sext(m amd64.Reg, w int) {
	if w < 64 {
		x.a.ShiftRegImm(amd64.Shl, m, uint8(64-w), 64)
		x.a.ShiftRegImm(amd64.Sar, m, uint8(64-w), 64)
	}
}

func (x *lowerer) zero(m amd64.Reg) { x.a.AluRegReg(amd64.Xor, m, m, 32) }

func (x *lowerer) unsupported(op sir.Op, why string) error {
	return &UnsupportedError{Unit: x.u.Name, Op: op, Why: why}
}

var aluOps = map[sir.Op]amd64.AluOp{sir.OpAdd: amd64.Add, sir.OpSub: amd64.Sub, sir.OpAnd: amd64.And,
	sir.OpOr: amd64.Or, sir.OpXor: amd64.Xor}

var compareConds = map[sir.Op]amd64.Cond{sir.OpEq: amd64.CondE, sir.OpNe: amd64.CondNE, sir.OpULt: amd64.CondB,
	sir.OpULe: amd64.CondBE, sir.OpSLt: amd64.CondL, sir.OpSLe: amd64.CondLE}

// inst lowers one instruction; last says it ends its block.
func (x *lowerer) inst(in *sir.Inst, last bool) error {
	a := x.a
	if x.region != nil && x.region.steps[in] != nil {
		return nil // its value is in the step's slot (lowerer.at)
	}
	if in.Op.HasDst() {
		// Never read, or a constant rematerialised at its uses: every op
		// with a destination is pure, so there is nothing to emit.
		if k := x.at(in.Dst).kind; k == locNone || k == locConst && in.Op == sir.OpConst {
			return nil
		}
	}
	w := x.w(in.Dst)
	aw := x.w(in.A)
	switch in.Op {
	case sir.OpConst:
		x.setImm(in.Dst, in.Imm&sir.Mask(w))
	case sir.OpCopy, sir.OpZExt:
		x.move(in.Dst, in.A)
	case sir.OpTrunc, sir.OpNot, sir.OpNeg, sir.OpSExt, sir.OpExtract:
		t := x.target(in.Dst)
		x.ld(t, in.A)
		switch in.Op {
		case sir.OpTrunc:
			x.mask(t, w)
		case sir.OpNot, sir.OpNeg:
			op, opw := amd64.Not, opWidth(w)
			if in.Op == sir.OpNeg {
				op = amd64.Neg
			}
			a.Unary(op, t, opw)
			if w < opw {
				x.mask(t, w)
			}
		case sir.OpSExt:
			x.sext(t, aw)
			x.mask(t, w)
		case sir.OpExtract:
			if in.Lo > 0 {
				a.ShiftRegImm(amd64.Shr, t, uint8(in.Lo), 64)
			}
			if in.Lo+w < aw {
				x.mask(t, w)
			}
		}
		x.st(in.Dst, t)
	case sir.OpAdd, sir.OpSub, sir.OpAnd, sir.OpOr, sir.OpXor, sir.OpMul:
		p, q := in.A, in.B
		if in.Op != sir.OpSub && x.sameReg(in.Dst, q) && !x.sameReg(in.Dst, p) {
			p, q = q, p // commutative: compute in place
		}
		t, opw := x.target(in.Dst, q), opWidth(w)
		x.ld(t, p)
		switch in.Op {
		case sir.OpMul:
			x.imulSrc(t, q, opw)
		default:
			x.src(aluOps[in.Op], t, q, opw)
		}
		switch in.Op {
		case sir.OpAdd, sir.OpSub, sir.OpMul:
			if w < opw {
				x.mask(t, w)
			}
		default: // the and/or/xor left ZF for the result
			x.flagsOK, x.flagsReg, x.flagsCC = true, in.Dst, amd64.CondNE
		}
		x.st(in.Dst, t)
	case sir.OpMulHiU, sir.OpMulHiS:
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		if in.Op == sir.OpMulHiU {
			a.Unary(amd64.Mul, rC, 64)
		} else {
			x.sext(rA, w)
			x.sext(rC, w)
			a.Unary(amd64.Imul1, rC, 64)
		}
		if w == 64 {
			a.MovRegReg(rA, rD, 64)
		} else {
			a.ShrdImm(rA, rD, uint8(w), 64)
			x.mask(rA, w)
		}
		x.st(in.Dst, rA)
	case sir.OpDivU, sir.OpRemU:
		// Up to 32 bits the 32-bit divide gives the same quotient and
		// remainder, and many CPUs take fewer cycles for it.
		dw := divWidth(w)
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		zero, done := a.NewLabel(), a.NewLabel()
		a.TestRegReg(rC, rC, 64)
		a.Jcc(amd64.CondE, zero)
		x.zero(rD)
		a.Unary(amd64.Div, rC, dw)
		if in.Op == sir.OpRemU {
			a.MovRegReg(rA, rD, 64)
		}
		a.Jmp(done)
		a.Bind(zero)
		x.zero(rA)
		a.Bind(done)
		x.st(in.Dst, rA)
	case sir.OpDivS, sir.OpRemS:
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		x.sext(rA, w)
		x.sext(rC, w)
		zero, m1, done := a.NewLabel(), a.NewLabel(), a.NewLabel()
		a.TestRegReg(rC, rC, 64)
		a.Jcc(amd64.CondE, zero)
		a.AluRegImm(amd64.Cmp, rC, -1, 64)
		a.Jcc(amd64.CondE, m1)
		if dw := divWidth(w); dw == 32 { // operands sign-extended: their low halves are
			a.Cdq()
			a.Unary(amd64.Idiv, rC, 32)
		} else {
			a.Cqo()
			a.Unary(amd64.Idiv, rC, 64)
		}
		if in.Op == sir.OpRemS {
			a.MovRegReg(rA, rD, 64)
		}
		a.Jmp(done)
		a.Bind(m1) // x / -1 = -x (MIN stays MIN), x % -1 = 0
		if in.Op == sir.OpDivS {
			a.Unary(amd64.Neg, rA, 64)
			a.Jmp(done)
		}
		a.Bind(zero)
		x.zero(rA)
		a.Bind(done)
		x.mask(rA, w)
		x.st(in.Dst, rA)
	case sir.OpAddC, sir.OpSubB:
		x.ld(rA, in.A)
		x.ld(rD, in.C)
		a.AluRegImm(amd64.And, rD, 1, 32)
		if in.Op == sir.OpAddC {
			x.src(amd64.Add, rA, in.B, opWidth(w))
			a.AluRegReg(amd64.Add, rA, rD, 64)
		} else {
			x.src(amd64.Sub, rA, in.B, opWidth(w))
			a.AluRegReg(amd64.Sub, rA, rD, 64)
		}
		x.mask(rA, w)
		x.st(in.Dst, rA)
	case sir.OpAddCO, sir.OpSubBO:
		// Operands are zero-extended: the carry is that of the 64-bit add
		// at bit aw, the borrow the 64-bit A < B+C.
		x.ld(rA, in.A)
		x.ld(rD, in.C)
		if in.Op == sir.OpAddCO && aw < 64 {
			a.AluRegImm(amd64.And, rD, 1, 32)
			x.src(amd64.Add, rA, in.B, 64)
			a.AluRegReg(amd64.Add, rA, rD, 64)
			a.ShiftRegImm(amd64.Shr, rA, uint8(aw), 64)
			a.AluRegImm(amd64.And, rA, 1, 32)
			x.st(in.Dst, rA)
			break
		}
		a.BtRegImm(rD, 0, 64)
		if in.Op == sir.OpAddCO {
			x.src(amd64.Adc, rA, in.B, 64)
		} else {
			x.src(amd64.Sbb, rA, in.B, 64)
		}
		t := x.target(in.Dst)
		a.Setcc(amd64.CondB, t)
		a.Movzx(t, t, 32, 8)
		x.st(in.Dst, t)
	case sir.OpShl, sir.OpLShr, sir.OpAShr:
		x.shift(in, w)
	case sir.OpFShl, sir.OpFShr:
		x.funnel(in, w)
		x.st(in.Dst, rA)
	case sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe:
		cc := compareConds[in.Op]
		if in.Op == sir.OpSLt || in.Op == sir.OpSLe {
			x.ld(rA, in.A)
			x.ld(rC, in.B)
			x.sext(rA, aw)
			x.sext(rC, aw)
			a.AluRegReg(amd64.Cmp, rA, rC, 64)
		} else {
			cc = x.cmp(in.A, in.B, aw, cc)
		}
		x.flagsOK, x.flagsReg, x.flagsCC = true, in.Dst, cc
		if last && x.onlyBranchReads(in.Dst) {
			break // it branches on the flags
		}
		d := x.target(in.Dst)
		a.Setcc(cc, d)
		a.Movzx(d, d, 32, 8)
		x.st(in.Dst, d)
	case sir.OpMux:
		if c := x.at(in.A); c.kind == locConst {
			if c.imm&1 != 0 {
				x.move(in.Dst, in.B)
			} else {
				x.move(in.Dst, in.C)
			}
			break
		}
		x.test(in.A)
		t := x.target(in.Dst, in.B)
		x.ld(t, in.C) // a mov: the flags stay
		x.cmovSrc(amd64.CondNE, t, in.B)
		x.st(in.Dst, t)
	case sir.OpInsert:
		x.insert(in, w)
	case sir.OpPopCnt:
		if !cpu.X86.HasPOPCNT {
			return x.unsupported(in.Op, "CPU lacks POPCNT")
		}
		s := rC
		if l := x.at(in.A); l.kind == locReg {
			s = l.reg
		} else {
			x.ld(rC, in.A)
		}
		t := x.target(in.Dst)
		a.Bits(amd64.Popcnt, t, s, 64)
		x.mask(t, w)
		x.st(in.Dst, t)
	case sir.OpClz: // aw-1-bsr(a), with bsr(0) taken as -1
		x.ld(rA, in.A)
		a.MovRegImm(rD, -1, 64)
		a.Bits(amd64.Bsr, rC, rA, 64)
		a.Cmov(amd64.CondE, rC, rD, 64)
		a.MovRegImm(rA, int64(aw-1), 64)
		a.AluRegReg(amd64.Sub, rA, rC, 64)
		x.mask(rA, w)
		x.st(in.Dst, rA)
	case sir.OpLoad, sir.OpStore, sir.OpLoadBits, sir.OpStoreBits:
		return x.mem(in, last)
	case sir.OpEvent:
		return x.event(in)
	default:
		return x.unsupported(in.Op, "")
	}
	return nil
}

// insert lowers dst = a with bits [Lo, Lo+width(b)) replaced by b (the
// field lies inside a: sir.Check), in dst's own register where it can.
// Registers hold values clear above their width, so the result needs no
// mask, and a constant a (a zero-extension, or {fill, x} of a shifter)
// costs at most an or.
func (x *lowerer) insert(in *sir.Inst, w int) {
	a := x.a
	field := sir.Mask(x.w(in.B)) << uint(in.Lo)
	opw := opWidth(w)
	orImm := func(t amd64.Reg, v uint64) {
		if v != 0 {
			x.opImm(amd64.Or, t, v, opw)
		}
	}
	if c := x.at(in.A); c.kind == locConst {
		t := x.target(in.Dst)
		x.ld(t, in.B)
		if in.Lo > 0 {
			a.ShiftRegImm(amd64.Shl, t, uint8(in.Lo), opw)
		}
		orImm(t, c.imm&^field)
		x.st(in.Dst, t)
		return
	}
	t := x.target(in.Dst, in.B)
	x.ld(t, in.A)
	if x.zeros(in.A)&field != field { // clear the field unless it is clear
		x.opImm(amd64.And, t, ^field&sir.Mask(opw), opw)
	}
	switch b := x.at(in.B); {
	case b.kind == locConst:
		orImm(t, b.imm<<uint(in.Lo))
	case in.Lo == 0:
		x.src(amd64.Or, t, in.B, 64)
	default:
		x.ld(rC, in.B)
		a.ShiftRegImm(amd64.Shl, rC, uint8(in.Lo), 64)
		a.AluRegReg(amd64.Or, t, rC, 64)
	}
	x.st(in.Dst, t)
}

// onlyBranchReads reports whether r is the current block's branch
// condition and nothing reads it after the branch.
func (x *lowerer) onlyBranchReads(r sir.Reg) bool {
	t := &x.u.Blocks[x.bi].Term
	return t.Kind == sir.TermBranch && t.Cond == r && x.al.condDiesAtBranch(x.bi, r)
}

// test sets ZF when the 1-bit register r is 0.
func (x *lowerer) test(r sir.Reg) {
	switch l := x.at(r); l.kind {
	case locReg:
		x.a.TestRegReg(l.reg, l.reg, 32)
	case locSlot:
		x.a.AluMemImm(amd64.Cmp, x.slotN(l.slot), 0, 64)
	default:
		x.ld(rA, r)
		x.a.TestRegReg(rA, rA, 32)
	}
}

// shift lowers shl, lshr and ashr: by an immediate when the amount is a
// constant, else by CL with the out-of-range amounts (>= w) patched in.
func (x *lowerer) shift(in *sir.Inst, w int) {
	a := x.a
	if b := x.at(in.B); b.kind == locConst {
		n := b.imm
		if in.Op != sir.OpAShr && n >= uint64(w) {
			x.setImm(in.Dst, 0)
			return
		}
		t := x.target(in.Dst)
		x.ld(t, in.A)
		switch in.Op {
		case sir.OpShl:
			if opw := opWidth(w); n > 0 {
				a.ShiftRegImm(amd64.Shl, t, uint8(n), opw)
				if w < opw {
					x.mask(t, w)
				}
			}
		case sir.OpLShr:
			if n > 0 {
				a.ShiftRegImm(amd64.Shr, t, uint8(n), 64)
			}
		default:
			n = min(n, uint64(w-1))
			if w < 64 {
				a.ShiftRegImm(amd64.Shl, t, uint8(64-w), 64)
				a.ShiftRegImm(amd64.Sar, t, uint8(64-w+int(n)), 64)
				x.mask(t, w)
			} else if n > 0 {
				a.ShiftRegImm(amd64.Sar, t, uint8(n), 64)
			}
		}
		x.st(in.Dst, t)
		return
	}
	x.ld(rA, in.A)
	x.ld(rC, in.B)
	switch in.Op {
	case sir.OpShl, sir.OpLShr:
		x.zero(rD)
		if in.Op == sir.OpShl {
			a.ShiftRegCL(amd64.Shl, rA, 64)
			x.mask(rA, w)
		} else {
			a.ShiftRegCL(amd64.Shr, rA, 64)
		}
		a.AluRegImm(amd64.Cmp, rC, int64(w), 64)
		a.Cmov(amd64.CondAE, rA, rD, 64)
	default:
		x.sext(rA, w)
		a.MovRegImm(rD, int64(w-1), 32)
		a.AluRegImm(amd64.Cmp, rC, int64(w), 64)
		a.Cmov(amd64.CondAE, rC, rD, 64)
		a.ShiftRegCL(amd64.Sar, rA, 64)
		x.mask(rA, w)
	}
	x.st(in.Dst, rA)
}

// funnel lowers fshl/fshr on A:B by C (A high) into RAX, 0 when C >= 2w.
func (x *lowerer) funnel(in *sir.Inst, w int) {
	a := x.a
	if c := x.at(in.C); c.kind == locConst {
		x.funnelBy(in, w, c.imm)
		return
	}
	x.ld(rC, in.C)
	zero, big, done := a.NewLabel(), a.NewLabel(), a.NewLabel()
	a.AluRegImm(amd64.Cmp, rC, int64(2*w), 64)
	a.Jcc(amd64.CondAE, zero)
	a.AluRegImm(amd64.Cmp, rC, int64(w), 64)
	a.Jcc(amd64.CondAE, big)
	x.ld(rA, in.A)
	x.ld(rD, in.B)
	if in.Op == sir.OpFShl { // a<<c | b>>(w-c): shld on b aligned to the top
		if w < 64 {
			a.ShiftRegImm(amd64.Shl, rD, uint8(64-w), 64)
		}
		a.ShldCL(rA, rD, 64)
		x.mask(rA, w)
	} else if w == 64 { // b>>c | a<<(64-c)
		a.ShrdCL(rD, rA, 64)
		a.MovRegReg(rA, rD, 64)
	} else { // b>>c | a<<(w-c), w-c in 1..w
		a.ShiftRegCL(amd64.Shr, rD, 64)
		a.Unary(amd64.Neg, rC, 32)
		a.AluRegImm(amd64.Add, rC, int64(w), 32)
		a.ShiftRegCL(amd64.Shl, rA, 64)
		a.AluRegReg(amd64.Or, rA, rD, 64)
		x.mask(rA, w)
	}
	a.Jmp(done)
	a.Bind(big) // w <= c < 2w
	a.AluRegImm(amd64.Sub, rC, int64(w), 32)
	if in.Op == sir.OpFShl {
		x.ld(rA, in.B)
		a.ShiftRegCL(amd64.Shl, rA, 64)
		x.mask(rA, w)
	} else {
		x.ld(rA, in.A)
		a.ShiftRegCL(amd64.Shr, rA, 64)
	}
	a.Jmp(done)
	a.Bind(zero)
	x.zero(rA)
	a.Bind(done)
}

// divWidth is the operand width of the divide instruction for w-bit
// operands.
func divWidth(w int) int {
	if w <= 32 {
		return 32
	}
	return 64
}

// funnelBy lowers fshl/fshr by the constant n into RAX: straight-line
// shifts, and a rotate instruction when A and B are one register of a
// machine width (the rotates RTL writes as {x[k-1:0], x[w-1:k]}).
func (x *lowerer) funnelBy(in *sir.Inst, w int, n uint64) {
	a := x.a
	left := in.Op == sir.OpFShl
	switch {
	case n >= uint64(2*w):
		x.zero(rA)
		return
	case n >= uint64(w): // only the other half moves in
		k := uint8(n - uint64(w))
		if left { // bits [w, 2w) of (A:B) << n: B << (n-w)
			x.ld(rA, in.B)
			if k > 0 {
				a.ShiftRegImm(amd64.Shl, rA, k, 64)
				x.mask(rA, w)
			}
		} else { // bits [0, w) of (A:B) >> n: A >> (n-w)
			x.ld(rA, in.A)
			if k > 0 {
				a.ShiftRegImm(amd64.Shr, rA, k, 64)
			}
		}
		return
	case n == 0:
		if left {
			x.ld(rA, in.A)
		} else {
			x.ld(rA, in.B)
		}
		return
	}
	k := uint8(n)
	if in.A == in.B && (w == 8 || w == 16 || w == 32 || w == 64) {
		x.ld(rA, in.A)
		if left {
			a.ShiftRegImm(amd64.Rol, rA, k, w)
		} else {
			a.ShiftRegImm(amd64.Ror, rA, k, w)
		}
		if w < 32 {
			x.mask(rA, w)
		}
		return
	}
	x.ld(rA, in.A)
	x.ld(rD, in.B)
	if left { // A<<n | B>>(w-n)
		a.ShiftRegImm(amd64.Shl, rA, k, 64)
		a.ShiftRegImm(amd64.Shr, rD, uint8(w)-k, 64)
	} else { // B>>n | A<<(w-n)
		a.ShiftRegImm(amd64.Shr, rD, k, 64)
		a.ShiftRegImm(amd64.Shl, rA, uint8(w)-k, 64)
	}
	a.AluRegReg(amd64.Or, rA, rD, 64)
	x.mask(rA, w)
}

// mem lowers load, store, loadbits and storebits. A dynamic index is used
// in place when it is in a machine register, else brought to RCX. last is
// inst's: a static load of bits within one byte that only the block's
// branch reads (an enable, a valid bit, a flag in a packed vector) becomes
// a test of that byte, which the branch uses.
func (x *lowerer) mem(in *sir.Inst, last bool) error {
	if r := x.region; r != nil && r.bits[in] != nil {
		return x.regionBits(in, r.bits[in])
	}
	a := x.a
	h := x.l.Offset(in.Addr.Home)
	if h < 0 || in.Addr.Home == sir.RingHome {
		return fmt.Errorf("jit: unit %q: layout has no offset for %s", x.u.Name, in.Addr.Home)
	}
	off := h + in.Addr.Offset
	size := in.Size
	bits := in.Op == sir.OpLoadBits || in.Op == sir.OpStoreBits
	lo := 0
	vw := x.w(in.Dst)
	if in.Op.IsStore() {
		vw = x.w(in.A)
	}
	if bits {
		off += in.Lo / 8
		lo = in.Lo % 8
		size = (lo + vw + 7) / 8
	}
	end := int64(off) + int64(size)
	if in.Addr.Dynamic() {
		end += int64(in.Addr.Count-1) * int64(in.Addr.Stride)
	}
	if end > int64(x.arenaOff) || off < 0 {
		return fmt.Errorf("jit: unit %q: access [%d, %d) outside the state of %d bytes", x.u.Name, off, end, x.arenaOff)
	}
	x.minState = max(x.minState, int(end))
	load := !in.Op.IsStore()
	if !load {
		x.stores = append(x.stores, [2]int{off, int(end)})
	}
	mbase := base
	if r := x.region; r != nil {
		if bi, ok := r.base[in]; ok {
			// A region's segment k addresses its bytes k strides on.
			mbase = regionBases[bi]
			for k := int64(1); k < int64(r.count); k++ {
				d := k * r.strides[bi]
				x.minState = max(x.minState, int(end+d))
				if !load {
					x.stores = append(x.stores, [2]int{int(int64(off) + d), int(end + d)})
				}
			}
		}
	}
	if r := x.roll; r != nil && r.base[x.rollPos] >= 0 {
		// Rolled: segment k's bytes are k strides on; all of them are
		// in the state (the unrolled unit passed extent) and stored to.
		bi := r.base[x.rollPos]
		mbase = rollBases[bi]
		for k := int64(1); k < int64(r.count); k++ {
			d := k * r.stride[bi]
			x.minState = max(x.minState, int(end+d))
			if !load {
				x.stores = append(x.stores, [2]int{int(int64(off) + d), int(end + d)})
			}
		}
	}
	m := amd64.M(mbase, int32(off))
	if load && !in.Addr.Dynamic() && lo+vw <= 8 && last && x.onlyBranchReads(in.Dst) {
		a.TestMemImm(m, int64(sir.Mask(vw)<<uint(lo)), 8)
		x.flagsOK, x.flagsReg, x.flagsCC = true, in.Dst, amd64.CondNE
		return nil
	}
	var t amd64.Reg // a load's result
	if load {
		t = x.target(in.Dst, in.Addr.Index)
	}
	skip := a.NewLabel()
	if in.Addr.Dynamic() {
		stride := in.Addr.Stride
		il := x.at(in.Addr.Index)
		switch il.kind {
		case locConst: // resolved now; in range, the address fits (end above)
			if il.imm >= uint64(in.Addr.Count) {
				if load {
					x.setImm(in.Dst, 0)
				}
				return nil
			}
			m.Disp = int32(int64(off) + int64(il.imm)*int64(stride))
		default:
			// An index too narrow to reach Count (a 5-bit index into 32
			// words) is always in range: registers hold no bits above
			// their width.
			checked := x.w(in.Addr.Index) >= 31 || 1<<x.w(in.Addr.Index) > in.Addr.Count
			if load && checked {
				x.zero(t) // the result when out of range
			}
			idx := rC
			if il.kind == locReg {
				idx = il.reg
			} else {
				x.ld(rC, in.Addr.Index)
			}
			if checked {
				a.AluRegImm(amd64.Cmp, idx, int64(in.Addr.Count), 64) // Count < 2^31: end fits
				a.Jcc(amd64.CondAE, skip)
			}
			switch stride {
			case 1, 2, 4, 8:
				m = amd64.MI(mbase, idx, uint8(stride), int32(off))
			default:
				a.ImulRegRegImm(rC, idx, int64(stride), 64)
				m = amd64.MI(mbase, rC, 1, int32(off))
			}
		}
	}
	switch in.Op {
	case sir.OpLoad:
		x.load(t, m, size)
		if vw < 8*size {
			x.mask(t, vw)
		}
	case sir.OpStore:
		switch l := x.at(in.A); {
		case l.kind == locReg:
			a.MovMemReg(m, l.reg, 8*size)
		case l.kind == locConst && (size < 8 || fits32(int64(l.imm))):
			a.MovMemImm(m, int64(l.imm), 8*size) // the value fits 8*size bits
		default:
			x.ld(rA, in.A)
			a.MovMemReg(m, rA, 8*size)
		}
	case sir.OpLoadBits:
		x.readBytes(t, m, size)
		if lo > 0 {
			a.ShiftRegImm(amd64.Shr, t, uint8(lo), 64)
		}
		x.mask(t, vw)
	case sir.OpStoreBits:
		x.readBytes(rA, m, size) // the old bytes
		if k := int64(^(sir.Mask(vw) << uint(lo))); fits32(k) {
			a.AluRegImm(amd64.And, rA, k, 64)
		} else {
			a.MovRegImm(rD, k, 64)
			a.AluRegReg(amd64.And, rA, rD, 64)
		}
		x.ld(rD, in.A)
		if lo > 0 {
			a.ShiftRegImm(amd64.Shl, rD, uint8(lo), 64)
		}
		a.AluRegReg(amd64.Or, rA, rD, 64)
		x.writeBytes(m, size)
	}
	a.Bind(skip)
	if load {
		x.st(in.Dst, t)
	}
	return nil
}

// load zero-extends size (1, 2, 4, 8) bytes at m into r.
func (x *lowerer) load(r amd64.Reg, m amd64.Mem, size int) {
	switch size {
	case 1, 2:
		x.a.MovzxMem(r, m, 32, 8*size)
	case 4:
		x.a.MovRegMem(r, m, 32)
	default:
		x.a.MovRegMem(r, m, 64)
	}
}

// pieces splits n (1..8) bytes into power-of-two accesses, largest first.
func pieces(n int) (ps [][2]int) {
	at := 0
	for _, s := range []int{8, 4, 2, 1} {
		if n-at >= s {
			ps = append(ps, [2]int{s, at})
			at += s
		}
	}
	return ps
}

// readBytes sets r to the n bytes at m, little-endian, touching exactly
// those bytes (clobbers RDX).
func (x *lowerer) readBytes(r amd64.Reg, m amd64.Mem, n int) {
	ps := pieces(n)
	x.load(r, m, ps[0][0])
	for _, p := range ps[1:] {
		pm := m
		pm.Disp += int32(p[1])
		x.load(rD, pm, p[0])
		x.a.ShiftRegImm(amd64.Shl, rD, uint8(8*p[1]), 64)
		x.a.AluRegReg(amd64.Or, r, rD, 64)
	}
}

// writeBytes stores the low n bytes of rA at m (clobbers rA).
func (x *lowerer) writeBytes(m amd64.Mem, n int) {
	at := 0
	for _, p := range pieces(n) {
		if p[1] > at {
			x.a.ShiftRegImm(amd64.Shr, rA, uint8(8*(p[1]-at)), 64)
			at = p[1]
		}
		pm := m
		pm.Disp += int32(p[1])
		x.a.MovMemReg(pm, rA, 8*p[0])
	}
}

func (x *lowerer) term(bi int, t *sir.Term) {
	a := x.a
	next := x.next(bi)
	goTo := func(to sir.BlockID, fallthroughOK bool) {
		if x.backward(bi, to) {
			x.usedStep = true
			a.AluMemImm(amd64.Sub, x.slotN(0), 1, 64)
			a.Jcc(amd64.CondE, x.stepExit)
		}
		if !fallthroughOK || to != next {
			a.Jmp(x.blocks[to])
		}
	}
	switch t.Kind {
	case sir.TermJump:
		goTo(t.Then, true)
	case sir.TermBranch:
		if c := x.at(t.Cond); c.kind == locConst {
			if c.imm&1 != 0 {
				goTo(t.Then, true)
			} else {
				goTo(t.Else, true)
			}
			return
		}
		cc := amd64.CondNE // taken to Then
		if x.flagsOK && x.flagsReg == t.Cond {
			cc = x.flagsCC
		} else {
			x.test(t.Cond)
		}
		if !x.backward(bi, t.Then) && !x.backward(bi, t.Else) {
			if t.Then == next {
				a.Jcc(cc.Invert(), x.blocks[t.Else])
				return
			}
			a.Jcc(cc, x.blocks[t.Then])
			goTo(t.Else, true)
			return
		}
		els := a.NewLabel()
		a.Jcc(cc.Invert(), els)
		goTo(t.Then, false)
		a.Bind(els)
		goTo(t.Else, true)
	default:
		a.MovRegImm(StatusReg, int64(t.Status), 32)
		if t.Status == sir.StatusOK && x.ring >= 0 { // ringfull when events were dropped
			a.MovRegImm(rD, int64(sir.StatusRingFull), 32)
			a.AluMemImm(amd64.Cmp, x.ringField(ringDropped), 0, 32)
			a.Cmov(amd64.CondNE, StatusReg, rD, 32)
		}
		a.Ret()
	}
}

// Ring header fields: sir's definition.
const (
	ringCount   = sir.RingFieldCount
	ringUsed    = sir.RingFieldUsed
	ringCap     = sir.RingFieldCap
	ringDropped = sir.RingFieldDropped
)

func (x *lowerer) ringField(f int) amd64.Mem { return amd64.M(base, int32(x.ring+f)) }

// event lowers OpEvent exactly as sir.RingReserve and the interpreter do:
// the record is dropped (and dropped incremented) when an earlier event was
// dropped or it does not fit in cap-used bytes, cap being clamped to the end
// of the state; otherwise count and used advance and the record (header,
// then per argument width, flags and words) is written at ring+16+used.
// It uses the scratch registers only.
func (x *lowerer) event(in *sir.Inst) error {
	a := x.a
	ev := in.Ev
	size := sir.RecordSize(ev)
	maxCap := x.ringEnd - x.ring - sir.RingHeaderSize
	x.stores = append(x.stores, [2]int{x.ring, x.ringEnd}) // header and records
	if len(ev.Args) > 0xffff || size >= 1<<30 {
		return fmt.Errorf("jit: unit %q: event record of %d bytes", x.u.Name, size)
	}
	drop, done := a.NewLabel(), a.NewLabel()
	a.AluMemImm(amd64.Cmp, x.ringField(ringDropped), 0, 32)
	a.Jcc(amd64.CondNE, drop)
	a.MovRegMem(rA, x.ringField(ringUsed), 32) // zero-extended
	a.MovRegMem(rD, x.ringField(ringCap), 32)
	a.MovRegImm(rC, int64(maxCap), 64)
	a.AluRegReg(amd64.Cmp, rD, rC, 64)
	a.Cmov(amd64.CondA, rD, rC, 64) // capacity = min(cap, maxCap)
	a.Lea(rC, amd64.M(rA, int32(size)), 64)
	a.AluRegReg(amd64.Cmp, rC, rD, 64)
	a.Jcc(amd64.CondA, drop) // used+size > capacity
	a.MovMemReg(x.ringField(ringUsed), rC, 32)
	a.AluMemImm(amd64.Add, x.ringField(ringCount), 1, 32)
	rec := func(k int) amd64.Mem { return amd64.MI(base, rA, 1, int32(x.ring+sir.RingHeaderSize+k)) }
	put := func(k int, v uint64) {
		if fits32(int64(v)) {
			a.MovMemImm(rec(k), int64(v), 64)
			return
		}
		a.MovRegImm(rD, int64(v), 64)
		a.MovMemReg(rec(k), rD, 64)
	}
	put(0, uint64(byte(ev.Kind))|uint64(uint16(len(ev.Args)))<<16|uint64(uint32(ev.Format))<<32)
	put(8, uint64(uint32(ev.Level))|uint64(uint32(size))<<32)
	if st := x.regionSeq(in); st != nil {
		a.MovRegMem(rD, x.slotN(st.slot), 64)
		a.MovMemReg(rec(16), rD, 64)
	} else {
		put(16, uint64(ev.Seq))
	}
	q := sir.RecordHeaderSize
	for _, arg := range ev.Args {
		var flags uint64
		if arg.Signed {
			flags = 1
		}
		put(q, uint64(uint32(arg.Width))|flags<<32)
		q += 8
		for _, r := range arg.Words {
			switch l := x.at(r); l.kind {
			case locReg:
				a.MovMemReg(rec(q), l.reg, 64)
			case locConst:
				put(q, l.imm)
			default:
				x.ld(rD, r)
				a.MovMemReg(rec(q), rD, 64)
			}
			q += 8
		}
	}
	a.Jmp(done)
	a.Bind(drop)
	a.AluMemImm(amd64.Add, x.ringField(ringDropped), 1, 32)
	a.Bind(done)
	return nil
}

// noReuse turns off the reuse of values across blocks (opt.Reuse) in
// units without region runs.
var noReuse boolKnob

// SetReuse turns the reuse of values across blocks on or off (on by
// default) and returns a function that restores the previous setting.
func SetReuse(on bool) (restore func()) {
	return noReuse.set(!on)
}
