package jit

import (
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/weft-hdl/weft/jit/amd64"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/opt"
)

// Regions: the instances of a module that a design has several of (the
// harts of a multi-core SoC) lower to consecutive stretches of code, one
// per instance, that differ only in the state they address (each
// instance's variables lie at a fixed distance from the previous one's),
// in constants that step from one instance to the next (a hart number)
// and in the sequence numbers of their events. Unlike roll.go's runs they
// span many blocks, with branches inside each instance's stretch. The
// native code of such a run is emitted once, as a loop over the instances
// whose memory operands are addressed from base registers advanced by the
// instance stride, stepped values kept in arena slots; the instruction
// cache then holds one instance's code however many there are. SIR and
// the interpreter keep every stretch: only the native backend loops, so
// every differential test of native code against the interpreter checks
// it.
//
// The unit's instructions and block ends, in layout order, form a stream
// of tokens. A run is count segments of period tokens, each one segment 0
// with:
//   - instructions of the same shape, register operands local to the
//     segment at the same positions or the very registers segment 0 reads
//     (invariants, defined nowhere in the run), memory operands static or
//     indexed at segment 0's bytes plus k times their stride (at most
//     three distinct non-zero strides: an instance's variables, their
//     staging copies and its scratch lie apart in a packed layout),
//     constants equal or stepping linearly, events equal but for a
//     stepping sequence number, and fields of at most 8 bits whose bit
//     position steps (each instance's flag in a shared packed vector; the
//     field stays inside one byte);
//   - block ends of the same kind and condition, whose targets are the
//     same positions of their own segment (the next segment's start
//     included) or the same block outside the run;
//   - every register defined in the run defined and read in one segment
//     only, but for flags (set by segments to one constant and read only
//     after the run) and the last segment's static loads read after the
//     run (loaded again after the loop when nothing in between stores to
//     their variable), and every block starting inside the run entered
//     from its own segment (or from the one before, at a segment's start).
// Segments may start in the middle of a block: the loop then ends in the
// middle of one (its end belongs to the next segment, never emitted).
//
// Candidate periods are the distances at which long stretches of token
// shapes recur most often; for each, the starts whose next period of
// shapes recurs are tried in order.

// Region bounds: segments of regionMinPeriod to regionMaxPeriod tokens,
// periods found from grams of regionGram tokens (the regionPeriods most
// frequent tried), at most regionMaxSteps stepped values a run, and
// regionWork token comparisons per token of the unit.
const (
	regionMinPeriod = 32
	regionMaxPeriod = 1 << 15
	regionGram      = 24
	regionMaxSteps  = 32
	regionWork      = 512
	regionPeriods   = 8
)

// regionBases are the machine registers that address a region's state:
// the instances' variables, their staging copies and their scratch lie at
// three different strides in a packed layout.
var regionBases = [3]amd64.Reg{amd64.R15, amd64.R14, amd64.R13}

// tokPos is a token's place: the block's index in layout order and the
// instruction's index in it (len(Insts): the block's end).
type tokPos struct{ oi, i int }

// regionStep is a value that steps from segment to segment: segment 0's
// from, then by more each segment, modulo 2^w; lowering keeps it in an
// arena slot.
type regionStep struct {
	from, by uint64
	w        int
	slot     int
}

// regionRun is one run of segments (see above).
type regionRun struct {
	start, segEnd, end tokPos
	count              int
	strides            []int64
	// base maps segment 0's memory instructions that move to their base
	// register's index in regionBases.
	base map[*sir.Inst]int
	// steps are the stepped constants of segment 0 (by instruction, and by
	// the register they define) and seqs its events with stepped sequence
	// numbers; all lists every step once.
	steps    map[*sir.Inst]*regionStep
	stepRegs map[sir.Reg]*regionStep
	seqs     map[*sir.Inst]*regionStep
	// bits are the loadbits and storebits of at most 8 bits whose bit
	// position steps (a per-instance field in a shared packed vector).
	bits map[*sir.Inst]*regionStep
	all  []*regionStep
	// reload are the last segment's loads whose values are read after the
	// run: the code after the loop loads them again.
	reload []*sir.Inst
}

// regionTok is a token: an instruction of block b, or its end (t).
type regionTok struct {
	b  sir.BlockID
	in *sir.Inst // nil: the block's end
	t  *sir.Term
}

