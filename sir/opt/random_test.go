package opt

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// gen builds random units over homes h0..h7 of 64 bytes (testLayout):
// forward control flow plus counted self-loops (so every unit terminates),
// registers assigned in several blocks (SIR is not SSA), constants,
// copies, stores that coalesce, dynamic indexes in and out of range, bit
// fields, events, and instructions emitted again (cse food).
type gen struct {
	rng   *rand.Rand
	b     *sir.Builder
	pool  map[int][]sir.Reg // defined in the entry: readable everywhere
	local map[int][]sir.Reg // defined earlier in the current block
	fresh []sir.Reg         // defined by the instruction being generated
	// narrow keeps static accesses to the first 16 bytes of h0 and h1, so
	// that accesses overlap often (ifconvert's store matching).
	narrow bool
}

var genWidths = []int{1, 3, 8, 13, 16, 32, 33, 64}

func (g *gen) width() int { return genWidths[g.rng.Intn(len(genWidths))] }

func (g *gen) operand(w int) sir.Reg {
	rs := append(append([]sir.Reg(nil), g.pool[w]...), g.local[w]...)
	if len(g.local[w]) > 0 && g.rng.Intn(2) == 0 {
		rs = g.local[w]
	}
	return rs[g.rng.Intn(len(rs))]
}

func (g *gen) anyOperand() sir.Reg { return g.operand(g.width()) }

// dst returns the register to assign: usually fresh, sometimes an entry
// register assigned again.
func (g *gen) dst(w int) sir.Reg {
	if g.b.Block() != 0 && g.rng.Intn(4) == 0 {
		return g.pool[w][g.rng.Intn(len(g.pool[w]))]
	}
	r := g.b.Reg(w)
	g.fresh = append(g.fresh, r)
	return r
}

func (g *gen) value(w int) uint64 {
	switch g.rng.Intn(4) {
	case 0:
		return uint64(g.rng.Intn(4))
	case 1:
		return sir.Mask(w)
	}
	return g.rng.Uint64() & sir.Mask(w)
}

func sizeFor(w int, rng *rand.Rand) int {
	s := 1
	for 8*s < w {
		s *= 2
	}
	if rng.Intn(4) == 0 && s < 8 {
		s *= 2
	}
	return s
}

func (g *gen) addr(size int) sir.Addr {
	a := sir.Addr{Home: sir.HomeID(g.rng.Intn(8))}
	if g.rng.Intn(4) == 0 {
		a.Index = g.anyOperand()
		a.Stride = []int{1, 2, 4, 8}[g.rng.Intn(4)]
		maxCount := (64-size)/a.Stride + 1
		a.Count = 1 + g.rng.Intn(min(maxCount, 12))
		a.Offset = g.rng.Intn(64 - size - (a.Count-1)*a.Stride + 1)
		return a
	}
	a.Offset = g.rng.Intn(64 - size + 1)
	if g.narrow {
		a.Home, a.Offset = sir.HomeID(g.rng.Intn(2)), g.rng.Intn(16-size+1)
	}
	if g.rng.Intn(2) == 0 {
		a.Offset &^= size - 1
	}
	return a
}

var aluOps = []sir.Op{
	sir.OpAdd, sir.OpSub, sir.OpMul, sir.OpMulHiU, sir.OpMulHiS, sir.OpDivU, sir.OpDivS, sir.OpRemU, sir.OpRemS,
	sir.OpAnd, sir.OpOr, sir.OpXor, sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe,
}

