package jit

import (
	"slices"
	"sync/atomic"

	"github.com/weft-hdl/weft/jit/amd64"
	"github.com/weft-hdl/weft/sir"
)

// Rolling: the replicas of a module (generate-loop instances, a chain of
// pipeline stages) lower to long runs of the same instructions on state
// that moves by a fixed number of bytes from one replica to the next. The
// native code of such a run is emitted once, as a loop over the replicas
// whose memory operands are addressed from a base register advanced by the
// replica stride each time round; the code then fits the instruction
// cache however many replicas there are. SIR and the interpreter keep the
// unrolled form: rolling happens only here, so every differential test of
// native code against the interpreter checks it.
//
// A run of count segments of period instructions, starting at start in a
// block, rolls when every segment is segment 0 with
//   - the same ops, result widths and immediate fields, and no events,
//     but for at most one constant that steps by the same amount from
//     each segment to the next (a generate loop's index in an
//     expression), kept in a register the loop advances;
//   - each register operand either defined earlier in the same segment at
//     the same position (a local), or the very register segment 0 reads,
//     defined nowhere in the run (an invariant), or at most one carried
//     value: the register the segment before defined at one position,
//     where segment 0 reads a register defined before the run and read
//     after it by nothing (a stage's input copying its neighbour's
//     output);
//   - each memory operand static, at segment 0's state byte plus k times
//     that operand's stride (at most two distinct non-zero strides, one
//     base register each; stride 0 addresses the same bytes every time);
//   - locals never read outside their segment (they die in it), but for
//     the carried value, read by the next segment, and after the run by
//     whatever follows the last one.
// The allocator then leaves the base registers alone in the unit.

// Rolling bounds: runs need at least rollMinCount segments of at least
// rollMinPeriod instructions (the loop costs five or six instructions per
// segment), segments are at most rollMaxPeriod long, and the search
// gives up on a block after rollWork instructions examined per
// instruction: the cheap shape tests and each candidate run's full check
// count, so that a block of thousands of near-replicas that fail late (the
// word loops of a 100,000-bit multiply) costs time linear in its length.
const (
	rollMinCount  = 4
	rollMinPeriod = 8
	rollMaxPeriod = 512
	rollWork      = 64
	// rollRunCost is what one instruction a candidate run examines costs
	// of that budget: several shape comparisons' worth.
	rollRunCost = 4
)

// rollMinRun is the fewest instructions a run must span to roll: shorter
// runs fit the instruction cache unrolled, and there the loop's own
// instructions and the lost overlap between replicas cost more than they
// save (64 multiply-accumulates rolled ran 8% slower; 1,000 counters of
// four instructions each, 26 KB unrolled, 2.4x slower rolled, hence also
// rollMinPeriod).
var rollMinRun = newIntKnob(2048)

// SetRollMinRun sets the fewest instructions a run of replicas must span
// to be rolled (tests set 0 so that small designs roll too) and returns a
// function that restores the previous value.
func SetRollMinRun(n int) (restore func()) {
	return rollMinRun.set(int64(n))
}

// noVector turns vectorizing off (tests compare with and without).
var noVector boolKnob

// SetVector turns vectorizing of runs on or off (on by default) and
// returns a function that restores the previous setting.
func SetVector(on bool) (restore func()) {
	return noVector.set(!on)
}

// intKnob and boolKnob are process-wide settings that tests change while
// compiles run on other goroutines; set returns what restores the old
// value.
type intKnob struct{ atomic.Int64 }

func newIntKnob(v int64) *intKnob {
	k := &intKnob{}
	k.Store(v)
	return k
}

func (k *intKnob) set(v int64) (restore func()) {
	old := k.Swap(v)
	return func() { k.Store(old) }
}

type boolKnob struct{ atomic.Bool }

func (k *boolKnob) set(v bool) (restore func()) {
	old := k.Swap(v)
	return func() { k.Store(old) }
}

// rollSearchWork counts the instructions the roll search's candidate runs
// examined in this process.
var rollSearchWork atomic.Int64

// RollSearchWork is how many instructions the native backend's search for
// runs of replicas has examined in candidate runs in this process: tests
// check that it grows linearly with the code compiled.
func RollSearchWork() int64 { return rollSearchWork.Load() }

// rolledRuns counts the runs rolled in this process.
var rolledRuns atomic.Int64

// RolledRuns is how many runs of replicas the native backend has rolled
// in this process (tests check that their designs exercised rolling).
func RolledRuns() int64 { return rolledRuns.Load() }