// regionFinder holds a unit's tokens and what run checks them against.
type regionFinder struct {
	u       *sir.Unit
	l       sir.Layout
	order   []sir.BlockID
	oindex  []int
	toks    []regionTok
	first   []int // by block: its first token, -1 when not laid out
	shape   []uint64
	defs    []int32 // by register: definitions in the unit
	uses    []int32 // by register: reads in the unit
	preds   [][]sir.BlockID
	blocked []bool // by layout index: blocks with rolled runs
	// lastFail is where run's last try failed in its second segment (the
	// position in the segment), -1 elsewhere; failReg says it read
	// different registers defined before the segment there.
	lastFail int
	failReg  bool
	// Scratch of run, kept from try to try.
	pos0, pos           regPos
	strides             []int64
	steps, seqs, bits   []regionStepAt
	segOf, nDef, nUse   []int32
	flagVal             []uint64
	flagState, regStamp []int32
	stamp               int32
}

// regionStepAt is a stepping value found at one position of a segment.
type regionStepAt struct {
	ok       bool
	from, by uint64
}

// findRegions finds the region runs of u, laid out in order; blocks with
// rolled runs (by block ID) are left alone.
func findRegions(u *sir.Unit, l sir.Layout, order []sir.BlockID, rolls map[int][]rollRun) []*regionRun {
	if noRegions.Load() {
		return nil
	}
	f := &regionFinder{u: u, l: l, order: order, first: make([]int, len(u.Blocks)), oindex: make([]int, len(u.Blocks))}
	for i := range f.first {
		f.first[i], f.oindex[i] = -1, -1
	}
	f.blocked = make([]bool, len(order))
	for oi, id := range order {
		f.oindex[id] = oi
		f.blocked[oi] = len(rolls[int(id)]) > 0
		b := u.Blocks[id]
		f.first[id] = len(f.toks)
		for i := range b.Insts {
			f.toks = append(f.toks, regionTok{b: id, in: &b.Insts[i]})
		}
		f.toks = append(f.toks, regionTok{b: id, t: &b.Term})
	}
	n := len(f.toks)
	if int64(n) < regionMinRun.Load() {
		return nil
	}
	f.shape = make([]uint64, n)
	for i, t := range f.toks {
		f.shape[i] = f.shapeOf(t)
	}
	f.defs, f.uses = make([]int32, len(u.Regs)), useCounts(u)
	for _, t := range f.toks {
		if t.in != nil && t.in.Op.HasDst() && t.in.Dst > 0 {
			f.defs[t.in.Dst]++
		}
	}
	f.preds = u.Preds()
	gram := make([]uint64, n)
	for i := range gram {
		h := uint64(14695981039346656037)
		for j := i; j < min(n, i+regionGram); j++ {
			h = fnvMix(h, f.shape[j])
		}
		gram[i] = h
	}
	next := make([]int32, n)
	last := map[uint64]int32{}
	for i := n - 1; i >= 0; i-- {
		next[i] = -1
		if j, ok := last[gram[i]]; ok {
			next[i] = j
		}
		last[gram[i]] = int32(i)
	}
	var runs []*regionRun
	budget := regionWork * n
	// Candidate periods: how often each distance to the next occurrence of
	// a gram comes up (short ones, a register file's flops inside one
	// instance, passed over), most frequent first.
	hist := map[int]int{}
	for i := 0; i < n; i++ {
		for j, steps := int(next[i]), 0; j > 0 && steps < 64; j, steps = int(next[j]), steps+1 {
			if p := j - i; p >= regionMinPeriod {
				if p <= regionMaxPeriod {
					hist[p]++
				}
				break
			}
		}
	}
	var periods []int
	for p, c := range hist {
		if c >= regionMinPeriod {
			periods = append(periods, p)
		}
	}
	sort.Slice(periods, func(a, b int) bool {
		if hist[periods[a]] != hist[periods[b]] {
			return hist[periods[a]] > hist[periods[b]]
		}
		return periods[a] < periods[b]
	})
	if len(periods) > regionPeriods {
		periods = periods[:regionPeriods]
	}
	// For each, every start whose next p shapes repeat is tried, in order,
	// outside the runs found so far.
	same := make([]int32, n+1) // same[t]: tokens from t on equal to those p on
	for _, p := range periods {
		if budget <= 0 {
			break
		}
		same[n] = 0
		for t := n - 1; t >= 0; t-- {
			same[t] = 0
			if t+p < n && f.shape[t] == f.shape[t+p] {
				same[t] = same[t+1] + 1
			}
		}
		for i := 0; i+2*p <= n && budget > 0; i++ {
			if r := covering(runs, f, i); r >= 0 {
				i = r - 1
				continue
			}
			if int(same[i]) < p || covering(runs, f, i+2*p-1) >= 0 {
				continue
			}
			r, spent := f.run(i, p)
			budget -= spent
			if r != nil && !overlaps(runs, f, i, i+r.count*p) {
				runs = append(runs, r)
				i += r.count*p - 1
				continue
			}
			if r == nil && f.failReg && f.lastFail > 0 {
				// A value defined before i reaches position lastFail: no
				// segment may start from i to there.
				i += f.lastFail
			}
		}
	}
	sort.Slice(runs, func(a, b int) bool { return f.tok(runs[a].start) < f.tok(runs[b].start) })
	return runs
}