func (g *gen) inst() {
	defer func() {
		for _, r := range g.fresh {
			w := g.b.Width(r)
			g.local[w] = append(g.local[w], r)
		}
		g.fresh = g.fresh[:0]
	}()
	b, rng := g.b, g.rng
	if rng.Intn(4) == 0 && g.again() {
		return
	}
	w := g.width()
	switch k := rng.Intn(20); {
	case k < 4:
		b.ConstTo(g.dst(w), g.value(w))
	case k < 8:
		op := aluOps[rng.Intn(len(aluOps))]
		x, y := g.operand(w), g.operand(w)
		if rng.Intn(5) == 0 {
			y = x
		}
		dw := w
		if op.IsCompare() {
			dw = 1
		}
		b.OpTo(g.dst(dw), op, x, y, sir.NoReg)
	case k == 8:
		op := []sir.Op{sir.OpShl, sir.OpLShr, sir.OpAShr}[rng.Intn(3)]
		b.OpTo(g.dst(w), op, g.operand(w), g.anyOperand(), sir.NoReg)
	case k == 9:
		switch rng.Intn(4) {
		case 0:
			b.OpTo(g.dst(w), []sir.Op{sir.OpAddC, sir.OpSubB}[rng.Intn(2)], g.operand(w), g.operand(w), g.operand(1))
		case 1:
			b.OpTo(g.dst(1), []sir.Op{sir.OpAddCO, sir.OpSubBO}[rng.Intn(2)], g.operand(w), g.operand(w), g.operand(1))
		case 2:
			b.OpTo(g.dst(w), []sir.Op{sir.OpFShl, sir.OpFShr}[rng.Intn(2)], g.operand(w), g.operand(w), g.anyOperand())
		default:
			b.OpTo(g.dst(w), sir.OpMux, g.operand(1), g.operand(w), g.operand(w))
		}
	case k == 10:
		x := g.anyOperand()
		aw := b.Width(x)
		switch rng.Intn(6) {
		case 0:
			b.OpTo(g.dst(aw), []sir.Op{sir.OpNot, sir.OpNeg, sir.OpCopy}[rng.Intn(3)], x, sir.NoReg, sir.NoReg)
		case 1:
			b.OpTo(g.dst(w), []sir.Op{sir.OpPopCnt, sir.OpClz}[rng.Intn(2)], x, sir.NoReg, sir.NoReg)
		case 2:
			if w >= aw {
				b.OpTo(g.dst(w), []sir.Op{sir.OpZExt, sir.OpSExt}[rng.Intn(2)], x, sir.NoReg, sir.NoReg)
			} else {
				b.OpTo(g.dst(w), sir.OpTrunc, x, sir.NoReg, sir.NoReg)
			}
		case 3:
			if w <= aw {
				b.Emit(sir.Inst{Op: sir.OpExtract, Dst: g.dst(w), A: x, Lo: rng.Intn(aw - w + 1)})
			}
		case 4:
			if w <= aw {
				b.Emit(sir.Inst{Op: sir.OpInsert, Dst: g.dst(aw), A: x, B: g.operand(w), Lo: rng.Intn(aw - w + 1)})
			}
		default:
			b.CopyTo(g.dst(aw), x)
		}
	case k < 14:
		size := sizeFor(w, rng)
		b.Emit(sir.Inst{Op: sir.OpStore, A: g.operand(w), Size: size, Addr: g.addr(size)})
	case k == 14:
		// A run of constant byte stores at adjacent offsets: coalescing food.
		a := g.addr(8)
		a.Index, a.Stride, a.Count = sir.NoReg, 0, 0
		for i := 0; i < 2+rng.Intn(7); i++ {
			var c sir.Reg
			if rng.Intn(3) == 0 { // an entry register assigned again
				c = g.pool[8][rng.Intn(2)]
				b.ConstTo(c, g.value(8))
			} else {
				c = b.Const(8, g.value(8))
			}
			b.Store(1, sir.Addr{Home: a.Home, Offset: a.Offset + i}, c)
			if rng.Intn(3) == 0 { // an access to nearby bytes in between
				near := sir.Addr{Home: a.Home, Offset: max(0, a.Offset+i-2+rng.Intn(5))}
				if rng.Intn(2) == 0 {
					g.local[8] = append(g.local[8], b.Load(8, 1, near))
				} else {
					b.Store(1, near, g.operand(8))
				}
			}
		}
	case k < 17:
		size := sizeFor(w, rng)
		b.Emit(sir.Inst{Op: sir.OpLoad, Dst: g.dst(w), Size: size, Addr: g.addr(size)})
	case k == 17:
		lo := rng.Intn(64 - w + 1)
		n := (lo%8 + w + 7) / 8
		a := g.addr(lo/8 + n)
		if rng.Intn(2) == 0 {
			b.Emit(sir.Inst{Op: sir.OpLoadBits, Dst: g.dst(w), Addr: a, Lo: lo})
		} else {
			b.Emit(sir.Inst{Op: sir.OpStoreBits, A: g.operand(w), Addr: a, Lo: lo})
		}
	case k == 18:
		x := g.operand(w)
		b.Event(&sir.Event{Kind: sir.EvDisplay, Format: rng.Intn(4), Args: []sir.EventArg{{Words: []sir.Reg{x}, Width: w, Signed: rng.Intn(2) == 0}}})
	default:
		// Extract pairs stored to adjacent bytes.
		x := g.operand(32)
		a := g.addr(4)
		a.Index, a.Stride, a.Count = sir.NoReg, 0, 0
		lo := b.Extract(8, x, 8)
		hi := b.Extract(8, x, 16)
		b.Store(1, sir.Addr{Home: a.Home, Offset: a.Offset &^ 1}, lo)
		b.Store(1, sir.Addr{Home: a.Home, Offset: a.Offset&^1 + 1}, hi)
	}
}