// rollBases are the machine registers that address rolled state.
var rollBases = [2]amd64.Reg{amd64.R15, amd64.R14}

// rollRun is one rolled run of a block.
type rollRun struct {
	start, period, count int
	// base is, per position of the segment, the index in rollBases of
	// the register its memory operand is addressed from (-1: RBX, stride
	// 0 or no memory operand).
	base   []int
	stride []int64 // per base: bytes from one segment to the next
	// carry, when carry.ok, is the one value a segment reads from the
	// segment before (a chain's stage reading its neighbour's output):
	// segment 0 reads carry.in (defined before the run, read elsewhere
	// only before the run in its block), segment k the register segment
	// k-1 defined at position carry.from, segment 0's carry0. Rolled, each
	// iteration ends by copying carry0's value into carry.in's location,
	// where the next iteration reads it; after the loop, carryOut (the
	// last segment's register at carry.from, when read after the run, else
	// NoReg) gets it.
	carry            carry
	carry0, carryOut sir.Reg
	// step, when step.ok, is the one constant that differs from replica
	// to replica, by step.by each time (a generate loop's index in an
	// expression): segment 0's register step.reg is assigned step.from at
	// step.at; rolled, it lives in rollStep, set before the loop and
	// advanced at the end of each iteration.
	step stepInfo
	// vec, when set, says the run is lowered as vector code (vector.go).
	vec *vecPlan
}

// rollStep holds a rolled run's stepped constant: the second base
// register, so a run with one may have one stride only.
var rollStep = rollBases[1]

// findRolls finds the vectorized and rolled runs of every block, by
// block: vector runs first, then rolled runs between them.
func findRolls(u *sir.Unit, l sir.Layout) map[int][]rollRun {
	var out map[int][]rollRun
	var uses []int32
	useFn := func() []int32 {
		if uses == nil {
			uses = useCounts(u)
		}
		return uses
	}
	f := &rollFinder{u: u, l: l}
	scalarMin := max(rollMinRun.Load(), rollMinCount*rollMinPeriod)
	for bi, b := range u.Blocks {
		if b == nil || len(b.Insts) < vecMinInsts && int64(len(b.Insts)) < scalarMin {
			continue
		}
		f.insts, f.shape = b.Insts, nil
		var runs []rollRun
		if len(b.Insts) >= vecMinInsts && !noVector.Load() {
			f.minPeriod, f.minCount, f.minRun, f.opsOK = 1, 2*vecMinGroups, vecMinInsts, vecOps
			runs = f.find(0, len(b.Insts), useFn, func(r *rollRun) bool {
				r.vec = f.vectorize(*r)
				return r.vec != nil
			})
		}
		if int64(len(b.Insts)) >= scalarMin {
			f.minPeriod, f.minCount, f.minRun, f.opsOK = rollMinPeriod, rollMinCount, rollMinRun.Load(), nil
			var all []rollRun
			lo := 0
			for _, vr := range runs {
				all = append(all, f.find(lo, vr.start, useFn, nil)...)
				all = append(all, vr)
				lo = vr.start + vr.period*vr.count
			}
			runs = append(all, f.find(lo, len(b.Insts), useFn, nil)...)
		}
		if len(runs) > 0 {
			if out == nil {
				out = map[int][]rollRun{}
			}
			out[bi] = runs
		}
	}
	return out
}

// useCounts counts the reads of every register in u (operands, indexes,
// event arguments, branch conditions).
func useCounts(u *sir.Unit) []int32 {
	n := make([]int32, len(u.Regs))
	add := func(r sir.Reg) {
		if r > 0 && int(r) < len(n) {
			n[r]++
		}
	}
	var buf []sir.Reg
	for _, b := range u.Blocks {
		if b == nil {
			continue
		}
		for i := range b.Insts {
			buf = b.Insts[i].Uses(buf[:0])
			for _, r := range buf {
				add(r)
			}
		}
		if b.Term.Kind == sir.TermBranch {
			add(b.Term.Cond)
		}
	}
	return n
}