// shapeOf hashes what two tokens must share to match.
func (f *regionFinder) shapeOf(t regionTok) uint64 {
	if t.in == nil {
		return fnvMix(0xb10c, uint64(t.t.Kind)<<32|uint64(t.t.Status))
	}
	in := t.in
	h := uint64(in.Op)
	mix := func(v uint64) { h = fnvMix(h, v) }
	mix(uint64(f.u.Width(in.Dst)))
	if in.Op != sir.OpConst {
		mix(in.Imm)
	}
	if !steppedBits(f.u, in) { // a flag's bit in a packed vector may step
		mix(uint64(in.Lo))
	}
	mix(uint64(in.Size))
	if in.Op.NumArgs() > 0 {
		mix(uint64(f.u.Width(in.A)))
	}
	if in.Op.IsMem() {
		mix(uint64(in.Addr.Stride))
		mix(uint64(in.Addr.Count))
	}
	if ev := in.Ev; ev != nil {
		mix(uint64(ev.Kind))
		mix(uint64(ev.Format))
		mix(uint64(ev.Level))
		for _, a := range ev.Args {
			mix(uint64(a.Width))
			mix(uint64(len(a.Words)))
		}
	}
	return h
}

// regsRead lists the registers token t reads.
func (f *regionFinder) regsRead(t regionTok, buf []sir.Reg) []sir.Reg {
	if t.in != nil {
		return t.in.Uses(buf)
	}
	if t.t.Kind == sir.TermBranch {
		buf = append(buf, t.t.Cond)
	}
	return buf
}

// absOf is the state byte a memory operand addresses (its first element).
func (f *regionFinder) absOf(in *sir.Inst) (int64, bool) { return stateByte(f.l, in) }

