package interp

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// The reference below is written from the SystemVerilog rules with math/big,
// independently of sir.Eval.

func bigU(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

func bigS(v uint64, w int) *big.Int {
	x := bigU(v)
	if x.Bit(w-1) == 1 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	return x
}

func wrap(x *big.Int, w int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	return new(big.Int).Mod(x, m).Uint64()
}

func capShift(v uint64) uint { // amounts beyond any width behave like 1000
	if v > 1000 {
		return 1000
	}
	return uint(v)
}

type shape struct{ w, aw, bw, cw, lo int }

func ref(op sir.Op, s shape, a, b, c uint64) uint64 {
	w := s.w
	A, B, C := bigU(a), bigU(b), bigU(c)
	SA, SB := bigS(a, s.aw), bigS(b, max(s.bw, 1))
	n := new(big.Int)
	bit := func(x bool) uint64 {
		if x {
			return 1
		}
		return 0
	}
	switch op {
	case sir.OpAdd:
		return wrap(n.Add(A, B), w)
	case sir.OpSub:
		return wrap(n.Sub(A, B), w)
	case sir.OpMul:
		return wrap(n.Mul(A, B), w)
	case sir.OpMulHiU:
		return wrap(n.Rsh(n.Mul(A, B), uint(w)), w)
	case sir.OpMulHiS:
		return wrap(n.Rsh(n.Mul(SA, SB), uint(w)), w)
	case sir.OpDivU:
		if b == 0 {
			return 0
		}
		return wrap(n.Quo(A, B), w)
	case sir.OpRemU:
		if b == 0 {
			return 0
		}
		return wrap(n.Rem(A, B), w)
	case sir.OpDivS:
		if b == 0 {
			return 0
		}
		return wrap(n.Quo(SA, SB), w)
	case sir.OpRemS:
		if b == 0 {
			return 0
		}
		return wrap(n.Rem(SA, SB), w)
	case sir.OpAddC:
		return wrap(n.Add(n.Add(A, B), C), w)
	case sir.OpAddCO:
		return bit(n.Add(n.Add(A, B), C).BitLen() > s.aw)
	case sir.OpSubB:
		return wrap(n.Sub(n.Sub(A, B), C), w)
	case sir.OpSubBO:
		return bit(n.Sub(n.Sub(A, B), C).Sign() < 0)
	case sir.OpAnd:
		return wrap(n.And(A, B), w)
	case sir.OpOr:
		return wrap(n.Or(A, B), w)
	case sir.OpXor:
		return wrap(n.Xor(A, B), w)
	case sir.OpNot:
		return wrap(n.Sub(n.Neg(A), big.NewInt(1)), w)
	case sir.OpNeg:
		return wrap(n.Neg(A), w)
	case sir.OpShl:
		if b >= uint64(w) {
			return 0
		}
		return wrap(n.Lsh(A, uint(b)), w)
	case sir.OpLShr:
		return wrap(n.Rsh(A, capShift(b)), w)
	case sir.OpAShr:
		return wrap(n.Rsh(SA, capShift(b)), w)
	case sir.OpFShl, sir.OpFShr:
		X := n.Add(n.Lsh(A, uint(w)), B)
		if op == sir.OpFShl {
			return wrap(X.Rsh(X.Lsh(X, capShift(c)), uint(w)), w)
		}
		return wrap(X.Rsh(X, capShift(c)), w)
	case sir.OpEq:
		return bit(A.Cmp(B) == 0)
	case sir.OpNe:
		return bit(A.Cmp(B) != 0)
	case sir.OpULt:
		return bit(A.Cmp(B) < 0)
	case sir.OpULe:
		return bit(A.Cmp(B) <= 0)
	case sir.OpSLt:
		return bit(SA.Cmp(SB) < 0)
	case sir.OpSLe:
		return bit(SA.Cmp(SB) <= 0)
	case sir.OpMux:
		if a == 1 {
			return b
		}
		return c
	case sir.OpZExt, sir.OpTrunc, sir.OpCopy:
		return wrap(A, w)
	case sir.OpSExt:
		return wrap(SA, w)
	case sir.OpExtract:
		return wrap(n.Rsh(A, uint(s.lo)), w)
	case sir.OpInsert:
		r := new(big.Int).Set(A)
		for i := 0; i < s.bw; i++ {
			r.SetBit(r, s.lo+i, B.Bit(i))
		}
		return wrap(r, w)
	case sir.OpPopCnt:
		k := 0
		for i := 0; i < A.BitLen(); i++ {
			k += int(A.Bit(i))
		}
		return wrap(big.NewInt(int64(k)), w)
	case sir.OpClz:
		return wrap(big.NewInt(int64(s.aw-A.BitLen())), w)
	}
	panic("no reference for " + op.String())
}

var widths = []int{1, 7, 8, 31, 32, 33, 63, 64}

// values returns interesting w-bit operands: edges then random ones.
func values(rng *rand.Rand, w, nrand int) []uint64 {
	m := sir.Mask(w)
	min := uint64(1) << uint(w-1)
	set := map[uint64]bool{}
	var vs []uint64
	for _, v := range []uint64{0, 1, 2, 3, m, m - 1, min, min - 1, min + 1, 5, 64, 65, uint64(w), uint64(w - 1), uint64(w + 1), uint64(2 * w), uint64(2*w - 1)} {
		v &= m
		if !set[v] {
			set[v] = true
			vs = append(vs, v)
		}
	}
	for i := 0; i < nrand; i++ {
		v := rng.Uint64()
		if rng.Intn(2) == 0 {
			v >>= uint(rng.Intn(64))
		}
		vs = append(vs, v&m)
	}
	return vs
}

// opUnit builds: load operands from h0 (+0 A, +8 B, +16 C), compute, store
// the result at +24.
func opUnit(op sir.Op, s shape) *sir.Unit {
	b := sir.NewBuilder(op.String())
	h := func(off int) sir.Addr { return sir.Addr{Home: 0, Offset: off} }
	var regs [3]sir.Reg
	ws := [3]int{s.aw, s.bw, s.cw}
	for i := 0; i < op.NumArgs(); i++ {
		regs[i] = b.Load(ws[i], 8, h(8*i))
	}
	d := b.Reg(s.w)
	b.Emit(sir.Inst{Op: op, Dst: d, A: regs[0], B: regs[1], C: regs[2], Lo: s.lo})
	b.Store(8, h(24), d)
	b.Return(sir.StatusOK)
	return b.U
}

// shapes lists the operand shapes an op is tested at for result width w.
func shapes(op sir.Op, w int) []shape {
	switch op {
	case sir.OpAddC, sir.OpSubB:
		return []shape{{w: w, aw: w, bw: w, cw: 1}}
	case sir.OpAddCO, sir.OpSubBO:
		return []shape{{w: 1, aw: w, bw: w, cw: 1}}
	case sir.OpShl, sir.OpLShr, sir.OpAShr:
		return []shape{{w: w, aw: w, bw: 64}, {w: w, aw: w, bw: 7}, {w: w, aw: w, bw: 1}}
	case sir.OpFShl, sir.OpFShr:
		return []shape{{w: w, aw: w, bw: w, cw: 64}, {w: w, aw: w, bw: w, cw: 7}}
	case sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe:
		return []shape{{w: 1, aw: w, bw: w}}
	case sir.OpMux:
		return []shape{{w: w, aw: 1, bw: w, cw: w}}
	case sir.OpZExt, sir.OpSExt:
		var ss []shape
		for _, aw := range widths {
			if aw <= w {
				ss = append(ss, shape{w: w, aw: aw})
			}
		}
		return ss
	case sir.OpTrunc:
		var ss []shape
		for _, aw := range widths {
			if aw >= w {
				ss = append(ss, shape{w: w, aw: aw})
			}
		}
		return ss
	case sir.OpExtract:
		var ss []shape
		for _, aw := range widths {
			for _, lo := range []int{0, 1, aw - w, (aw - w) / 2} {
				if aw >= w && lo >= 0 && lo+w <= aw {
					ss = append(ss, shape{w: w, aw: aw, lo: lo})
				}
			}
		}
		return ss
	case sir.OpInsert:
		var ss []shape
		for _, bw := range widths {
			for _, lo := range []int{0, 1, w - bw} {
				if bw <= w && lo >= 0 && lo+bw <= w {
					ss = append(ss, shape{w: w, aw: w, bw: bw, lo: lo})
				}
			}
		}
		return ss
	case sir.OpPopCnt, sir.OpClz:
		return []shape{{w: 1, aw: w}, {w: 7, aw: w}, {w: 64, aw: w}}
	}
	return []shape{{w: w, aw: w, bw: w}}
}

var tableOps = []sir.Op{
	sir.OpCopy, sir.OpAdd, sir.OpSub, sir.OpMul, sir.OpMulHiU, sir.OpMulHiS, sir.OpDivU, sir.OpDivS, sir.OpRemU, sir.OpRemS,
	sir.OpAddC, sir.OpAddCO, sir.OpSubB, sir.OpSubBO, sir.OpAnd, sir.OpOr, sir.OpXor, sir.OpNot, sir.OpNeg,
	sir.OpShl, sir.OpLShr, sir.OpAShr, sir.OpFShl, sir.OpFShr,
	sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe,
	sir.OpMux, sir.OpZExt, sir.OpSExt, sir.OpTrunc, sir.OpExtract, sir.OpInsert, sir.OpPopCnt, sir.OpClz,
}

func TestOpSemantics(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	l, size := sir.PackedLayout([]int{32}, 0)
	state := make([]byte, size)
	le := binary.LittleEndian
	nrand := 24
	if testing.Short() {
		nrand = 6
	}
	for _, op := range tableOps {
		for _, w := range widths {
			for _, s := range shapes(op, w) {
				name := fmt.Sprintf("%s/w%d_a%d_b%d_c%d_lo%d", op, s.w, s.aw, s.bw, s.cw, s.lo)
				u := opUnit(op, s)
				f, err := Compile(u, l, Options{})
				if err != nil {
					t.Fatalf("%s: %v\n%s", name, err, u)
				}
				av := values(rng, max(s.aw, 1), nrand)
				bv, cv := []uint64{0}, []uint64{0}
				if op.NumArgs() > 1 {
					bv = values(rng, s.bw, nrand)
				}
				if op.NumArgs() > 2 {
					cv = values(rng, s.cw, 3)
				}
				fails := 0
				for _, a := range av {
					for _, b := range bv {
						for _, c := range cv {
							le.PutUint64(state[0:], a)
							le.PutUint64(state[8:], b)
							le.PutUint64(state[16:], c)
							if st := f.Run(state); st != sir.StatusOK {
								t.Fatalf("%s: status %v", name, st)
							}
							got, want := le.Uint64(state[24:]), ref(op, s, a, b, c)
							if got != want && fails < 5 {
								fails++
								t.Errorf("%s(%#x, %#x, %#x) = %#x, want %#x", name, a, b, c, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestOpSemanticsNamed pins the cases the SystemVerilog rules single out.
func TestOpSemanticsNamed(t *testing.T) {
	cases := []struct {
		op      sir.Op
		s       shape
		a, b, c uint64
		want    uint64
	}{
		{sir.OpDivU, shape{w: 8, aw: 8, bw: 8}, 200, 0, 0, 0},
		{sir.OpRemU, shape{w: 8, aw: 8, bw: 8}, 200, 0, 0, 0},
		{sir.OpDivS, shape{w: 8, aw: 8, bw: 8}, 0x80, 0xff, 0, 0x80},                                      // -128 / -1 wraps
		{sir.OpRemS, shape{w: 8, aw: 8, bw: 8}, 0x80, 0xff, 0, 0},                                         // -128 % -1
		{sir.OpDivS, shape{w: 64, aw: 64, bw: 64}, 1 << 63, ^uint64(0), 0, 1 << 63},                       // MIN / -1
		{sir.OpRemS, shape{w: 64, aw: 64, bw: 64}, 1 << 63, ^uint64(0), 0, 0},                             // MIN % -1
		{sir.OpDivS, shape{w: 7, aw: 7, bw: 7}, 0x7d, 2, 0, 0x7f},                                         // -3 / 2 = -1
		{sir.OpRemS, shape{w: 7, aw: 7, bw: 7}, 0x7d, 2, 0, 0x7f},                                         // -3 % 2 = -1
		{sir.OpRemS, shape{w: 7, aw: 7, bw: 7}, 3, 0x7e, 0, 1},                                            // 3 % -2 = 1
		{sir.OpDivS, shape{w: 33, aw: 33, bw: 33}, 5, 0, 0, 0},                                            // signed x/0
		{sir.OpShl, shape{w: 8, aw: 8, bw: 64}, 0xff, 8, 0, 0},                                            // shift = width
		{sir.OpLShr, shape{w: 32, aw: 32, bw: 64}, 0xffffffff, 1 << 40, 0, 0},                             // huge amount
		{sir.OpAShr, shape{w: 8, aw: 8, bw: 64}, 0x80, 100, 0, 0xff},                                      // all sign bits
		{sir.OpAShr, shape{w: 8, aw: 8, bw: 64}, 0x40, 100, 0, 0},                                         // positive
		{sir.OpAShr, shape{w: 64, aw: 64, bw: 64}, 1 << 63, 64, 0, ^uint64(0)},                            // 64-bit
		{sir.OpSExt, shape{w: 64, aw: 1}, 1, 0, 0, ^uint64(0)},                                            // 1-bit -1
		{sir.OpSExt, shape{w: 33, aw: 31}, 0x40000000, 0, 0, 0x1c0000000},                                 // sign 31->33
		{sir.OpSLt, shape{w: 1, aw: 1, bw: 1}, 1, 0, 0, 1},                                                // -1 < 0
		{sir.OpMulHiS, shape{w: 64, aw: 64, bw: 64}, ^uint64(0), ^uint64(0), 0, 0},                        // -1*-1 = 1
		{sir.OpMulHiU, shape{w: 64, aw: 64, bw: 64}, ^uint64(0), ^uint64(0), 0, ^uint64(0) - 1},           // high word
		{sir.OpAddCO, shape{w: 1, aw: 64, bw: 64, cw: 1}, ^uint64(0), 0, 1, 1},                            // carry from cin
		{sir.OpSubBO, shape{w: 1, aw: 8, bw: 8, cw: 1}, 5, 5, 1, 1},                                       // borrow from bin
		{sir.OpFShl, shape{w: 8, aw: 8, bw: 8, cw: 64}, 0x01, 0x80, 1, 0x03},                              // funnel
		{sir.OpFShr, shape{w: 8, aw: 8, bw: 8, cw: 64}, 0x01, 0x80, 12, 0},                                // past hi
		{sir.OpClz, shape{w: 7, aw: 33}, 0, 0, 0, 33},                                                     // clz(0) = width
		{sir.OpPopCnt, shape{w: 1, aw: 8}, 0x07, 0, 0, 1},                                                 // parity
		{sir.OpInsert, shape{w: 32, aw: 32, bw: 8, lo: 8}, 0xaabbccdd, 0x11, 0, 0xaabb11dd},               // insert
		{sir.OpExtract, shape{w: 8, aw: 64, lo: 56}, 0x1122334455667788, 0, 0, 0x11},                      // extract
		{sir.OpMux, shape{w: 33, aw: 1, bw: 33, cw: 33}, 0, 1, 0x1ffffffff, 0x1ffffffff},                  // select else
		{sir.OpNeg, shape{w: 31, aw: 31}, 1, 0, 0, 0x7fffffff},                                            // -1
		{sir.OpNot, shape{w: 63, aw: 63}, 0, 0, 0, 1<<63 - 1},                                             // ~0
		{sir.OpSub, shape{w: 1, aw: 1, bw: 1}, 0, 1, 0, 1},                                                // 1-bit wrap
		{sir.OpMul, shape{w: 33, aw: 33, bw: 33}, 0x100000000, 2, 0, 0},                                   // wrap
		{sir.OpULe, shape{w: 1, aw: 64, bw: 64}, ^uint64(0), ^uint64(0), 0, 1},                            // equal
		{sir.OpSLe, shape{w: 1, aw: 64, bw: 64}, 1 << 63, 0, 0, 1},                                        // MIN <= 0
		{sir.OpTrunc, shape{w: 7, aw: 64}, 0xff, 0, 0, 0x7f},                                              // trunc
		{sir.OpZExt, shape{w: 64, aw: 8}, 0x80, 0, 0, 0x80},                                               // zext
		{sir.OpAShr, shape{w: 33, aw: 33, bw: 1}, 0x100000000, 1, 0, 0x180000000},                         // 1-bit amount
		{sir.OpShl, shape{w: 1, aw: 1, bw: 7}, 1, 1, 0, 0},                                                // 1-bit shl
		{sir.OpDivU, shape{w: 64, aw: 64, bw: 64}, ^uint64(0), 1, 0, ^uint64(0)},                          // big dividend
		{sir.OpRemS, shape{w: 64, aw: 64, bw: 64}, uint64(1<<64 - 7), 4, 0, uint64(1<<64 - 3)},            // -7 % 4 = -3
		{sir.OpDivS, shape{w: 64, aw: 64, bw: 64}, uint64(1<<64 - 7), 2, 0, uint64(1<<64 - 3)},            // -7 / 2 = -3
		{sir.OpAddC, shape{w: 64, aw: 64, bw: 64, cw: 1}, ^uint64(0), 0, 1, 0},                            // wrap with carry
		{sir.OpSubB, shape{w: 8, aw: 8, bw: 8, cw: 1}, 0, 0, 1, 0xff},                                     // borrow
		{sir.OpFShr, shape{w: 64, aw: 64, bw: 64, cw: 64}, 0x1, 0x8000000000000000, 63, 0x3},              // across words
		{sir.OpFShl, shape{w: 64, aw: 64, bw: 64, cw: 64}, 0, 0x8000000000000000, 65, 0},                  // beyond w
		{sir.OpFShl, shape{w: 64, aw: 64, bw: 64, cw: 64}, 0, 0x4000000000000000, 65, 0x8000000000000000}, // lo into hi
	}
	l, size := sir.PackedLayout([]int{32}, 0)
	state := make([]byte, size)
	le := binary.LittleEndian
	for _, c := range cases {
		if got := ref(c.op, c.s, c.a, c.b, c.c); got != c.want {
			t.Errorf("reference %s%+v(%#x, %#x, %#x) = %#x, want %#x (fix the table or the reference)", c.op, c.s, c.a, c.b, c.c, got, c.want)
		}
		f, err := Compile(opUnit(c.op, c.s), l, Options{})
		if err != nil {
			t.Fatal(err)
		}
		le.PutUint64(state[0:], c.a)
		le.PutUint64(state[8:], c.b)
		le.PutUint64(state[16:], c.c)
		f.Run(state)
		if got := le.Uint64(state[24:]); got != c.want {
			t.Errorf("%s%+v(%#x, %#x, %#x) = %#x, want %#x", c.op, c.s, c.a, c.b, c.c, got, c.want)
		}
	}
}
