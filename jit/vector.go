package jit

import (
	"slices"
	"sync/atomic"

	"github.com/weft-hdl/weft/jit/amd64"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"golang.org/x/sys/cpu"
)

// Vectorizing: a run of replicas (roll.go) whose every memory operand
// moves by exactly its own size from one replica to the next (element i
// of an array per generate-loop instance i) and whose instructions are
// all lane-wise integer operations lowers to vector code that does a
// group of replicas at once: one vector load or store per memory operand,
// one packed operation per instruction. Groups are 32 bytes of AVX2 where
// the CPU has it (checked at run time; SetAVX2 turns it off) and 16 bytes
// of SSE2 otherwise (part of x86-64: every machine the native backend runs
// on has it). The loop does four groups an iteration; the groups and the
// replicas left over follow it, the replicas as their own unrolled
// instructions.
//
// A run vectorizes when, besides rolling (one stride, no carried value):
//   - the stride is the size of every memory access, 1, 2, 4 or 8 bytes,
//     and every value of the segment is stored in elements of that size
//     (program.ElemSize of its width);
//   - its instructions are loads, stores, constants (one may step from
//     replica to replica), copies, add, sub, and, or, xor and not, each
//     register defined once in the segment;
//   - a load or store that does not move (stride 0) is a load no store of
//     the run overlaps (it is read once, before the loop);
//   - no store of one replica overlaps an access of another one: doing
//     16/size replicas at once reorders their accesses, which is exact
//     only when each touches its own bytes;
//   - the registers it needs fit the sixteen SSE registers (abi.go: native
//     code may clobber every one).

const (
	// vecMinInsts: blocks shorter are not searched for vector runs.
	vecMinInsts = 32
	// vecMinGroups: a vector run does at least this many iterations.
	vecMinGroups = 2
	// vecXRegs is the number of SSE registers vector code may use.
	vecXRegs = 16
	// vecUnroll is the groups of replicas each loop iteration does.
	vecUnroll = 4
)

// vecPlan is how a run vectorizes.
type vecPlan struct {
	lane amd64.Lane // element size in bytes
	// wide: 256-bit AVX2 vectors (32 / lane replicas a group), else 128-bit
	// SSE2 ones (16 / lane).
	wide  bool
	lanes int // replicas per group
	// groups is the number of iterations: groups*lanes replicas run as
	// vectors, the rest unrolled.
	groups int
	// xr is, by position in the segment, the register holding the value
	// it defines (its vector) or -1.
	xr []int
	// inv are the registers defined before the run that the segment reads,
	// each broadcast into xinv before the loop.
	inv  []sir.Reg
	xinv []amd64.XReg
	// hoist marks the positions set once before the loop: constants and
	// loads of bytes that do not move. swap marks the commutative
	// operations computed into their second operand's register (it dies
	// there); the others whose first operand dies there compute into its.
	hoist, swap []bool
	// masks by value width narrower than the lanes (xmask[i] holds
	// widths[i]'s mask in every lane); ones, when useOnes, all ones (not).
	widths  []int
	xmask   []amd64.XReg
	ones    amd64.XReg
	useOnes bool
	// xsteps, with a stepped constant, are the registers holding its
	// vectors: the loop keeps 1, 2 or 4 of them (a divisor of vecUnroll)
	// so that their additions do not wait for each other; group u uses
	// xsteps[u mod len]. stepInc is what each advances by after use.
	xsteps  []amd64.XReg
	stepInc amd64.XReg
	tmp     amd64.XReg
}

// vecOp reports whether op has a vector form.
func vecOp(op sir.Op) bool {
	switch op {
	case sir.OpLoad, sir.OpStore, sir.OpConst, sir.OpCopy, sir.OpAdd, sir.OpSub, sir.OpAnd, sir.OpOr, sir.OpXor, sir.OpNot:
		return true
	}
	return false
}

// vecOps reports whether every instruction of a segment has a vector form.
func vecOps(ins []sir.Inst) bool {
	return !slices.ContainsFunc(ins, func(in sir.Inst) bool { return !vecOp(in.Op) })
}