// run checks the run of period p at token i; it returns it, or nil, and
// the work spent.
func (f *regionFinder) run(i, p int) (*regionRun, int) {
	toks := f.toks
	n := len(toks)
	work := 0
	nregs := len(f.u.Regs)
	// Cheap first: the second segment's shapes.
	f.lastFail, f.failReg = -1, false
	for j := 0; j < p; j++ {
		if f.shape[i+j] != f.shape[i+p+j] {
			f.lastFail = j
			return nil, j + 1
		}
	}
	work = p
	pos0, pos := &f.pos0, &f.pos
	pos0.reset(nregs)
	terms := 0
	for j := 0; j < p; j++ {
		t := toks[i+j]
		if f.blocked[f.oindex[t.b]] {
			return nil, j + 1
		}
		if t.in == nil {
			terms++
			continue
		}
		if t.in.Op.HasDst() {
			pos0.set(t.in.Dst, j)
		}
	}
	if terms == 0 {
		return nil, p
	}
	if cap(f.strides) < p {
		f.strides, f.steps, f.seqs = make([]int64, p), make([]regionStepAt, p), make([]regionStepAt, p)
	}
	if cap(f.bits) < p {
		f.bits = make([]regionStepAt, p)
	}
	strides, steps, seqs, bits := f.strides[:p], f.steps[:p], f.seqs[:p], f.bits[:p]
	clear(strides)
	clear(steps)
	clear(seqs)
	clear(bits)
	count := 1
	var buf0, buf1 []sir.Reg
	for k := 1; i+(k+1)*p <= n; k++ {
		pos.reset(nregs)
		ok := true
		for j := 0; j < p && ok; j++ {
			work++
			ta, tb := toks[i+j], toks[i+k*p+j]
			if f.shape[i+j] != f.shape[i+k*p+j] || (ta.in == nil) != (tb.in == nil) || f.blocked[f.oindex[tb.b]] {
				ok = false
				break
			}
			// Register operands: locals at the same position, or the
			// same invariant register.
			buf0, buf1 = f.regsRead(ta, buf0[:0]), f.regsRead(tb, buf1[:0])
			if len(buf0) != len(buf1) {
				ok = false
				break
			}
			for x := range buf0 {
				ja, la := pos0.get(buf0[x])
				jb, lb := pos.get(buf1[x])
				if la != lb || la && ja >= j || la && ja != jb || !la && buf0[x] != buf1[x] {
					ok = false
					f.failReg = !la && !lb
					break
				}
			}
			if !ok {
				break
			}
			if ta.in == nil {
				ok = f.sameEnd(ta.t, tb.t, i, p, k)
				continue
			}
			a, b := ta.in, tb.in
			if a.Op != b.Op || a.Size != b.Size || a.Op != sir.OpConst && a.Imm != b.Imm {
				ok = false
				break
			}
			if steppedBits(f.u, a) && (bits[j].ok || k == 1 && a.Lo != b.Lo) {
				// The field's bit position from segment 0's byte steps
				// (a flag per instance in a packed vector): the byte
				// moves with it, at run time.
				xa, oka := f.absOf(a)
				xb, okb := f.absOf(b)
				bit := 8*(xb-xa) + int64(b.Lo)
				if k == 1 {
					bits[j] = regionStepAt{true, uint64(a.Lo), uint64(bit - int64(a.Lo))}
				}
				if !oka || !okb || bit != int64(a.Lo)+int64(k)*int64(bits[j].by) {
					ok = false
					break
				}
				if ok && b.Op.HasDst() {
					pos.set(b.Dst, j)
				}
				continue
			}
			if a.Lo != b.Lo {
				ok = false
				break
			}
			switch {
			case a.Op == sir.OpConst && a.Imm != b.Imm || steps[j].ok:
				w := f.u.Width(a.Dst)
				if k == 1 {
					steps[j] = regionStepAt{true, a.Imm, (b.Imm - a.Imm) & sir.Mask(w)}
				}
				ok = w <= 64 && b.Imm == (steps[j].from+uint64(k)*steps[j].by)&sir.Mask(w)
			case a.Op.IsMem():
				xa, oka := f.absOf(a)
				xb, okb := f.absOf(b)
				d := xb - xa
				if k == 1 {
					strides[j] = d
				}
				ok = oka && okb && d == int64(k)*strides[j] && a.Addr.Stride == b.Addr.Stride && a.Addr.Count == b.Addr.Count
			case a.Op == sir.OpEvent:
				ea, eb := a.Ev, b.Ev
				ok = ea.Kind == eb.Kind && ea.Format == eb.Format && ea.Level == eb.Level && len(ea.Args) == len(eb.Args)
				for x := 0; ok && x < len(ea.Args); x++ {
					ok = ea.Args[x].Width == eb.Args[x].Width && ea.Args[x].Signed == eb.Args[x].Signed
				}
				if ok && (ea.Seq != eb.Seq || seqs[j].ok) {
					if k == 1 {
						seqs[j] = regionStepAt{true, uint64(ea.Seq), uint64(eb.Seq-ea.Seq) & sir.Mask(32)}
					}
					ok = uint64(eb.Seq) == (seqs[j].from+uint64(k)*seqs[j].by)&sir.Mask(32)
				}
			}
			if ok && b.Op.HasDst() {
				pos.set(b.Dst, j)
			}
		}
		if !ok && k == 1 {
			f.lastFail = work - 1 - p
		}
		if !ok {
			break
		}
		count = k + 1
	}
	if count < 2 || int64(count*p) < regionMinRun.Load() {
		return nil, work
	}
	end := i + count*p
	// Registers defined in the run are defined and read in one segment;
	// every block starting inside the run is entered from its own segment.
	// Per register, for this try (stamped: nothing is cleared): the
	// segment defining it, its definitions and reads in the run, and its
	// state as a flag (a finish request, say, that segments only set, all
	// to one constant, and nothing in the run reads: several may set it,
	// the last setting wins either way): 1 candidate, 2 not a flag.
	if len(f.regStamp) < nregs {
		f.regStamp, f.segOf, f.nDef, f.nUse = make([]int32, nregs), make([]int32, nregs), make([]int32, nregs), make([]int32, nregs)
		f.flagState, f.flagVal = make([]int32, nregs), make([]uint64, nregs)
	}
	f.stamp++
	touch := func(r sir.Reg) bool {
		if r <= 0 || int(r) >= nregs {
			return false
		}
		if f.regStamp[r] != f.stamp {
			f.regStamp[r] = f.stamp
			f.segOf[r], f.nDef[r], f.nUse[r], f.flagState[r] = -1, 0, 0, 0
		}
		return true
	}
	for t := i; t < end; t++ {
		work++
		if in := toks[t].in; in != nil && in.Op.HasDst() && touch(in.Dst) {
			r := in.Dst
			switch {
			case f.flagState[r] == 0 && in.Op == sir.OpConst:
				f.flagState[r], f.flagVal[r] = 1, in.Imm
			case f.flagState[r] == 1 && in.Op == sir.OpConst && in.Imm == f.flagVal[r]:
			default:
				f.flagState[r] = 2
			}
		}
		for _, r := range f.regsRead(toks[t], buf0[:0]) {
			if touch(r) {
				f.flagState[r] = 2
				f.nUse[r]++
			}
		}
	}
	for t := i; t < end; t++ {
		tk := toks[t]
		s := int32((t - i) / p)
		if in := tk.in; in != nil && in.Op.HasDst() && touch(in.Dst) && f.flagState[in.Dst] != 1 {
			r := in.Dst
			if f.segOf[r] >= 0 && f.segOf[r] != s {
				return nil, work
			}
			f.segOf[r] = s
			f.nDef[r]++
		}
	}
	var reload []*sir.Inst
	for t := i; t < end; t++ {
		tk := toks[t]
		s := (t - i) / p
		for _, r := range f.regsRead(tk, buf0[:0]) {
			if touch(r) && f.segOf[r] >= 0 && int(f.segOf[r]) != s {
				return nil, work
			}
		}
		if t > i && f.first[tk.b] == t {
			for _, pb := range f.preds[tk.b] {
				if f.oindex[pb] < 0 {
					continue
				}
				pt := f.first[pb] + len(f.u.Blocks[pb].Insts) // its end token
				ps := (pt - i) / p
				if pt >= i && pt < end && (ps == s || ps == s-1 && (t-i)%p == 0) {
					continue // its own segment, or the one before (a segment's start)
				}
				return nil, work
			}
		}
		if in := tk.in; in != nil && in.Op.HasDst() && touch(in.Dst) && f.segOf[in.Dst] >= 0 {
			// Defined in the run: all its definitions and reads are there,
			// but for a load of the last segment read after the run,
			// which the code after the loop loads again.
			r := in.Dst
			if f.defs[r] == f.nDef[r] && f.uses[r] != f.nUse[r] && s == count-1 && f.reloadable(t, end) {
				reload = append(reload, in)
				continue
			}
			if f.defs[r] != f.nDef[r] || f.uses[r] != f.nUse[r] {
				return nil, work
			}
		}
	}
	r := &regionRun{count: count, base: map[*sir.Inst]int{}, steps: map[*sir.Inst]*regionStep{},
		stepRegs: map[sir.Reg]*regionStep{}, seqs: map[*sir.Inst]*regionStep{}, bits: map[*sir.Inst]*regionStep{}}
	r.start = f.at(i)
	r.segEnd = f.at(i + p)
	r.end = f.at(end)
	r.reload = reload
	for j := 0; j < p; j++ {
		in := toks[i+j].in
		switch {
		case in == nil:
		case in.Op.IsMem() && strides[j] != 0:
			bi := -1
			for x, s := range r.strides {
				if s == strides[j] {
					bi = x
				}
			}
			if bi < 0 {
				if len(r.strides) == len(regionBases) {
					return nil, work
				}
				bi = len(r.strides)
				r.strides = append(r.strides, strides[j])
			}
			r.base[in] = bi
		case steps[j].ok:
			if in.Op != sir.OpConst || f.defs[in.Dst] != 1 {
				return nil, work
			}
			st := &regionStep{from: steps[j].from, by: steps[j].by, w: f.u.Width(in.Dst)}
			r.steps[in], r.stepRegs[in.Dst] = st, st
			r.all = append(r.all, st)
		case seqs[j].ok:
			st := &regionStep{from: seqs[j].from, by: seqs[j].by, w: 32}
			r.seqs[in] = st
			r.all = append(r.all, st)
		}
		if in != nil && bits[j].ok {
			// The bit offset ends up in [0, 2^31): masks to 32 bits.
			last := int64(bits[j].from) + int64(count-1)*int64(int32(bits[j].by))
			if last < 0 || last >= 1<<31 {
				return nil, work
			}
			for k := 0; k < count; k++ {
				if lo := int64(bits[j].from) + int64(k)*int64(int32(bits[j].by)); lo%8+int64(bitsWidth(f.u, in)) > 8 {
					return nil, work
				}
			}
			st := &regionStep{from: bits[j].from, by: bits[j].by & sir.Mask(32), w: 32}
			r.bits[in] = st
			r.all = append(r.all, st)
		}
	}
	if len(r.strides) == 0 || len(r.all) > regionMaxSteps {
		return nil, work
	}
	if span := int64(count) * r.strides[0]; span >= 1<<31 || span <= -(1<<31) {
		return nil, work
	}
	return r, work
}