// again re-emits an earlier instruction of the current block (not an
// event), so cse finds recomputed values and reloaded bytes: into a fresh
// register, or into the same one (assigned again), with whatever the
// instructions since did to its operands and to memory in between.
func (g *gen) again() bool {
	insts := g.b.U.Blocks[g.b.Block()].Insts
	if len(insts) == 0 {
		return false
	}
	in := insts[g.rng.Intn(len(insts))]
	if in.Op == sir.OpEvent {
		return false
	}
	switch {
	case (in.Op == sir.OpLoad || in.Op == sir.OpLoadBits) && g.rng.Intn(2) == 0:
		g.storeInto(in)
	case in.Op == sir.OpStore && g.rng.Intn(2) == 0:
		// Load back what the store wrote, at the stored value's width.
		in = sir.Inst{Op: sir.OpLoad, Dst: in.A, Size: in.Size, Addr: in.Addr}
	case in.Op == sir.OpStoreBits && g.rng.Intn(2) == 0:
		in = sir.Inst{Op: sir.OpLoadBits, Dst: in.A, Lo: in.Lo, Addr: in.Addr}
	}
	if in.Op.NumArgs() >= 2 && g.b.Width(in.A) == g.b.Width(in.B) && g.rng.Intn(3) == 0 {
		in.A, in.B = in.B, in.A // the same for commutative ops only
	}
	if in.Dst != sir.NoReg && g.rng.Intn(3) != 0 {
		in.Dst = g.dst(g.b.Width(in.Dst))
	}
	g.b.Emit(in)
	if in.Op == sir.OpLoad || in.Op == sir.OpLoadBits {
		// Make the value reloaded observable.
		w := g.b.Width(in.Dst)
		size := sizeFor(w, g.rng)
		g.b.Store(size, sir.Addr{Home: sir.HomeID(g.rng.Intn(8)), Offset: g.rng.Intn(64 - size + 1)}, in.Dst)
	}
	return true
}

// storeInto emits a byte store into (or next to) the bytes the load ld
// may read, before ld is emitted again: through ld's own address (dynamic
// or static), or at a static offset within ld's envelope or one byte past
// it, or through another index register, all inside ld's 64-byte home.
func (g *gen) storeInto(ld sir.Inst) {
	a := ld.Addr
	span := ld.Size
	if ld.Op == sir.OpLoadBits {
		span = ld.Lo/8 + (ld.Lo%8+g.b.Width(ld.Dst)+7)/8
	}
	if a.Dynamic() {
		span += (a.Count - 1) * a.Stride
	}
	v := g.operand(8)
	switch g.rng.Intn(4) {
	case 0:
		g.b.Store(1, a, v)
	case 1:
		if a.Dynamic() { // through another index
			a.Index = g.anyOperand()
		} else { // elements from up to 8 bytes below the loaded ones
			d := g.rng.Intn(min(a.Offset, 8) + 1)
			a = sir.Addr{Home: a.Home, Index: g.anyOperand(), Stride: 1, Count: d + span, Offset: a.Offset - d}
		}
		g.b.Store(1, a, v)
	case 2:
		off := min(a.Offset+g.rng.Intn(span+1), 63)
		g.b.Store(1, sir.Addr{Home: a.Home, Offset: off}, v)
	default:
		off := a.Offset + g.rng.Intn(span)
		g.b.StoreBits(sir.Addr{Home: a.Home, Offset: off &^ 7}, off%8*8+g.rng.Intn(8), g.operand(1))
	}
}