type rollFinder struct {
	u     *sir.Unit
	l     sir.Layout
	insts []sir.Inst
	// The bounds of the search: shortest segment, fewest segments, fewest
	// instructions in the run.
	minPeriod, minCount int
	minRun              int64
	// opsOK, when set, must accept a segment's instructions before run
	// checks it (a cheap filter).
	opsOK func([]sir.Inst) bool
	shape []uint64
	// work counts the instructions run examined, for find's budget.
	work int
	// consts marks the registers some OpConst of the unit assigns
	// (built on first use).
	consts []bool
	// Scratch of run: segment 0's and segment k's definitions, the run's
	// definitions (also listed in defs) and their reads in their segment.
	pos0, pos, prev, defined, segUses regPos
	defs                              []sir.Reg
}

// constDefined reports whether some OpConst of the unit assigns r.
func (f *rollFinder) constDefined(r sir.Reg) bool {
	if f.consts == nil {
		f.consts = make([]bool, len(f.u.Regs))
		for _, b := range f.u.Blocks {
			if b == nil {
				continue
			}
			for i := range b.Insts {
				if in := &b.Insts[i]; in.Op == sir.OpConst && int(in.Dst) < len(f.consts) && in.Dst > 0 {
					f.consts[in.Dst] = true
				}
			}
		}
	}
	return r > 0 && int(r) < len(f.consts) && f.consts[r]
}

// stepInfo is a run's stepped constant while run checks it.
type stepInfo struct {
	ok       bool
	at       int
	reg      sir.Reg
	from, by uint64
}

// carry is a carried operand found by same: at position at, segment 0
// reads in, segment k out, which segment k-1 defined at position from.
type carry struct {
	ok       bool
	at, from int
	in, out  sir.Reg
}

// shapeOf hashes what two instructions must share to be the same position
// of two segments (registers and addresses are checked apart).
func (f *rollFinder) shapeOf(in *sir.Inst) uint64 {
	h := uint64(in.Op)
	mix := func(v uint64) { h = fnvMix(h, v) }
	mix(uint64(f.u.Width(in.Dst)))
	if in.Op != sir.OpConst { // a replica's constant may differ (linearly: same checks)
		mix(in.Imm)
	}
	mix(uint64(in.Lo))
	mix(uint64(in.Size))
	if in.Op.NumArgs() > 0 {
		mix(uint64(f.u.Width(in.A)))
	}
	if in.Addr.Dynamic() || in.Op == sir.OpEvent {
		mix(0xdead) // never rolled; still hashed apart
	}
	return h
}

// fnvMix folds v into the FNV-1a-style hash h.
func fnvMix(h, v uint64) uint64 { return (h ^ v) * 1099511628211 }

// find finds runs starting and ending in [lo, hi) of the block, those
// that accept takes (nil: all).
func (f *rollFinder) find(lo, hi int, uses func() []int32, accept func(*rollRun) bool) []rollRun {
	if hi-lo < f.minCount*f.minPeriod {
		return nil
	}
	n := hi
	if len(f.shape) != len(f.insts) {
		f.shape = make([]uint64, len(f.insts))
		for i := range f.insts {
			f.shape[i] = f.shapeOf(&f.insts[i])
		}
	}
	// next[i]: the next index starting the same rollMinPeriod shapes as i
	// (a single shape, a load say, recurs too often to find periods by).
	gram := make([]uint64, n)
	for i := lo; i < n; i++ {
		h := uint64(14695981039346656037)
		for j := i; j < min(n, i+rollMinPeriod); j++ {
			h = fnvMix(h, f.shape[j])
		}
		gram[i] = h
	}
	next := make([]int32, n)
	last := map[uint64]int32{}
	for i := n - 1; i >= lo; i-- {
		next[i] = -1
		if j, ok := last[gram[i]]; ok {
			next[i] = j
		}
		last[gram[i]] = int32(i)
	}
	budget := rollWork * (n - lo)
	var runs []rollRun
	for i := lo; i+f.minCount*f.minPeriod <= n && budget > 0; {
		found := false
		for j, tries := int(next[i]), 0; j > 0 && j-i <= rollMaxPeriod && tries < 8 && budget > 0; j, tries = int(next[j]), tries+1 {
			p := j - i
			if p < f.minPeriod || i+f.minCount*p > n {
				continue
			}
			// Cheap test first: shapes of minCount segments.
			ok := true
			for k := 1; k < f.minCount && ok; k++ {
				budget -= p
				ok = slices.Equal(f.shape[i:i+p], f.shape[i+k*p:i+(k+1)*p])
			}
			if !ok {
				continue
			}
			if f.opsOK != nil && !f.opsOK(f.insts[i:i+p]) {
				continue
			}
			r, ok := f.run(i, p, n, uses)
			budget -= rollRunCost * f.work
			rollSearchWork.Add(int64(f.work))
			f.work = 0
			if ok && accept != nil && !accept(&r) {
				// Refused whole: its replicas are for the next search, not
				// for this one again from each of its instructions.
				i += r.period*r.count - 1
				break
			}
			if ok {
				runs = append(runs, r)
				i += r.period * r.count
				found = true
				break
			}
		}
		if !found {
			i++
		}
	}
	return runs
}