// sameEnd reports whether block end b of segment k matches a of segment 0
// (run at token i, period p): the same targets, position for position in
// their own segment (the next segment's start included) or the same block
// outside.
func (f *regionFinder) sameEnd(a, b *sir.Term, i, p, k int) bool {
	if a.Kind != b.Kind || a.Status != b.Status {
		return false
	}
	var ba, bb [2]sir.BlockID
	sa, sb := a.Succs(ba[:0]), b.Succs(bb[:0])
	if len(sa) != len(sb) {
		return false
	}
	for x := range sa {
		ta, tb := f.first[sa[x]], f.first[sb[x]]
		if ta < 0 || tb < 0 {
			return false
		}
		if ta > i && ta <= i+p {
			if tb != ta+k*p {
				return false
			}
			continue
		}
		if sa[x] != sb[x] {
			return false
		}
	}
	return true
}

// at is token t's place.
func (f *regionFinder) at(t int) tokPos {
	if t >= len(f.toks) {
		return tokPos{oi: len(f.order)}
	}
	tk := f.toks[t]
	return tokPos{oi: f.oindex[tk.b], i: t - f.first[tk.b]}
}

// regionMinRun is the fewest tokens a region run must span.
var regionMinRun = newIntKnob(1024)

// SetRegionMinRun sets the fewest instructions and block ends a region
// run must span (tests set small values) and returns a function that
// restores the previous value.
func SetRegionMinRun(n int) (restore func()) {
	return regionMinRun.set(int64(n))
}