// vectorize returns how run r vectorizes, or nil.
func (f *rollFinder) vectorize(r rollRun) *vecPlan {
	if r.carry.ok || len(r.stride) != 1 {
		return nil
	}
	e := r.stride[0]
	if e != 1 && e != 2 && e != 4 && e != 8 {
		return nil
	}
	v := &vecPlan{lane: amd64.Lane(e), wide: useAVX2()}
	v.lanes = v.bytes() / int(e)
	v.groups = r.count / v.lanes
	if v.groups < vecMinGroups {
		return nil
	}
	ins := f.insts[r.start : r.start+r.period]
	v.xr = make([]int, r.period)
	v.hoist = make([]bool, r.period)
	v.swap = make([]bool, r.period)
	next := 0
	alloc := func() (int, bool) {
		next++
		return next - 1, next <= vecXRegs
	}
	defAt := map[sir.Reg]int{}
	invAt := map[sir.Reg]int{}
	needOnes := false
	fits := func(w int) bool { return w >= 1 && w <= 64 && program.ElemSize(w) == int(e) }
	width := func(w int) bool {
		if w < 8*int(e) && !slices.Contains(v.widths, w) {
			v.widths = append(v.widths, w)
		}
		return true
	}
	type span struct{ lo, hi int64 }
	var stores, loads []span
	var buf [4]sir.Reg
	segUses := map[sir.Reg]int{}
	for j := range ins {
		for _, u := range regOperands(&ins[j], &buf) {
			segUses[u]++
		}
	}
	defPos := map[sir.Reg]int{}
	// reusable reports whether local operand u dies in the instruction at
	// j, which may then compute into its register.
	reusable := func(u sir.Reg) bool {
		k, local := defPos[u]
		return local && segUses[u] == 1 && !v.hoist[k] && !(r.step.ok && r.step.at == k)
	}
	for j := range ins {
		in := &ins[j]
		v.xr[j] = -1
		switch {
		case !vecOp(in.Op):
			return nil
		case in.Op.IsMem():
			if in.Size != int(e) {
				return nil
			}
			abs, ok := f.abs(in)
			if !ok {
				return nil
			}
			moves := r.base[j] == 0
			s := span{abs, abs + e}
			if moves {
				s.hi = abs + int64(r.count)*e
			}
			if in.Op == sir.OpStore {
				if !moves || !fits(f.u.Width(in.A)) {
					return nil
				}
				stores = append(stores, s)
			} else {
				if !fits(f.u.Width(in.Dst)) {
					return nil
				}
				v.hoist[j] = !moves
				loads = append(loads, s)
			}
		default:
			if !fits(f.u.Width(in.Dst)) {
				return nil
			}
			v.hoist[j] = in.Op == sir.OpConst && !(r.step.ok && r.step.at == j)
			needOnes = needOnes || in.Op == sir.OpNot
		}
		for _, u := range regOperands(in, &buf) {
			if !fits(f.u.Width(u)) {
				return nil
			}
			if _, local := defAt[u]; local {
				continue
			}
			if _, seen := invAt[u]; !seen {
				x, ok := alloc()
				if !ok {
					return nil
				}
				invAt[u] = x
				v.inv = append(v.inv, u)
				v.xinv = append(v.xinv, amd64.XReg(x))
			}
		}
		if in.Op.HasDst() {
			if _, twice := defAt[in.Dst]; twice {
				return nil
			}
			if _, inv := invAt[in.Dst]; inv {
				return nil // read before it is defined here: not one value per replica
			}
			var x int
			switch {
			case in.Op == sir.OpLoad || in.Op == sir.OpConst:
				x = -1
			case reusable(in.A):
				x = defAt[in.A]
			case in.Op.NumArgs() == 2 && in.Op != sir.OpSub && reusable(in.B):
				x = defAt[in.B]
				v.swap[j] = true
			default:
				x = -1
			}
			if x < 0 {
				var ok bool
				if x, ok = alloc(); !ok {
					return nil
				}
			}
			defAt[in.Dst], defPos[in.Dst] = x, j
			v.xr[j] = x
			width(f.u.Width(in.Dst))
		}
	}
	// Each replica touches its own bytes: a store either is at the same
	// bytes as another access of its replica or overlaps no access of
	// the run at all.
	for _, s := range stores {
		for _, o := range append(append([]span(nil), loads...), stores...) {
			if o == s {
				continue
			}
			if o.lo == s.lo && o.hi == s.hi || o.hi <= s.lo || s.hi <= o.lo {
				continue
			}
			return nil
		}
	}
	for range v.widths {
		x, ok := alloc()
		if !ok {
			return nil
		}
		v.xmask = append(v.xmask, amd64.XReg(x))
	}
	if needOnes {
		x, ok := alloc()
		if !ok {
			return nil
		}
		v.ones, v.useOnes = amd64.XReg(x), true
	}
	if r.step.ok {
		x, ok := alloc()
		if !ok {
			return nil
		}
		v.stepInc = amd64.XReg(x)
	}
	x, ok := alloc()
	if !ok {
		return nil
	}
	v.tmp = amd64.XReg(x)
	if r.step.ok {
		v.xsteps = []amd64.XReg{amd64.XReg(v.xr[r.step.at])}
		for n := vecUnroll; n > 1; n /= 2 {
			if next+n-1 <= vecXRegs {
				for range n - 1 {
					v.xsteps = append(v.xsteps, amd64.XReg(next))
					next++
				}
				break
			}
		}
	}
	return v
}