// regPos maps registers to positions in a segment: slices indexed by
// register with a stamp per entry, so that starting afresh costs nothing
// (maps made rolling a third of chain100k's compile time).
type regPos struct {
	pos, stamp []int32
	cur        int32
}

func (m *regPos) reset(n int) {
	if len(m.pos) < n {
		m.pos, m.stamp = make([]int32, n), make([]int32, n)
	}
	m.cur++
}

func (m *regPos) set(r sir.Reg, j int) {
	if r > 0 && int(r) < len(m.pos) {
		m.pos[r], m.stamp[r] = int32(j), m.cur
	}
}

func (m *regPos) get(r sir.Reg) (int, bool) {
	if r <= 0 || int(r) >= len(m.stamp) || m.stamp[r] != m.cur {
		return 0, false
	}
	return int(m.pos[r]), true
}

// run checks the run of period p at start, as many segments as match
// before hi, and returns it when at least f.minCount do and it rolls.
func (f *rollFinder) run(start, p, hi int, uses func() []int32) (rollRun, bool) {
	ins := f.insts
	nregs := len(f.u.Regs)
	pos0, pos, defined, segUses := &f.pos0, &f.pos, &f.defined, &f.segUses
	pos0.reset(nregs)
	defined.reset(nregs)
	segUses.reset(nregs)
	f.defs = f.defs[:0]
	// Segment 0: the position defining each register it defines (the
	// latest), and the absolute state byte of each memory operand.
	type memAt struct {
		ok  bool
		abs int64
	}
	mem0 := make([]memAt, p)
	f.work += p
	for j := 0; j < p; j++ {
		in := &ins[start+j]
		if in.Op == sir.OpEvent || in.Addr.Dynamic() {
			return rollRun{}, false
		}
		if in.Op.IsMem() {
			abs, ok := f.abs(in)
			if !ok {
				return rollRun{}, false
			}
			mem0[j] = memAt{true, abs}
		}
		if in.Op.HasDst() {
			pos0.set(in.Dst, j)
		}
	}
	// define records segment k's definitions and counts their reads
	// inside it (segUses.pos counts).
	define := func(k int) {
		pos.reset(nregs)
		f.work += p
		var buf [4]sir.Reg
		for j := 0; j < p; j++ {
			in := &ins[start+k*p+j]
			for _, r := range regOperands(in, &buf) {
				if _, ok := pos.get(r); ok {
					c, _ := segUses.get(r)
					segUses.set(r, c+1)
				}
			}
			if in.Op.HasDst() {
				pos.set(in.Dst, j)
				if _, seen := defined.get(in.Dst); !seen {
					defined.set(in.Dst, 0)
					f.defs = append(f.defs, in.Dst)
				}
			}
		}
	}
	define(0)
	strides := make([]int64, p)
	count := 1
	var cr carry
	var st stepInfo
	for k := 1; start+(k+1)*p <= hi; k++ {
		// prev: segment k-1's definitions (pos holds them after define).
		prev := pos0
		if k > 1 {
			f.prev, f.pos = f.pos, f.prev
			prev = &f.prev
		}
		pos.reset(nregs)
		ok := true
		segCarry := carry{}
		f.work += p
		for j := 0; j < p && ok; j++ {
			a, b := &ins[start+j], &ins[start+k*p+j]
			var c carry
			ok = f.shape[start+j] == f.shape[start+k*p+j]
			if ok {
				ok, c.ok, c.in, c.out, c.from = f.same(a, b, pos0, pos, prev)
			}
			if ok && c.ok {
				c.at = j
				ok = !segCarry.ok // one carried value per segment
				segCarry = c
			}
			if ok && a.Op == sir.OpConst {
				// A constant is the same in every segment, or steps by
				// the same amount each segment at one position.
				w := f.u.Width(a.Dst)
				if k == 1 && a.Imm != b.Imm {
					ok = !st.ok
					st = stepInfo{ok: true, at: j, reg: a.Dst, from: a.Imm, by: (b.Imm - a.Imm) & sir.Mask(w)}
				}
				if ok && (!st.ok || st.at != j) {
					ok = a.Imm == b.Imm
				} else if ok {
					ok = b.Imm == (st.from+uint64(k)*st.by)&sir.Mask(w)
				}
			}
			if ok && mem0[j].ok {
				abs, okb := f.abs(b)
				d := abs - mem0[j].abs
				ok = okb
				if k == 1 {
					strides[j] = d
				}
				ok = ok && d == int64(k)*strides[j]
			}
			if ok && b.Op.HasDst() {
				pos.set(b.Dst, j)
			}
		}
		// Every segment after the first carries the same value, or none does.
		if ok && k == 1 {
			cr = segCarry
		}
		ok = ok && segCarry.ok == cr.ok && (!cr.ok || segCarry.at == cr.at && segCarry.from == cr.from && segCarry.in == cr.in)
		if !ok {
			break
		}
		define(k) // the segment is good
		if cr.ok {
			c, _ := segUses.get(segCarry.out) // its read by this segment is allowed
			segUses.set(segCarry.out, c+1)
		}
		count = k + 1
	}
	if count < f.minCount || int64(count*p) < f.minRun {
		return rollRun{}, false
	}
	// Invariants are defined nowhere in the run; locals are read nowhere
	// outside their segment.
	var buf [4]sir.Reg
	for j := 0; j < p; j++ {
		for _, r := range regOperands(&ins[start+j], &buf) {
			_, local := pos0.get(r)
			if _, def := defined.get(r); !local && def {
				return rollRun{}, false
			}
		}
	}
	n := uses()
	r := rollRun{start: start, period: p, count: count, base: make([]int, p)}
	if cr.ok {
		// The carried-in register is read here and before the run in its
		// block only (the loop overwrites it), and no OpConst assigns it
		// (the allocator may keep such a register as an immediate, which
		// the loop could not overwrite).
		before := int32(0)
		var buf [8]sir.Reg
		f.work += start
		for i := range ins[:start] {
			for _, u := range ins[i].Uses(buf[:0]) {
				if u == cr.in {
					before++
				}
			}
		}
		if int(cr.in) >= len(n) || n[cr.in] != before+1 || f.constDefined(cr.in) {
			return rollRun{}, false
		}
		r.carry, r.carry0 = cr, ins[start+cr.from].Dst
		// The last segment's value at carryFrom, if read after the run.
		last := ins[start+(count-1)*p+cr.from].Dst
		c, _ := segUses.get(last)
		if int(last) < len(n) && n[last] > int32(c) {
			r.carryOut = last
			segUses.set(last, int(n[last]))
		}
	}
	for _, d := range f.defs {
		c, _ := segUses.get(d)
		if int(d) < len(n) && n[d] != int32(c) {
			return rollRun{}, false
		}
	}
	// Base registers by stride.
	for j := range r.base {
		r.base[j] = -1
		if !mem0[j].ok || strides[j] == 0 {
			continue
		}
		bi := slices.Index(r.stride, strides[j])
		if bi < 0 {
			if len(r.stride) == len(rollBases) {
				return rollRun{}, false
			}
			bi = len(r.stride)
			r.stride = append(r.stride, strides[j])
		}
		r.base[j] = bi
	}
	if len(r.stride) == 0 || st.ok && (len(r.stride) > 1 || f.u.Width(st.reg) > 64) {
		return rollRun{}, false
	}
	if st.ok {
		// Segment 0 assigns the stepped register there only: every read
		// of it in the segment reads rollStep.
		for j := 0; j < p; j++ {
			if in := &ins[start+j]; j != st.at && in.Op.HasDst() && in.Dst == st.reg {
				return rollRun{}, false
			}
		}
		r.step = st
	}
	// The loop's end test compares the first base with RBX plus
	// count strides: that must be a 32-bit displacement.
	if span := int64(count) * r.stride[0]; span >= 1<<31 || span <= -(1<<31) {
		return rollRun{}, false
	}
	return r, true
}