// noRegions turns region runs off (tests compare with and without).
var noRegions boolKnob

// SetRegions turns the looping of region runs on or off (on by default)
// and returns a function that restores the previous setting.
func SetRegions(on bool) (restore func()) {
	return noRegions.set(!on)
}

// regionRuns counts the region runs lowered as loops in this process,
// regionSegments the segments (instances) they loop over.
var regionRuns, regionSegments atomic.Int64

// RegionSegments is how many segments (instances) the region runs
// lowered as loops in this process cover.
func RegionSegments() int64 { return regionSegments.Load() }

// RegionRuns is how many region runs the native backend has lowered as
// loops in this process.
func RegionRuns() int64 { return regionRuns.Load() }

// regionInit starts region run r: the bases at RBX, the stepped values at
// segment 0's; it returns the loop's head, bound here.
func (x *lowerer) regionInit(r *regionRun) amd64.Label {
	a := x.a
	for i := range r.strides {
		a.MovRegReg(regionBases[i], base, 64)
	}
	for _, st := range r.all {
		x.setSlot(st.slot, st.from)
	}
	regionRuns.Add(1)
	regionSegments.Add(int64(r.count))
	top := a.NewLabel()
	a.Bind(top)
	x.flagsOK = false
	return top
}

// regionBack ends segment 0 of region run r: the bases and stepped values
// advance, and the loop goes round until the first base has moved count
// strides.
func (x *lowerer) regionBack(r *regionRun, top amd64.Label) {
	a := x.a
	for i, s := range r.strides {
		if fits32(s) {
			a.AluRegImm(amd64.Add, regionBases[i], s, 64)
		} else {
			a.MovRegImm(rA, s, 64)
			a.AluRegReg(amd64.Add, regionBases[i], rA, 64)
		}
	}
	for _, st := range r.all {
		a.MovRegMem(rA, x.slotN(st.slot), 64)
		if fits32(int64(st.by)) {
			a.AluRegImm(amd64.Add, rA, int64(st.by), 64)
		} else {
			a.MovRegImm(rC, int64(st.by), 64)
			a.AluRegReg(amd64.Add, rA, rC, 64)
		}
		x.mask(rA, st.w)
		a.MovMemReg(x.slotN(st.slot), rA, 64)
	}
	a.Lea(rA, amd64.M(base, int32(int64(r.count)*r.strides[0])), 64)
	a.AluRegReg(amd64.Cmp, regionBases[0], rA, 64)
	if r.strides[0] > 0 {
		a.Jcc(amd64.CondB, top)
	} else {
		a.Jcc(amd64.CondA, top)
	}
	x.flagsOK = false
}