// vectorized lowers vector run r of the current block (see vectorize),
// then the replicas left over one by one.
func (x *lowerer) vectorized(b *sir.Block, r rollRun) error {
	a, v := x.a, r.vec
	e := int(v.lane)
	ins := b.Insts[r.start : r.start+r.period]
	// Before the loop: invariants, hoisted positions, masks, all ones,
	// the stepped constant's first lanes and its increment.
	for i, reg := range v.inv {
		x.ld(rA, reg)
		x.broadcastReg(v, v.xinv[i], rA)
	}
	for i, w := range v.widths {
		x.broadcastImm(v, v.xmask[i], sir.Mask(w))
	}
	if v.useOnes {
		x.broadcastImm(v, v.ones, ^uint64(0))
	}
	for j := range ins {
		in := &ins[j]
		if !v.hoist[j] {
			continue
		}
		xr := amd64.XReg(v.xr[j])
		if in.Op == sir.OpConst {
			x.broadcastImm(v, xr, in.Imm)
			continue
		}
		if err := x.vecAccess(in, 1, v.lane); err != nil {
			return err
		}
		x.load(rA, x.stateMem(in), e)
		if w := x.w(in.Dst); w < 8*e {
			x.mask(rA, w)
		}
		x.broadcastReg(v, xr, rA)
	}
	if r.step.ok {
		w := x.w(r.step.reg)
		xs := amd64.XReg(v.xr[r.step.at])
		var q [4]uint64
		for i := 0; i < v.lanes; i++ {
			val := (r.step.from + uint64(i)*r.step.by) & sir.Mask(w)
			bit := (i * e * 8) % 64
			q[i*e/8] |= val << bit
		}
		x.vecQwords(v, xs, v.tmp, q[0], q[1])
		if v.wide { // the upper 128 bits, built in stepInc (set below)
			x.vecQwords(v, v.tmp, v.stepInc, q[2], q[3])
			a.VInserti128High(xs, xs, v.tmp)
		}
		// xsteps[k] is k groups on.
		x.broadcastImm(v, v.tmp, (uint64(v.lanes)*r.step.by)&sir.Mask(w))
		for k := 1; k < len(v.xsteps); k++ {
			x.vop(v, amd64.PAdd, v.xsteps[k], v.xsteps[k-1], v.tmp)
			if w < 8*e {
				x.vop(v, amd64.PAnd, v.xsteps[k], v.xsteps[k], v.maskOf(w))
			}
		}
		x.broadcastImm(v, v.stepInc, (uint64(len(v.xsteps)*v.lanes)*r.step.by)&sir.Mask(w))
	}
	// src is the register holding operand reg of position j in group u.
	src := func(reg sir.Reg, j, u int) amd64.XReg {
		for k := j - 1; k >= 0; k-- {
			if ins[k].Op.HasDst() && ins[k].Dst == reg {
				if r.step.ok && k == r.step.at {
					return v.xsteps[u%len(v.xsteps)]
				}
				return amd64.XReg(v.xr[k])
			}
		}
		for i, u := range v.inv {
			if u == reg {
				return v.xinv[i]
			}
		}
		return v.tmp // unreachable: vectorize found every operand
	}
	// body emits one group of lanes replicas at disp bytes from the base,
	// and advances the stepped constant.
	body := func(u, disp int) {
		for j := range ins {
			in := &ins[j]
			if v.hoist[j] || r.step.ok && j == r.step.at {
				continue
			}
			dst := amd64.XReg(max(v.xr[j], 0))
			narrow := in.Op.HasDst() && x.w(in.Dst) < 8*e
			m := amd64.M(rollBases[0], int32(x.l.Offset(in.Addr.Home)+in.Addr.Offset+disp))
			switch in.Op {
			case sir.OpLoad:
				x.vload(v, dst, m)
			case sir.OpStore:
				x.vstore(v, m, src(in.A, j, u))
				continue
			case sir.OpCopy:
				x.vcopy(v, dst, src(in.A, j, u))
				narrow = false
			case sir.OpNot:
				x.vop(v, amd64.PXor, dst, src(in.A, j, u), v.ones)
			default:
				op := map[sir.Op]amd64.PackedOp{sir.OpAdd: amd64.PAdd, sir.OpSub: amd64.PSub,
					sir.OpAnd: amd64.PAnd, sir.OpOr: amd64.POr, sir.OpXor: amd64.PXor}[in.Op]
				xa, xb := src(in.A, j, u), src(in.B, j, u)
				if v.swap[j] {
					xa, xb = xb, xa
				}
				x.vop(v, op, dst, xa, xb)
				narrow = narrow && (in.Op == sir.OpAdd || in.Op == sir.OpSub)
			}
			if narrow {
				x.vop(v, amd64.PAnd, dst, dst, v.maskOf(x.w(in.Dst)))
			}
		}
		if r.step.ok {
			xs := v.xsteps[u%len(v.xsteps)]
			x.vop(v, amd64.PAdd, xs, xs, v.stepInc)
			if w := x.w(r.step.reg); w < 8*e {
				x.vop(v, amd64.PAnd, xs, xs, v.maskOf(w))
			}
		}
	}
	// The loop does vecUnroll groups an iteration; the groups left over
	// follow it unrolled.
	for j := range ins {
		if in := &ins[j]; !v.hoist[j] && in.Op.IsMem() {
			if err := x.vecAccess(in, v.groups*v.lanes, v.lane); err != nil {
				return err
			}
		}
	}
	vectorRuns.Add(1)
	a.MovRegReg(rollBases[0], base, 64)
	step := v.bytes()
	if iters := v.groups / vecUnroll; iters > 0 {
		top := a.NewLabel()
		a.Bind(top)
		for u := 0; u < vecUnroll; u++ {
			body(u, u*step)
		}
		a.AluRegImm(amd64.Add, rollBases[0], int64(vecUnroll*step), 64)
		a.Lea(rA, amd64.M(base, int32(iters*vecUnroll*step)), 64)
		a.AluRegReg(amd64.Cmp, rollBases[0], rA, 64)
		a.Jcc(amd64.CondB, top)
	}
	for g := 0; g < v.groups%vecUnroll; g++ {
		body(g, g*step)
	}
	if v.wide {
		a.Vzeroupper() // scalar code follows: no AVX-to-SSE transition
	}
	x.flagsOK = false
	// The replicas left over, as they are.
	for k := r.start + v.groups*v.lanes*r.period; k < r.start+r.count*r.period; k++ {
		x.flagsOK = false
		if err := x.inst(&b.Insts[k], k == len(b.Insts)-1); err != nil {
			return err
		}
	}
	return nil
}