// abs is the state byte a static memory operand addresses (its first).
func (f *rollFinder) abs(in *sir.Inst) (int64, bool) { return stateByte(f.l, in) }

// stateByte is the state byte memory operand in addresses (its first
// element's), false for the event ring and objects l does not place.
func stateByte(l sir.Layout, in *sir.Inst) (int64, bool) {
	if in.Addr.Home == sir.RingHome {
		return 0, false
	}
	h := l.Offset(in.Addr.Home)
	if h < 0 {
		return 0, false
	}
	return int64(h) + int64(in.Addr.Offset), true
}

// same reports whether b (in segment k, whose definitions so far are pos)
// reads what a (segment 0, pos0) reads: locals defined at the same
// position, invariants the same register.
//
// An operand of b that is neither may be carried: defined by the segment
// before (prev, its definitions) at position from, where a reads a register
// segment 0 does not define; same then reports it (carried, a's register
// in, b's register out, from).
func (f *rollFinder) same(a, b *sir.Inst, pos0, pos, prev *regPos) (ok, carried bool, in, out sir.Reg, from int) {
	if a.Op != b.Op || a.Imm != b.Imm && a.Op != sir.OpConst || a.Lo != b.Lo || a.Size != b.Size ||
		f.u.Width(a.Dst) != f.u.Width(b.Dst) || a.Ev != nil || b.Ev != nil || b.Addr.Dynamic() {
		return false, false, 0, 0, 0
	}
	var ba, bb [4]sir.Reg
	ra, rb := regOperands(a, &ba), regOperands(b, &bb)
	if len(ra) != len(rb) {
		return false, false, 0, 0, 0
	}
	for i := range ra {
		ja, la := pos0.get(ra[i])
		jb, lb := pos.get(rb[i])
		if la == lb && (!la || ja == jb) && (la || ra[i] == rb[i]) {
			continue
		}
		jp, lp := prev.get(rb[i])
		if la || lb || !lp || carried || ra[i] == rb[i] {
			return false, false, 0, 0, 0
		}
		carried, in, out, from = true, ra[i], rb[i], jp
	}
	return true, carried, in, out, from
}

