//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit

import (
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// A random unit generator (written for jit; sir/opt has its own): a chain of
// straight-line segments and if/else diamonds over a pool of registers
// defined in dominating blocks. Arms reassign pool registers (SIR is not
// SSA) and store to memory, so both paths show in the final state. Memory:
// three homes, static and dynamic (in- and out-of-range) loads, stores and
// bit fields.

var homeSizes = []int{64, 40, 96}

type rgen struct {
	rng  *rand.Rand
	u    *sir.Unit
	blk  *sir.Block
	pool []sir.Reg // registers assigned on every path to the current point
	// events mixes OpEvent into the instructions (event_test.go).
	events bool
}

func (g *rgen) width() int {
	if g.rng.Intn(3) == 0 {
		return 1 + g.rng.Intn(64)
	}
	return testWidths[g.rng.Intn(len(testWidths))]
}

func (g *rgen) emit(in sir.Inst) { g.blk.Insts = append(g.blk.Insts, in) }

// operand returns a register of width w from scope, or a fresh constant.
func (g *rgen) operand(scope []sir.Reg, w int) sir.Reg {
	var c []sir.Reg
	for _, r := range scope {
		if g.u.Width(r) == w {
			c = append(c, r)
		}
	}
	if len(c) > 0 && g.rng.Intn(5) != 0 {
		return c[g.rng.Intn(len(c))]
	}
	r := g.u.NewReg(w)
	g.emit(sir.Inst{Op: sir.OpConst, Dst: r, Imm: interesting(g.rng, w)})
	return r
}

// dst returns the destination of width w: a reassigned scope register or a
// fresh one (added to *scope).
func (g *rgen) dst(scope *[]sir.Reg, w int) sir.Reg {
	if g.rng.Intn(4) == 0 {
		for _, r := range *scope {
			if g.u.Width(r) == w {
				return r
			}
		}
	}
	r := g.u.NewReg(w)
	*scope = append(*scope, r)
	return r
}

// addr picks a home and an access of n bytes, static or dynamic.
func (g *rgen) addr(scope []sir.Reg, n int) sir.Addr {
	h := g.rng.Intn(len(homeSizes))
	hs := homeSizes[h]
	if g.rng.Intn(2) == 0 {
		return sir.Addr{Home: sir.HomeID(h), Offset: g.rng.Intn(hs - n + 1)}
	}
	stride := []int{1, 2, 4, 8, 3, 12}[g.rng.Intn(6)]
	count := 1 + g.rng.Intn((hs-n)/stride+1)
	off := g.rng.Intn(hs - n - (count-1)*stride + 1)
	iw := []int{2, 3, 4, 5, 64}[g.rng.Intn(5)]
	return sir.Addr{Home: sir.HomeID(h), Offset: off, Index: g.operand(scope, iw), Stride: stride, Count: count}
}

var genOps = []sir.Op{sir.OpAdd, sir.OpSub, sir.OpMul, sir.OpMulHiU, sir.OpMulHiS, sir.OpDivU, sir.OpDivS,
	sir.OpRemU, sir.OpRemS, sir.OpAddC, sir.OpAddCO, sir.OpSubB, sir.OpSubBO, sir.OpAnd, sir.OpOr, sir.OpXor,
	sir.OpNot, sir.OpNeg, sir.OpShl, sir.OpLShr, sir.OpAShr, sir.OpFShl, sir.OpFShr, sir.OpEq, sir.OpNe,
	sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe, sir.OpMux, sir.OpZExt, sir.OpSExt, sir.OpTrunc, sir.OpExtract,
	sir.OpInsert, sir.OpPopCnt, sir.OpClz, sir.OpCopy, sir.OpConst,
	sir.OpLoad, sir.OpLoad, sir.OpStore, sir.OpStore, sir.OpLoadBits, sir.OpStoreBits}

func (g *rgen) inst(scope *[]sir.Reg) {
	if g.events && g.rng.Intn(6) == 0 {
		g.event(*scope)
		return
	}
	op := genOps[g.rng.Intn(len(genOps))]
	w := g.width()
	o := func(w int) sir.Reg { return g.operand(*scope, w) }
	in := sir.Inst{Op: op}
	switch op {
	case sir.OpConst:
		in.Imm = interesting(g.rng, w)
	case sir.OpCopy, sir.OpNot, sir.OpNeg:
		in.A = o(w)
	case sir.OpAddC, sir.OpSubB:
		in.A, in.B, in.C = o(w), o(w), o(1)
	case sir.OpAddCO, sir.OpSubBO:
		in.A, in.B, in.C = o(w), o(w), o(1)
		w = 1
	case sir.OpShl, sir.OpLShr, sir.OpAShr:
		in.A, in.B = o(w), o(g.width())
	case sir.OpFShl, sir.OpFShr:
		in.A, in.B, in.C = o(w), o(w), o(g.width())
	case sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe:
		in.A, in.B = o(w), o(w)
		w = 1
	case sir.OpMux:
		in.A, in.B, in.C = o(1), o(w), o(w)
	case sir.OpZExt, sir.OpSExt:
		in.A = o(1 + g.rng.Intn(w))
	case sir.OpTrunc:
		in.A = o(w + g.rng.Intn(65-w))
	case sir.OpExtract:
		aw := w + g.rng.Intn(65-w)
		in.A, in.Lo = o(aw), g.rng.Intn(aw-w+1)
	case sir.OpInsert:
		bw := 1 + g.rng.Intn(w)
		in.A, in.B, in.Lo = o(w), o(bw), g.rng.Intn(w-bw+1)
	case sir.OpPopCnt, sir.OpClz:
		in.A = o(g.width())
	case sir.OpLoad, sir.OpStore:
		in.Size = []int{1, 2, 4, 8}[g.rng.Intn(4)]
		w = min(w, 8*in.Size)
		in.Addr = g.addr(*scope, in.Size)
		if op == sir.OpStore {
			in.A = o(w)
		}
	case sir.OpLoadBits, sir.OpStoreBits:
		in.Lo = g.rng.Intn(8*(8-(w+7)/8) + 1)
		if in.Lo%8+w > 64 {
			in.Lo -= in.Lo % 8
		}
		n := (in.Lo%8+w+7)/8 + in.Lo/8
		in.Addr = g.addr(*scope, n)
		if op == sir.OpStoreBits {
			in.A = o(w)
		}
	default:
		in.A, in.B = o(w), o(w)
	}
	if op.HasDst() {
		in.Dst = g.dst(scope, w)
	}
	g.emit(in)
}

func (g *rgen) newBlock() sir.BlockID {
	id := g.u.NewBlock()
	g.blk = g.u.Blocks[id]
	return id
}

// genUnit builds a random unit: segments and diamonds, then ret.
func genUnit(rng *rand.Rand, branches bool) *sir.Unit { return genUnitEv(rng, branches, false) }

func genUnitEv(rng *rand.Rand, branches, events bool) *sir.Unit {
	g := &rgen{rng: rng, u: sir.NewUnit("rand"), events: events}
	g.newBlock()
	for seg := 0; seg < 1+rng.Intn(5); seg++ {
		for i := 0; i < 1+rng.Intn(12); i++ {
			g.inst(&g.pool)
		}
		if !branches || rng.Intn(3) == 0 {
			continue
		}
		cond := g.operand(g.pool, 1)
		from := g.blk
		then := g.newBlock()
		tscope := append([]sir.Reg(nil), g.pool...)
		for i := 0; i < rng.Intn(8); i++ {
			g.inst(&tscope)
		}
		if rng.Intn(4) == 0 { // early return from an arm
			g.blk.Term = sir.Term{Kind: sir.TermReturn, Status: []sir.Status{sir.StatusFinish, sir.StatusUser + 3}[rng.Intn(2)]}
		}
		tEnd := g.blk
		els := g.newBlock()
		escope := append([]sir.Reg(nil), g.pool...)
		for i := 0; i < rng.Intn(8); i++ {
			g.inst(&escope)
		}
		eEnd := g.blk
		join := g.newBlock()
		from.Term = sir.Term{Kind: sir.TermBranch, Cond: cond, Then: then, Else: els}
		if tEnd.Term.Kind == sir.TermNone {
			tEnd.Term = sir.Term{Kind: sir.TermJump, Then: join}
		}
		eEnd.Term = sir.Term{Kind: sir.TermJump, Then: join}
	}
	// store a few pool registers so their values are compared
	for _, r := range g.pool {
		if rng.Intn(2) == 0 {
			g.emit(sir.Inst{Op: sir.OpStore, A: r, Size: 8, Addr: sir.Addr{Home: 2, Offset: 8 * rng.Intn(12)}})
		}
	}
	g.blk.Term = sir.Term{Kind: sir.TermReturn, Status: []sir.Status{sir.StatusOK, sir.StatusStop}[rng.Intn(2)]}
	return g.u
}

func testRandom(t *testing.T, branches bool, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	l, size := sir.PackedLayout(homeSizes, 0)
	units := 3000
	if testing.Short() {
		units = 500
	}
	insts := 0
	for n := 0; n < units; n++ {
		u := genUnit(rng, branches)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator made a bad unit: %v\n%s", err, u)
		}
		insts += u.NumInsts()
		fi, k := compileBoth(t, u, l, size)
		for run := 0; run < 4; run++ {
			state := make([]byte, size)
			rng.Read(state)
			if d := diffRun(t, fi, k, state); d != "" {
				t.Fatalf("unit %d run %d: %s\n%s", n, run, d, u)
			}
		}
		k.Close()
	}
	t.Logf("%d units, %d instructions, 4 random states each", units, insts)
}

