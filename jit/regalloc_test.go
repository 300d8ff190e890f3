//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/jit/amd64"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

// regSets are the machine registers the differential tests allocate from:
// all of them, a few, one, and none (everything in arena slots).
var regSets = map[string][]amd64.Reg{
	"all":  allocatable,
	"two":  {amd64.RSI, amd64.R15},
	"one":  {amd64.RBP},
	"none": {},
}

// instPos is the use position of instruction k of block b (its def is one
// later), as allocate numbers them.
func instPos(al *allocation, b sir.BlockID, k int) int32 { return al.bstart[b] + 1 + 2*int32(k) }

// liveSets is the textbook liveness dataflow over the reachable blocks
// (iterated to a fixed point), independent of allocate's sparse walk.
func liveSets(u *sir.Unit, reach []bool) (in, out []map[sir.Reg]bool) {
	n := len(u.Blocks)
	in, out = make([]map[sir.Reg]bool, n), make([]map[sir.Reg]bool, n)
	use, def := make([]map[sir.Reg]bool, n), make([]map[sir.Reg]bool, n)
	for bi, b := range u.Blocks {
		in[bi], out[bi], use[bi], def[bi] = map[sir.Reg]bool{}, map[sir.Reg]bool{}, map[sir.Reg]bool{}, map[sir.Reg]bool{}
		var buf []sir.Reg
		for i := range b.Insts {
			for _, r := range b.Insts[i].Uses(buf[:0]) {
				if !def[bi][r] {
					use[bi][r] = true
				}
			}
			if b.Insts[i].Op.HasDst() {
				def[bi][b.Insts[i].Dst] = true
			}
		}
		if b.Term.Kind == sir.TermBranch && !def[bi][b.Term.Cond] {
			use[bi][b.Term.Cond] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for bi := n - 1; bi >= 0; bi-- {
			if !reach[bi] {
				continue
			}
			var buf [2]sir.BlockID
			for _, s := range u.Blocks[bi].Term.Succs(buf[:0]) {
				for r := range in[s] {
					if !out[bi][r] {
						out[bi][r], changed = true, true
					}
				}
			}
			for r := range use[bi] {
				if !in[bi][r] {
					in[bi][r], changed = true, true
				}
			}
			for r := range out[bi] {
				if !def[bi][r] && !in[bi][r] {
					in[bi][r], changed = true, true
				}
			}
		}
	}
	return in, out
}

// checkAlloc verifies al for u: every read register has a location;
// intervals hold every def and use, and every block start (end) where the
// register is live in (out) by liveSets; registers whose intervals overlap
// never share a machine register or a slot; only allowed registers are
// used; the arena holds every slot and is no bigger than before.
func checkAlloc(t *testing.T, u *sir.Unit, al *allocation, regs []amd64.Reg) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\n%s", fmt.Sprintf(format, args...), u)
	}
	ok := map[amd64.Reg]bool{}
	for _, m := range regs {
		ok[m] = true
	}
	iv := map[sir.Reg]interval{}
	for _, v := range al.ivs {
		iv[v.r] = v
	}
	within := func(r sir.Reg, p int32, what string) {
		t.Helper()
		l := al.locs[r]
		if l.kind == locConst {
			return
		}
		if l.kind == locNone {
			fail("%s: %s at %d has no location", r, what, p)
		}
		v, has := iv[r]
		if !has || p < v.start || p > v.end {
			fail("%s: %s at %d outside its interval [%d, %d]", r, what, p, v.start, v.end)
		}
	}
	reach := u.Reachable()
	in, out := liveSets(u, reach)
	var buf []sir.Reg
	for bi, b := range u.Blocks {
		if !reach[bi] {
			continue
		}
		for k := range b.Insts {
			p := instPos(al, sir.BlockID(bi), k)
			for _, r := range b.Insts[k].Uses(buf[:0]) {
				within(r, p, "use")
			}
			if d := b.Insts[k].Dst; b.Insts[k].Op.HasDst() && al.locs[d].kind != locNone {
				within(d, p+1, "def")
			}
		}
		if b.Term.Kind == sir.TermBranch {
			within(b.Term.Cond, al.termPos[bi], "branch")
		}
		for r := range in[bi] {
			within(r, al.bstart[bi], fmt.Sprintf("live into b%d", bi))
		}
		for r := range out[bi] {
			within(r, al.bend[bi], fmt.Sprintf("live out of b%d", bi))
		}
	}
	for i, a := range al.ivs {
		la := al.locs[a.r]
		switch la.kind {
		case locReg:
			if !ok[la.reg] {
				fail("%s in %s, not an allocatable register", a.r, la.reg)
			}
		case locSlot:
			if la.slot < 1 || la.slot >= al.slots {
				fail("%s in slot %d of %d", a.r, la.slot, al.slots)
			}
		default:
			fail("%s has an interval but location kind %d", a.r, la.kind)
		}
		for _, b := range al.ivs[i+1:] {
			if b.start > a.end {
				break // sorted by start
			}
			if lb := al.locs[b.r]; lb.kind == la.kind && lb.reg == la.reg && lb.slot == la.slot {
				fail("%s [%d, %d] and %s [%d, %d] overlap and share %+v", a.r, a.start, a.end, b.r, b.start, b.end, la)
			}
		}
	}
	if al.slots < 1 || al.slots > max(1, len(u.Regs)) {
		fail("%d arena slots for %d registers", al.slots, len(u.Regs))
	}
}