// maskOf is the register holding width w's mask.
func (v *vecPlan) maskOf(w int) amd64.XReg {
	for i, m := range v.widths {
		if m == w {
			return v.xmask[i]
		}
	}
	return v.tmp
}

// vectorRuns counts the runs vectorized in this process.
var vectorRuns atomic.Int64

// VectorRuns is how many runs of replicas the native backend has
// vectorized in this process (tests check that their designs exercised
// vector code).
func VectorRuns() int64 { return vectorRuns.Load() }

// vecAccess checks and records the state bytes memory operand in of a
// vector run touches in n replicas of lane bytes (n is 1 for the loads
// read once; its footprint for a store).
func (x *lowerer) vecAccess(in *sir.Inst, n int, lane amd64.Lane) error {
	h := x.l.Offset(in.Addr.Home)
	if h < 0 || in.Addr.Home == sir.RingHome {
		return &UnsupportedError{Unit: x.u.Name, Op: in.Op, Why: "vector access outside the layout"}
	}
	off := int64(h + in.Addr.Offset)
	end := off + int64(n)*int64(lane)
	if end > int64(x.arenaOff) || off < 0 {
		return &UnsupportedError{Unit: x.u.Name, Op: in.Op, Why: "vector access outside the state"}
	}
	x.minState = max(x.minState, int(end))
	if in.Op.IsStore() {
		x.stores = append(x.stores, [2]int{int(off), int(end)})
	}
	return nil
}