// setSlot stores v in arena slot i (clobbers RAX).
func (x *lowerer) setSlot(i int, v uint64) {
	if fits32(int64(v)) {
		x.a.MovMemImm(x.slotN(i), int64(v), 64)
		return
	}
	x.a.MovRegImm(rA, int64(v), 64)
	x.a.MovMemReg(x.slotN(i), rA, 64)
}

// regionSeq is the stepped sequence number of event in, if it has one.
func (x *lowerer) regionSeq(in *sir.Inst) *regionStep {
	if x.region == nil {
		return nil
	}
	return x.region.seqs[in]
}

// steppedBits reports whether in is an access whose bit offset may step
// from segment to segment: a static loadbits or storebits of at most 8
// bits (run checks that each segment's field lies in one byte).
func steppedBits(u *sir.Unit, in *sir.Inst) bool {
	switch in.Op {
	case sir.OpLoadBits:
		return u.Width(in.Dst) <= 8 && !in.Addr.Dynamic()
	case sir.OpStoreBits:
		return u.Width(in.A) <= 8 && !in.Addr.Dynamic()
	}
	return false
}

// bitsWidth is the width of the field a loadbits or storebits accesses.
func bitsWidth(u *sir.Unit, in *sir.Inst) int {
	if in.Op == sir.OpStoreBits {
		return u.Width(in.A)
	}
	return u.Width(in.Dst)
}

// regionBits lowers single-bit access in of a region whose bit offset
// steps (its value in st's slot): the byte is picked at run time, and the
// bit rotated to the bottom of it and back for a store.
func (x *lowerer) regionBits(in *sir.Inst, st *regionStep) error {
	a := x.a
	r := x.region
	h := x.l.Offset(in.Addr.Home)
	if h < 0 || in.Addr.Home == sir.RingHome {
		return fmt.Errorf("jit: unit %q: layout has no offset for %s", x.u.Name, in.Addr.Home)
	}
	off := h + in.Addr.Offset
	for k := 0; k < r.count; k++ {
		b := off + int((st.from+uint64(k)*st.by)&sir.Mask(32))/8
		if b < 0 || b >= x.arenaOff {
			return fmt.Errorf("jit: unit %q: bit access at byte %d outside the state of %d bytes", x.u.Name, b, x.arenaOff)
		}
		x.minState = max(x.minState, b+1)
		if in.Op == sir.OpStoreBits {
			x.stores = append(x.stores, [2]int{b, b + 1})
		}
	}
	a.MovRegMem(rC, x.slotN(st.slot), 64) // the bit offset
	a.MovRegReg(rD, rC, 64)
	a.ShiftRegImm(amd64.Shr, rD, 3, 64)
	a.AluRegImm(amd64.And, rC, 7, 32)
	m := amd64.MI(base, rD, 1, int32(off))
	a.MovzxMem(rA, m, 32, 8)
	mask := int64(sir.Mask(bitsWidth(x.u, in)))
	if in.Op == sir.OpLoadBits {
		a.ShiftRegCL(amd64.Shr, rA, 32)
		a.AluRegImm(amd64.And, rA, mask, 32)
		x.st(in.Dst, rA)
		return nil
	}
	a.ShiftRegCL(amd64.Ror, rA, 8)
	a.AluRegImm(amd64.And, rA, 0xFF&^mask, 32)
	switch l := x.at(in.A); l.kind {
	case locReg:
		a.AluRegReg(amd64.Or, rA, l.reg, 32)
	case locSlot:
		a.AluRegMem(amd64.Or, rA, x.slotN(l.slot), 32)
	case locConst:
		a.AluRegImm(amd64.Or, rA, int64(l.imm)&mask, 32)
	}
	a.ShiftRegCL(amd64.Rol, rA, 8)
	a.MovMemReg(m, rA, 8)
	return nil
}