// diffRegs compiles u with each register set, checks the allocation and
// compares runs on random states with the interpreter.
func diffRegs(t *testing.T, u *sir.Unit, l sir.Layout, size int, rng *rand.Rand, runs int) {
	t.Helper()
	if err := sir.Check(u); err != nil {
		t.Fatalf("bad unit: %v\n%s", err, u)
	}
	fi, err := interp.Compile(u, l, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, regs := range regSets {
		checkAlloc(t, u, allocate(u, regs), regs)
		k, err := Compile(u, l, Options{StateSize: size, regs: regs})
		if err != nil {
			t.Fatalf("%s registers: %v\n%s", name, err, u)
		}
		if k.ArenaSize() > 8*len(u.Regs) || k.ArenaSize() < 8 {
			t.Fatalf("%s registers: arena of %d bytes for %d registers", name, k.ArenaSize(), len(u.Regs))
		}
		for run := 0; run < runs; run++ {
			state := make([]byte, size)
			rng.Read(state)
			if d := diffRun(t, fi, k, state); d != "" {
				t.Fatalf("%s registers, run %d: %s\n%s", name, run, d, u)
			}
		}
		k.Close()
	}
}

// TestAllocIntervals: the hulls of a straight-line unit, and an operand
// dying at an instruction hands its register to the destination.
func TestAllocIntervals(t *testing.T) {
	b := sir.NewBuilder("line")
	x := b.Load(32, 4, sir.Addr{Home: 0, Offset: 0}) // inst 0
	y := b.Load(32, 4, sir.Addr{Home: 0, Offset: 4}) // inst 1
	s := b.Add(x, y)                                 // inst 2: x dies
	c := b.Const(32, 5)                              // inst 3: rematerialised
	d := b.Xor(s, c)                                 // inst 4
	dead := b.Sub(d, y)                              // inst 5: never read
	_ = dead
	b.Store(4, sir.Addr{Home: 0, Offset: 8}, d) // inst 6
	b.Store(4, sir.Addr{Home: 0, Offset: 12}, y)
	b.Return(sir.StatusOK)
	u, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	al := allocate(u, allocatable)
	checkAlloc(t, u, al, allocatable)
	p := func(k int) int32 { return instPos(al, 0, k) }
	want := map[sir.Reg][2]int32{x: {p(0) + 1, p(2)}, y: {p(1) + 1, p(7)}, s: {p(2) + 1, p(4)}, d: {p(4) + 1, p(6)}}
	got := map[sir.Reg][2]int32{}
	for _, v := range al.ivs {
		got[v.r] = [2]int32{v.start, v.end}
	}
	for r, w := range want {
		if got[r] != w {
			t.Errorf("%s: interval %v, want %v", r, got[r], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("intervals %v, want %v", got, want)
	}
	if l := al.locs[c]; l.kind != locConst || l.imm != 5 {
		t.Errorf("const: %+v, want rematerialised 5", l)
	}
	if l := al.locs[dead]; l.kind != locNone {
		t.Errorf("dead: %+v, want no location", l)
	}
	if al.locs[s] != al.locs[x] || al.locs[d] != al.locs[s] {
		t.Errorf("x %+v, s %+v, d %+v: want one register (each dies into the next)", al.locs[x], al.locs[s], al.locs[d])
	}
	if al.slots != 1 {
		t.Errorf("%d slots, want 1 (no spills)", al.slots)
	}
	l, size := sir.PackedLayout([]int{16}, 0)
	diffRegs(t, u, l, size, rand.New(rand.NewSource(1)), 20)
}

// loopUnit: n, read only at the loop head, must survive the body, whose
// temporaries compete for the registers; acc and i are carried around the
// back edge.
func loopUnit(temps int) *sir.Unit {
	b := sir.NewBuilder("loop")
	n := b.Load(8, 1, sir.Addr{Home: 0, Offset: 0})
	i := b.Const(8, 0)
	acc := b.Load(64, 8, sir.Addr{Home: 0, Offset: 8})
	head, body, done := b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(head)
	b.SetBlock(head)
	b.Branch(b.ULt(i, n), body, done)
	b.SetBlock(body)
	var ts []sir.Reg
	for k := 0; k < temps; k++ {
		ts = append(ts, b.Load(64, 8, sir.Addr{Home: 0, Offset: 16, Index: b.ZExt(64, i), Stride: 8, Count: 3}))
	}
	for _, v := range ts {
		b.OpTo(acc, sir.OpXor, acc, b.Mul(v, acc), sir.NoReg)
	}
	b.OpTo(i, sir.OpAdd, i, b.Const(8, 1), sir.NoReg)
	b.Jump(head)
	b.SetBlock(done)
	b.Store(8, sir.Addr{Home: 0, Offset: 8}, acc)
	b.Return(sir.StatusOK)
	u, err := b.Finish()
	if err != nil {
		panic(err)
	}
	return u
}

// TestAllocLoop: a value live into a loop header stays allocated to the
// end of the loop, under register pressure and without.
func TestAllocLoop(t *testing.T) {
	for _, temps := range []int{1, 4, 16} {
		u := loopUnit(temps)
		al := allocate(u, allocatable)
		checkAlloc(t, u, al, allocatable)
		n := u.Blocks[0].Insts[0].Dst
		body := u.Blocks[0].Term.Then + 1 // head, body, done were made in order
		var v interval
		for _, x := range al.ivs {
			if x.r == n {
				v = x
			}
		}
		if v.end < al.bend[body] {
			t.Errorf("%d temps: n's interval [%d, %d] ends before the loop body's end %d", temps, v.start, v.end, al.bend[body])
		}
		l, size := sir.PackedLayout([]int{48}, 0)
		rng := rand.New(rand.NewSource(int64(temps)))
		diffRegs(t, u, l, size, rng, 50)
	}
}

// TestAllocPressure: more live values than registers: some are spilled to
// arena slots, the arena grows to hold them (and no more), and the result
// matches the interpreter with every register set.
func TestAllocPressure(t *testing.T) {
	const n = 30
	b := sir.NewBuilder("pressure")
	var vs []sir.Reg
	for i := 0; i < n; i++ {
		vs = append(vs, b.Load(testWidths[i%len(testWidths)], 8, sir.Addr{Home: 0, Offset: 8 * i}))
	}
	// Every value is read again at the end, in reverse order, so all n are
	// live at once.
	acc := b.Const(64, 0)
	for i := n - 1; i >= 0; i-- {
		b.OpTo(acc, sir.OpAdd, acc, b.ZExt(64, vs[i]), sir.NoReg)
		b.Store(8, sir.Addr{Home: 1, Offset: 8 * i}, vs[i])
	}
	b.Store(8, sir.Addr{Home: 1, Offset: 8 * n}, acc)
	b.Return(sir.StatusOK)
	u, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	for name, regs := range regSets {
		al := allocate(u, regs)
		checkAlloc(t, u, al, regs)
		inRegs := 0
		for _, v := range vs {
			if al.locs[v].kind == locReg {
				inRegs++
			}
		}
		if inRegs > len(regs) {
			t.Errorf("%s: %d of the %d live values in %d registers", name, inRegs, n, len(regs))
		}
		// n values, acc and a zext temporary live at once, less those in
		// registers.
		if spilled := al.slots - 1; spilled < n+2-len(regs) || spilled > n+2 {
			t.Errorf("%s: %d spill slots for %d live values and %d registers", name, spilled, n+2, len(regs))
		}
	}
	l, size := sir.PackedLayout([]int{8 * n, 8 * (n + 1)}, 0)
	diffRegs(t, u, l, size, rand.New(rand.NewSource(2)), 50)
}

// TestAllocFixedRegisterOps: the ops with implicit registers (div, idiv,
// mul, imul, shifts by CL, shld/shrd, bsr, popcnt) and the scratch-heavy
// sequences (dynamic and bit-field memory, events, adc/sbb) run while
// values live in every allocatable register; each value is stored
// afterwards, so a clobber shows.
func TestAllocFixedRegisterOps(t *testing.T) {
	ops := []sir.Op{sir.OpDivU, sir.OpDivS, sir.OpRemU, sir.OpRemS, sir.OpMulHiU, sir.OpMulHiS, sir.OpMul,
		sir.OpShl, sir.OpLShr, sir.OpAShr, sir.OpFShl, sir.OpFShr, sir.OpClz, sir.OpPopCnt, sir.OpAddCO,
		sir.OpSubBO, sir.OpAddC, sir.OpSubB, sir.OpInsert, sir.OpLoadBits, sir.OpStoreBits, sir.OpEvent}
	rng := rand.New(rand.NewSource(3))
	for _, op := range ops {
		for _, w := range []int{8, 32, 33, 64} {
			ring := 0
			if op == sir.OpEvent {
				ring = 256
			}
			l, size := sir.PackedLayout([]int{8 * 16, 8 * 48}, ring)
			b := sir.NewBuilder(op.String())
			var live []sir.Reg
			for i := 0; i < len(allocatable)+2; i++ {
				live = append(live, b.Load(64, 8, sir.Addr{Home: 0, Offset: 8 * i}))
			}
			ld := func(w, off int) sir.Reg { return b.Load(w, 8, sir.Addr{Home: 1, Offset: off}) }
			x, y, c := ld(w, 0), ld(w, 8), ld(1, 16)
			var r sir.Reg
			switch op {
			case sir.OpAddCO, sir.OpSubBO, sir.OpAddC, sir.OpSubB:
				r = b.Op(op, x, y, c)
			case sir.OpFShl, sir.OpFShr:
				r = b.Op(op, x, y, ld(8, 24))
			case sir.OpShl, sir.OpLShr, sir.OpAShr:
				r = b.Op(op, x, ld(8, 24))
			case sir.OpClz, sir.OpPopCnt:
				r = b.Conv(op, 8, x)
			case sir.OpInsert:
				r = b.Insert(x, ld(min(w, 5), 8), w-min(w, 5))
			case sir.OpLoadBits:
				r = b.LoadBits(min(w, 57), sir.Addr{Home: 1, Offset: 32, Index: ld(3, 24), Stride: 3, Count: 5}, 7)
			case sir.OpStoreBits:
				b.StoreBits(sir.Addr{Home: 1, Offset: 32, Index: ld(3, 24), Stride: 3, Count: 5}, 5, b.Trunc(min(w, 59), x))
			case sir.OpEvent:
				b.Event(&sir.Event{Kind: sir.EvDisplay, Args: []sir.EventArg{{Words: []sir.Reg{x}, Width: w}, {Words: live[:2], Width: 128}}})
			default:
				r = b.Op(op, x, y)
			}
			if r != sir.NoReg {
				b.Store(8, sir.Addr{Home: 1, Offset: 8 * 20}, b.ZExt(64, r))
			}
			for i, v := range live {
				b.Store(8, sir.Addr{Home: 1, Offset: 8 * (i + 2*len(allocatable))}, v)
			}
			b.Return(sir.StatusOK)
			u, err := b.Finish()
			if err != nil {
				t.Fatalf("%s w=%d: %v", op, w, err)
			}
			al := allocate(u, allocatable)
			for _, v := range live[:len(allocatable)-4] {
				if al.locs[v].kind != locReg {
					t.Fatalf("%s w=%d: %s not in a register (%+v): the test would not test", op, w, v, al.locs[v])
				}
			}
			diffRegs(t, u, l, size, rng, 30)
		}
	}
}

// TestAllocRandom: the random units of random_test.go (straight, branching,
// with events) with every register set, so spills and slot sharing are
// exercised as much as registers.
func TestAllocRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	units := 400
	if testing.Short() {
		units = 80
	}
	for n := 0; n < units; n++ {
		ringCap := []int{0, 64, 1024}[rng.Intn(3)]
		l, size := sir.PackedLayout(homeSizes, ringCap)
		u := genUnitEv(rng, n%3 != 0, n%2 == 0)
		diffRegs(t, u, l, size, rng, 3)
	}
}

// genLoopUnit builds a random unit of segments, diamonds and counted loops
// (nested two deep). Loop bodies reassign registers of the enclosing scope,
// so values flow around back edges, and sometimes leave early; bounds are
// read only at loop heads. Blocks are created in a random order, so block
// numbers and layout (reverse postorder) differ.
func genLoopUnit(rng *rand.Rand) *sir.Unit {
	g := &rgen{rng: rng, u: sir.NewUnit("loops")}
	g.newBlock()
	g.region(&g.pool, 0)
	for _, r := range g.pool {
		if rng.Intn(2) == 0 {
			g.emit(sir.Inst{Op: sir.OpStore, A: r, Size: 8, Addr: sir.Addr{Home: 2, Offset: 8 * rng.Intn(12)}})
		}
	}
	g.blk.Term = sir.Term{Kind: sir.TermReturn, Status: sir.StatusOK}
	return g.u
}

func (g *rgen) region(scope *[]sir.Reg, depth int) {
	for seg := 0; seg < 1+g.rng.Intn(3); seg++ {
		for i := 0; i < 1+g.rng.Intn(6); i++ {
			g.inst(scope)
		}
		switch g.rng.Intn(3) {
		case 0:
			if depth < 2 {
				g.loop(scope, depth)
			}
		case 1:
			g.diamond(scope, depth)
		}
	}
}

// blocks returns n new blocks, created in a random order.
func (g *rgen) blocks(n int) []sir.BlockID {
	ids := make([]sir.BlockID, n)
	for _, i := range g.rng.Perm(n) {
		ids[i] = g.u.NewBlock()
	}
	return ids
}

func (g *rgen) setBlock(id sir.BlockID) { g.blk = g.u.Blocks[id] }

func (g *rgen) diamond(scope *[]sir.Reg, depth int) {
	cond := g.operand(*scope, 1)
	from := g.blk
	ids := g.blocks(3)
	then, els, join := ids[0], ids[1], ids[2]
	from.Term = sir.Term{Kind: sir.TermBranch, Cond: cond, Then: then, Else: els}
	for _, arm := range []sir.BlockID{then, els} {
		g.setBlock(arm)
		s := append([]sir.Reg(nil), *scope...)
		if g.rng.Intn(3) == 0 {
			g.region(&s, depth+1)
		} else {
			for i := 0; i < g.rng.Intn(5); i++ {
				g.inst(&s)
			}
		}
		g.blk.Term = sir.Term{Kind: sir.TermJump, Then: join}
	}
	g.setBlock(join)
}

func (g *rgen) loop(scope *[]sir.Reg, depth int) {
	// The counter and bound are outside scope: the body cannot reassign them.
	i, n := g.u.NewReg(8), g.u.NewReg(8)
	g.emit(sir.Inst{Op: sir.OpConst, Dst: i})
	if g.rng.Intn(2) == 0 {
		g.emit(sir.Inst{Op: sir.OpConst, Dst: n, Imm: uint64(g.rng.Intn(5))})
	} else {
		raw := g.u.NewReg(8)
		g.emit(sir.Inst{Op: sir.OpLoad, Dst: raw, Size: 1, Addr: sir.Addr{Home: 0, Offset: g.rng.Intn(homeSizes[0])}})
		seven := g.u.NewReg(8)
		g.emit(sir.Inst{Op: sir.OpConst, Dst: seven, Imm: 7})
		g.emit(sir.Inst{Op: sir.OpAnd, Dst: n, A: raw, B: seven})
	}
	ids := g.blocks(3)
	head, body, exit := ids[0], ids[1], ids[2]
	g.blk.Term = sir.Term{Kind: sir.TermJump, Then: head}
	g.setBlock(head)
	c := g.u.NewReg(1)
	g.emit(sir.Inst{Op: sir.OpULt, Dst: c, A: i, B: n})
	g.blk.Term = sir.Term{Kind: sir.TermBranch, Cond: c, Then: body, Else: exit}
	g.setBlock(body)
	s := append([]sir.Reg(nil), *scope...)
	g.region(&s, depth+1)
	if g.rng.Intn(4) == 0 { // leave early
		cont := g.u.NewBlock()
		g.blk.Term = sir.Term{Kind: sir.TermBranch, Cond: g.operand(s, 1), Then: exit, Else: cont}
		g.setBlock(cont)
	}
	one := g.u.NewReg(8)
	g.emit(sir.Inst{Op: sir.OpConst, Dst: one, Imm: 1})
	g.emit(sir.Inst{Op: sir.OpAdd, Dst: i, A: i, B: one})
	g.blk.Term = sir.Term{Kind: sir.TermJump, Then: head}
	g.setBlock(exit)
}

// TestAllocRandomLoops: random units with loops, every register set.
func TestAllocRandomLoops(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	units := 600
	if testing.Short() {
		units = 100
	}
	l, size := sir.PackedLayout(homeSizes, 0)
	backs := 0
	for n := 0; n < units; n++ {
		u := genLoopUnit(rng)
		x := &lowerer{u: u, al: allocate(u, allocatable)}
		if x.hasBackEdge() {
			backs++
		}
		diffRegs(t, u, l, size, rng, 4)
	}
	if backs < units/3 {
		t.Fatalf("only %d of %d units loop", backs, units)
	}
}

// TestArenaBounds: a kernel with spills and a loop, its arena placed
// after a gap (Options.ArenaOffset, as for a partition's lane), touches
// no byte outside the state and [ArenaOffset, ArenaOffset+ArenaSize).
func TestArenaBounds(t *testing.T) {
	u := loopUnit(16)
	l, size := sir.PackedLayout([]int{48}, 0)
	fi, err := interp.Compile(u, l, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(7))
	for name, regs := range regSets {
		arenaOff := (size+7)&^7 + 64
		k, err := Compile(u, l, Options{StateSize: size, ArenaOffset: arenaOff, regs: regs})
		if err != nil {
			t.Fatal(err)
		}
		if k.ArenaOffset() != arenaOff || k.Size() != arenaOff+k.ArenaSize() {
			t.Fatalf("%s: arena at %d size %d, buffer %d", name, k.ArenaOffset(), k.ArenaSize(), k.Size())
		}
		if name == "none" && k.ArenaSize() <= 8 {
			t.Fatalf("no registers, yet an arena of %d bytes", k.ArenaSize())
		}
		for run := 0; run < 20; run++ {
			buf := make([]byte, k.Size()+64)
			rng.Read(buf)
			canary := append([]byte(nil), buf...)
			ref := append([]byte(nil), buf[:size]...)
			ws, gs := fi.Run(ref), k.Run(buf)
			if ws != gs || string(ref) != string(buf[:size]) {
				t.Fatalf("%s run %d: status %v/%v or state differs", name, run, gs, ws)
			}
			for i := size; i < len(buf); i++ {
				if (i < arenaOff || i >= k.Size()) && buf[i] != canary[i] {
					t.Fatalf("%s run %d: byte %d written (state %d, arena [%d, %d))", name, run, i, size, arenaOff, k.Size())
				}
			}
		}
		k.Close()
	}
}

// TestBranchOnFlags: a branch on the condition its block's last
// instruction computed branches on the flags (a compare, and, or, xor at
// several widths), whether the condition dies at the branch or is read
// again afterwards.
func TestBranchOnFlags(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	l, size := sir.PackedLayout([]int{32}, 0)
	for _, op := range []sir.Op{sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe, sir.OpAnd, sir.OpOr, sir.OpXor} {
		for _, w := range []int{1, 8, 33, 64} {
			for _, reused := range []bool{false, true} {
				for _, constB := range []bool{false, true} {
					b := sir.NewBuilder(op.String())
					x := b.Load(w, 8, sir.Addr{Home: 0, Offset: 0})
					y := b.Const(w, interesting(rng, w))
					if !constB {
						y = b.Load(w, 8, sir.Addr{Home: 0, Offset: 8})
					}
					if op == sir.OpAnd || op == sir.OpOr || op == sir.OpXor {
						x, y = b.Trunc(1, x), b.Trunc(1, y)
						if w == 1 {
							x, y = b.Load(1, 1, sir.Addr{Home: 0, Offset: 0}), b.Load(1, 1, sir.Addr{Home: 0, Offset: 8})
						}
					}
					c := b.Op(op, x, y)
					then, els, join := b.NewBlock(), b.NewBlock(), b.NewBlock()
					b.Branch(c, then, els)
					for k, blk := range []sir.BlockID{then, els} {
						b.SetBlock(blk)
						b.Store(1, sir.Addr{Home: 0, Offset: 16}, b.Const(8, uint64(k+1)))
						b.Jump(join)
					}
					b.SetBlock(join)
					if reused {
						b.Store(1, sir.Addr{Home: 0, Offset: 24}, c)
					}
					b.Return(sir.StatusOK)
					u, err := b.Finish()
					if err != nil {
						t.Fatal(err)
					}
					diffRegs(t, u, l, size, rng, 40)
				}
			}
		}
	}
}