// newGen starts a unit whose entry block defines the operand pool: a load
// and a constant of every width.
func newGen(rng *rand.Rand, name string) *gen {
	g := &gen{rng: rng, b: sir.NewBuilder(name), pool: map[int][]sir.Reg{}, local: map[int][]sir.Reg{}}
	for _, w := range genWidths {
		for i := 0; i < 2; i++ {
			var r sir.Reg
			if i == 0 {
				r = g.b.Load(w, sizeFor(w, rng), sir.Addr{Home: sir.HomeID(rng.Intn(8)), Offset: rng.Intn(56)})
			} else {
				r = g.b.Const(w, g.value(w))
			}
			g.pool[w] = append(g.pool[w], r)
		}
	}
	return g
}

func genUnit(rng *rand.Rand) *sir.Unit {
	g := newGen(rng, "random")
	b := g.b
	one8, zero8 := b.Const(8, 1), b.Const(8, 0)
	nb := 1 + rng.Intn(6)
	counters := make([]sir.Reg, nb)
	loops := make([]bool, nb)
	for i := 1; i < nb; i++ {
		if rng.Intn(4) == 0 {
			loops[i] = true
			counters[i] = b.Const(8, uint64(1+rng.Intn(4)))
		}
		b.NewBlock()
	}
	for i := 0; i < nb; i++ {
		b.SetBlock(sir.BlockID(i))
		g.local = map[int][]sir.Reg{}
		for n := 3 + rng.Intn(20); n > 0; n-- {
			g.inst()
		}
		next := func() sir.BlockID { return sir.BlockID(i + 1 + rng.Intn(nb-i-1)) }
		switch {
		case i == nb-1:
			b.Return([]sir.Status{sir.StatusOK, sir.StatusOK, sir.StatusFinish}[rng.Intn(3)])
		case loops[i]:
			b.OpTo(counters[i], sir.OpSub, counters[i], one8, sir.NoReg)
			b.Branch(b.Ne(counters[i], zero8), sir.BlockID(i), next())
		case rng.Intn(8) == 0:
			b.Return(sir.StatusFinish)
		case rng.Intn(2) == 0:
			b.Jump(next())
		default:
			b.Branch(g.operand(1), next(), next())
		}
	}
	return b.U
}

// TestRandomDifferential: random units behave the same (state, ring,
// status) before and after the whole pipeline, and every pass leaves a
// unit sir.Check accepts.
func TestRandomDifferential(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 400
	}
	rng := rand.New(rand.NewSource(42))
	before, after := 0, 0
	for i := 0; i < n; i++ {
		u := genUnit(rng)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator made a bad unit: %v\n%s", err, u)
		}
		orig := u.Clone()
		if err := Run(u, Options{Check: true}); err != nil {
			t.Fatalf("unit %d: %v\nbefore:\n%s", i, err, orig)
		}
		before += orig.NumInsts()
		after += u.NumInsts()
		behaveAlike(t, fmt.Sprintf("unit %d", i), orig, u, rng, 4)
	}
	t.Logf("%d units: %d instructions before, %d after", n, before, after)
}

// TestPassesAlone runs each pass by itself on random units: each must be
// correct on its own, not only after the passes before it.
func TestPassesAlone(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewSource(9))
	for _, name := range Passes() {
		for i := 0; i < n; i++ {
			u := genUnit(rng)
			orig := u.Clone()
			if err := RunPass(u, name); err != nil {
				t.Fatal(err)
			}
			if err := sir.Check(u); err != nil {
				t.Fatalf("%s: %v\nbefore:\n%s\nafter:\n%s", name, err, orig, u)
			}
			for s := 0; s < 2; s++ {
				if msg := sameBehaviour(orig, u, rng); msg != "" {
					t.Fatalf("%s: %s\nbefore:\n%s\nafter:\n%s", name, msg, orig, u)
				}
			}
		}
	}
}

// behaveAlike runs orig and u from n random states and fails the test,
// showing both units, when they end differently.
func behaveAlike(t *testing.T, what string, orig, u *sir.Unit, rng *rand.Rand, n int) {
	t.Helper()
	for range n {
		if msg := sameBehaviour(orig, u, rng); msg != "" {
			t.Fatalf("%s: %s\nbefore:\n%s\nafter:\n%s", what, msg, orig, u)
		}
	}
}