// regOperands lists the registers in reads, into buf (rolled
// instructions read at most three: no events, no indexes).
func regOperands(in *sir.Inst, buf *[4]sir.Reg) []sir.Reg { return in.Uses(buf[:0]) }

// withoutBases is regs less the rolling base registers.
func withoutBases(regs []amd64.Reg) []amd64.Reg {
	var out []amd64.Reg
	for _, r := range regs {
		if r != rollBases[0] && r != rollBases[1] {
			out = append(out, r)
		}
	}
	return out
}

// rolled lowers run r of the current block: the bases start at RBX, the
// segment's code runs with its memory operands on their bases, the bases
// advance, and the loop goes round until the first base has moved count
// strides. A rolled loop needs no back-edge budget: it runs count times.
func (x *lowerer) rolled(b *sir.Block, r rollRun) error {
	a := x.a
	for i := range r.stride {
		a.MovRegReg(rollBases[i], base, 64)
	}
	if r.step.ok {
		a.MovRegImm(rollStep, int64(r.step.from), 64)
	}
	top := a.NewLabel()
	a.Bind(top)
	x.roll = &r
	rolledRuns.Add(1)
	for j := 0; j < r.period; j++ {
		x.flagsOK = false
		x.rollPos = j
		if r.step.ok && j == r.step.at {
			continue // the constant is in rollStep (lowerer.at)
		}
		if err := x.inst(&b.Insts[r.start+j], false); err != nil {
			x.roll = nil
			return err
		}
	}
	x.roll = nil
	x.flagsOK = false
	if r.carry.ok { // the next iteration reads this one's value where segment 0 read carry.in
		x.ld(rA, r.carry0)
		x.st(r.carry.in, rA)
	}
	for i, s := range r.stride {
		a.AluRegImm(amd64.Add, rollBases[i], s, 64)
	}
	if r.step.ok {
		if by := int64(r.step.by); fits32(by) {
			a.AluRegImm(amd64.Add, rollStep, by, 64)
		} else {
			a.MovRegImm(rA, by, 64)
			a.AluRegReg(amd64.Add, rollStep, rA, 64)
		}
		x.mask(rollStep, x.w(r.step.reg))
	}
	a.Lea(rA, amd64.M(base, int32(int64(r.count)*r.stride[0])), 64)
	a.AluRegReg(amd64.Cmp, rollBases[0], rA, 64)
	// Below (above, for a negative stride) rather than not-equal: the
	// loop ends even if the base were ever to step past its end.
	if r.stride[0] > 0 {
		a.Jcc(amd64.CondB, top)
	} else {
		a.Jcc(amd64.CondA, top)
	}
	if r.carryOut != sir.NoReg {
		x.ld(rA, r.carry.in)
		x.st(r.carryOut, rA)
	}
	return nil
}