// stateMem is the state operand of a static access.
func (x *lowerer) stateMem(in *sir.Inst) amd64.Mem {
	return amd64.M(base, int32(x.l.Offset(in.Addr.Home)+in.Addr.Offset))
}

// broadcastImm sets every lane of xr to c.
func (x *lowerer) broadcastImm(v *vecPlan, xr amd64.XReg, c uint64) {
	x.a.MovRegImm(rA, int64(repeatLanes(c, int(v.lane))), 64)
	x.broadcastQ(v, xr, rA)
}

// broadcastReg sets every lane of xr to the value in m (clobbers m and
// RCX).
func (x *lowerer) broadcastReg(v *vecPlan, xr amd64.XReg, m amd64.Reg) {
	if v.lane < 8 {
		x.a.MovRegImm(rC, int64(repeatLanes(1, int(v.lane))), 64)
		x.a.ImulRegReg(m, rC, 64)
	}
	x.broadcastQ(v, xr, m)
}

// broadcastQ sets every qword of xr to m.
func (x *lowerer) broadcastQ(v *vecPlan, xr amd64.XReg, m amd64.Reg) {
	if v.wide {
		x.a.VMovqXR(xr, m)
		x.a.VPbroadcastq(xr, xr)
		return
	}
	x.a.MovqXR(xr, m)
	x.a.Punpcklqdq(xr, xr)
}

// vecQwords sets the low 128 bits of xr to the qwords lo, hi (tmp is
// clobbered; a wide plan's upper half is zeroed).
func (x *lowerer) vecQwords(v *vecPlan, xr, tmp amd64.XReg, lo, hi uint64) {
	a := x.a
	a.MovRegImm(rA, int64(lo), 64)
	a.MovRegImm(rC, int64(hi), 64)
	if v.wide {
		a.VMovqXR(xr, rA)
		a.VMovqXR(tmp, rC)
		a.VPunpcklqdq(xr, xr, tmp)
		return
	}
	a.MovqXR(xr, rA)
	a.MovqXR(tmp, rC)
	a.Punpcklqdq(xr, tmp)
}

// bytes is the size of one of v's vectors.
func (v *vecPlan) bytes() int {
	if v.wide {
		return 32
	}
	return 16
}

// vop emits dst = xa op xb.
func (x *lowerer) vop(v *vecPlan, op amd64.PackedOp, dst, xa, xb amd64.XReg) {
	if v.wide {
		x.a.VPacked(op, v.lane, dst, xa, xb)
		return
	}
	if xa != dst {
		x.a.Movdqa(dst, xa)
	}
	x.a.Packed(op, v.lane, dst, xb)
}

func (x *lowerer) vcopy(v *vecPlan, dst, src amd64.XReg) {
	switch {
	case dst == src:
	case v.wide:
		x.a.VMovdqa(dst, src)
	default:
		x.a.Movdqa(dst, src)
	}
}

func (x *lowerer) vload(v *vecPlan, dst amd64.XReg, m amd64.Mem) {
	if v.wide {
		x.a.VMovdquLoad(dst, m)
		return
	}
	x.a.MovdquLoad(dst, m)
}

func (x *lowerer) vstore(v *vecPlan, m amd64.Mem, src amd64.XReg) {
	if v.wide {
		x.a.VMovdquStore(m, src)
		return
	}
	x.a.MovdquStore(m, src)
}

// noAVX2 keeps vector code to SSE2 (tests run both).
var noAVX2 boolKnob

// useAVX2 reports whether vector code uses 256-bit AVX2 forms: when the
// CPU has them (and the OS saves their registers, which cpu checks).
func useAVX2() bool { return cpu.X86.HasAVX2 && !noAVX2.Load() }

// SetAVX2 allows (the default, where the CPU has it) or forbids AVX2 in
// vector code and returns a function that restores the previous setting.
func SetAVX2(on bool) (restore func()) {
	return noAVX2.set(!on)
}

// repeatLanes repeats the low e bytes of v across 64 bits.
func repeatLanes(v uint64, e int) uint64 {
	if e >= 8 {
		return v
	}
	v &= 1<<(8*e) - 1
	out := uint64(0)
	for i := 0; i < 8; i += e {
		out |= v << (8 * i)
	}
	return out
}