// reloadable reports whether the token at t, in the last segment of a run
// ending at end, is a static load that may be repeated after the run: no
// store up to the run's end may write its bytes.
func (f *regionFinder) reloadable(t, end int) bool {
	in := f.toks[t].in
	if in.Op != sir.OpLoad || in.Addr.Dynamic() || in.Addr.Home == sir.RingHome {
		return false
	}
	lo, _ := f.absOf(in)
	hi := lo + int64(in.Size)
	for u := t + 1; u < end; u++ {
		o := f.toks[u].in
		if o == nil || !o.Op.IsStore() {
			continue
		}
		if o.Addr.Home == in.Addr.Home && o.Addr.Dynamic() {
			return false
		}
		slo, ok := f.absOf(o)
		if !ok {
			continue // the ring: no variable lies there
		}
		shi := slo + int64(o.Size)
		if o.Op == sir.OpStoreBits {
			slo += int64(o.Lo / 8)
			shi = slo + int64((o.Lo%8+f.u.Width(o.A)+7)/8)
		}
		if slo < hi && lo < shi {
			return false
		}
	}
	return true
}

// tok is the token at place t.
func (f *regionFinder) tok(t tokPos) int {
	if t.oi >= len(f.order) {
		return len(f.toks)
	}
	return f.first[f.order[t.oi]] + t.i
}

// covering returns the end token of the run of runs holding token t, -1
// when none does.
func covering(runs []*regionRun, f *regionFinder, t int) int {
	for _, r := range runs {
		if lo, hi := f.tok(r.start), f.tok(r.end); t >= lo && t < hi {
			return hi
		}
	}
	return -1
}

// overlaps reports whether tokens [lo, hi) meet a run of runs.
func overlaps(runs []*regionRun, f *regionFinder, lo, hi int) bool {
	for _, r := range runs {
		if f.tok(r.start) < hi && lo < f.tok(r.end) {
			return true
		}
	}
	return false
}

// regionScopes places each instruction of u in the runs (found on layout
// order), for opt.Reuse: nil without runs.
func regionScopes(u *sir.Unit, order []sir.BlockID, runs []*regionRun) func(sir.BlockID, int) opt.Scope {
	if len(runs) == 0 {
		return nil
	}
	first := make([]int, len(u.Blocks)) // each laid-out block's first token
	for i := range first {
		first[i] = -1
	}
	n := 0
	for _, id := range order {
		first[id] = n
		n += len(u.Blocks[id].Insts) + 1
	}
	tok := func(t tokPos) int {
		if t.oi >= len(order) {
			return n
		}
		return first[order[t.oi]] + t.i
	}
	type span struct{ lo, seg, count int }
	spans := make([]span, 0, len(runs))
	for _, r := range runs {
		lo := tok(r.start)
		spans = append(spans, span{lo, tok(r.segEnd) - lo, r.count})
	}
	return func(b sir.BlockID, i int) opt.Scope {
		if int(b) >= len(first) || first[b] < 0 {
			return opt.Scope{}
		}
		t := first[b] + i
		for k, s := range spans {
			if t >= s.lo && t < s.lo+s.seg*s.count {
				return opt.Scope{Run: k + 1, Seg: (t - s.lo) / s.seg, Pos: (t - s.lo) % s.seg}
			}
		}
		return opt.Scope{}
	}
}

// regionsCovered is how many segments runs loop over.
func regionsCovered(runs []*regionRun) int {
	n := 0
	for _, r := range runs {
		n += r.count
	}
	return n
}