func TestRandomStraight(t *testing.T)  { testRandom(t, false, 2) }
func TestRandomBranching(t *testing.T) { testRandom(t, true, 3) }

// TestLoops: a counting loop (back edges), and a runaway loop that the
// back-edge budget stops with StatusStepLimit.
func TestLoops(t *testing.T) {
	l, size := sir.PackedLayout([]int{16}, 0)
	b := sir.NewBuilder("loop")
	n := b.Load(16, 2, sir.Addr{Home: 0, Offset: 0})
	i := b.Const(16, 0)
	acc := b.Const(32, 0)
	head, body, done := b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(head)
	b.SetBlock(head)
	b.Branch(b.ULt(i, n), body, done)
	b.SetBlock(body)
	b.OpTo(acc, sir.OpAdd, acc, b.ZExt(32, i), sir.NoReg)
	b.OpTo(i, sir.OpAdd, i, b.Const(16, 1), sir.NoReg)
	b.Jump(head)
	b.SetBlock(done)
	b.Store(4, sir.Addr{Home: 0, Offset: 8}, acc)
	b.Return(sir.StatusOK)
	u, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	fi, k := compileBoth(t, u, l, size)
	for _, cnt := range []int{0, 1, 7, 1000} {
		state := make([]byte, size)
		state[0], state[1] = byte(cnt), byte(cnt>>8)
		if d := diffRun(t, fi, k, state); d != "" {
			t.Fatalf("n=%d: %s", cnt, d)
		}
	}

	b = sir.NewBuilder("spin")
	top := b.NewBlock()
	b.Jump(top)
	b.SetBlock(top)
	b.Jump(top)
	if u, err = b.Finish(); err != nil {
		t.Fatal(err)
	}
	k2, err := Compile(u, l, Options{StateSize: size, MaxBackEdges: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer k2.Close()
	if st := k2.Run(make([]byte, k2.Size())); st != sir.StatusStepLimit {
		t.Fatalf("runaway loop: status %v, want steplimit", st)
	}
	if st := k2.Run(make([]byte, k2.Size()-1)); st != sir.StatusBadState {
		t.Fatalf("short buffer: status %v, want badstate", st)
	}
}
