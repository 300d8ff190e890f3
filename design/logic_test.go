package design

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// The reference below works bit by bit on vec4 values (lsb first) from the
// tables of IEEE 1800-2017 clause 11, sharing nothing with logic.go's
// word-level code: the tests compare the two on every four-state value of
// widths 1 to 3 and, through FuzzFold4, on random values up to 70 bits
// (several big.Int words).

type vec4 []Bit4

var digit4 = "01xz"

func (v vec4) String() string {
	var sb strings.Builder
	for i := len(v) - 1; i >= 0; i-- {
		sb.WriteByte(digit4[v[i]])
	}
	return sb.String()
}

// Tables 11-12 (& | ^ ^~) and 11-13 (~) of IEEE 1800-2017, indexed
// [left][right] in the order 0, 1, x, z.
var (
	refAndTab = [4][4]Bit4{
		{B0, B0, B0, B0},
		{B0, B1, BX, BX},
		{B0, BX, BX, BX},
		{B0, BX, BX, BX},
	}
	refOrTab = [4][4]Bit4{
		{B0, B1, BX, BX},
		{B1, B1, B1, B1},
		{BX, B1, BX, BX},
		{BX, B1, BX, BX},
	}
	refXorTab = [4][4]Bit4{
		{B0, B1, BX, BX},
		{B1, B0, BX, BX},
		{BX, BX, BX, BX},
		{BX, BX, BX, BX},
	}
	refXnorTab = [4][4]Bit4{
		{B1, B0, BX, BX},
		{B0, B1, BX, BX},
		{BX, BX, BX, BX},
		{BX, BX, BX, BX},
	}
	refNotTab = [4]Bit4{B1, B0, BX, BX}
	// Table 11-21: ?: with an ambiguous condition merges the arms.
	refMergeTab = [4][4]Bit4{
		{B0, BX, BX, BX},
		{BX, B1, BX, BX},
		{BX, BX, BX, BX},
		{BX, BX, BX, BX},
	}
)

func refBitwise(tab *[4][4]Bit4, x, y vec4) vec4 {
	r := make(vec4, len(x))
	for i := range x {
		r[i] = tab[x[i]][y[i]]
	}
	return r
}

// refFold is a reduction: a left fold of a table from its identity.
func refFold(tab *[4][4]Bit4, id Bit4, x vec4) Bit4 {
	acc := id
	for _, b := range x {
		acc = tab[acc][b]
	}
	return acc
}

func refKnown(x vec4) bool {
	for _, b := range x {
		if b >= BX {
			return false
		}
	}
	return true
}

func refAll(w int, b Bit4) vec4 {
	r := make(vec4, w)
	for i := range r {
		r[i] = b
	}
	return r
}

// refBool is a 1-bit result in a t.Width-bit vector.
func refBool(w int, b Bit4) vec4 {
	r := refAll(w, B0)
	r[0] = b
	return r
}

func refUint(x vec4) *big.Int {
	v := new(big.Int)
	for i, b := range x {
		if b == B1 {
			v.SetBit(v, i, 1)
		}
	}
	return v
}

func refInt(x vec4, signed bool) *big.Int {
	v := refUint(x)
	if signed && x[len(x)-1] == B1 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(len(x))))
	}
	return v
}

func refFromUint(v *big.Int, w int) vec4 {
	r := make(vec4, w)
	for i := range r {
		r[i] = Bit4(v.Bit(i))
	}
	return r
}

func refUnary(op UnOp, x vec4, xt, t Type) vec4 {
	w := t.Width
	switch op {
	case OpNeg:
		if !refKnown(x) {
			return refAll(w, BX)
		}
		return refFromUint(EvalUnary(op, refUint(x), xt, t), w)
	case OpNot:
		r := make(vec4, len(x))
		for i, b := range x {
			r[i] = refNotTab[b]
		}
		return r
	case OpLogNot:
		return refBool(w, refNotTab[refFold(&refOrTab, B0, x)])
	case OpRedAnd:
		return refBool(w, refFold(&refAndTab, B1, x))
	case OpRedNand:
		return refBool(w, refNotTab[refFold(&refAndTab, B1, x)])
	case OpRedOr:
		return refBool(w, refFold(&refOrTab, B0, x))
	case OpRedNor:
		return refBool(w, refNotTab[refFold(&refOrTab, B0, x)])
	case OpRedXor:
		return refBool(w, refFold(&refXorTab, B0, x))
	case OpRedXnor:
		return refBool(w, refNotTab[refFold(&refXorTab, B0, x)])
	}
	panic("bad op")
}

// refEq is x == y (11.4.5): the and-reduction of the bitwise ~^, which is
// 0 on a known mismatch, x where a bit is unknown and 1 on a match.
func refEq(x, y vec4) Bit4 {
	return refFold(&refAndTab, B1, refBitwise(&refXnorTab, x, y))
}

// refWildEq is x ==? y (11.4.6): like ==, but a bit that is x or z in y
// matches anything.
func refWildEq(x, y vec4) Bit4 {
	r := B1
	for i := range x {
		if y[i] >= BX {
			continue
		}
		r = refAndTab[r][refXnorTab[x[i]][y[i]]]
	}
	return r
}

func refCaseEq(x, y vec4) bool {
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func refBinary(op BinOp, x, y vec4, xt, yt, t Type) vec4 {
	w := t.Width
	switch op {
	case OpAdd, OpSub, OpMul, OpDiv, OpMod, OpPow:
		// 11.4.3: an x or z bit in an operand makes the whole result x.
		if !refKnown(x) || !refKnown(y) {
			return refAll(w, BX)
		}
		return refFromUint(EvalBinary(op, refUint(x), xt, refUint(y), yt, t), w)
	case OpAnd:
		return refBitwise(&refAndTab, x, y)
	case OpOr:
		return refBitwise(&refOrTab, x, y)
	case OpXor:
		return refBitwise(&refXorTab, x, y)
	case OpXnor:
		return refBitwise(&refXnorTab, x, y)
	case OpShl, OpShr, OpAShr:
		// 11.4.10: an unknown amount gives x; vacated bits are 0, or
		// the sign bit for >>> of a signed value.
		if !refKnown(y) {
			return refAll(w, BX)
		}
		n := refUint(y)
		r := make(vec4, w)
		for i := range r {
			var src int64
			if op == OpShl {
				src = int64(i) - n.Int64()
			} else {
				src = int64(i) + n.Int64()
			}
			switch {
			case n.IsInt64() && src >= 0 && src < int64(w):
				r[i] = x[src]
			case op == OpAShr && t.Signed:
				r[i] = x[w-1]
			default:
				r[i] = B0
			}
		}
		return r
	case OpEq:
		return refBool(w, refEq(x, y))
	case OpNe:
		return refBool(w, refNotTab[refEq(x, y)])
	case OpLt, OpLe, OpGt, OpGe:
		// 11.4.4: an x or z bit in either operand gives x.
		if !refKnown(x) || !refKnown(y) {
			return refBool(w, BX)
		}
		c := refInt(x, xt.Signed).Cmp(refInt(y, yt.Signed))
		ok := map[BinOp]bool{OpLt: c < 0, OpLe: c <= 0, OpGt: c > 0, OpGe: c >= 0}[op]
		if ok {
			return refBool(w, B1)
		}
		return refBool(w, B0)
	}
	panic("bad op")
}

func refCond(c, a, b vec4) vec4 {
	switch refFold(&refOrTab, B0, c) {
	case B1:
		return a
	case B0:
		return b
	}
	return refBitwise(&refMergeTab, a, b)
}

// refCaseMatch is 12.5.1's matching: casez ignores z bits (either side),
// casex x and z bits; case inside matches when ==? gives 1.
func refCaseMatch(kind CaseKind, s, l vec4) bool {
	if kind == CaseInside {
		return refWildEq(s, l) == B1
	}
	for i := range s {
		switch {
		case kind == CaseZ && (s[i] == BZ || l[i] == BZ):
		case kind == CaseX && (s[i] >= BX || l[i] >= BX):
		case s[i] != l[i]:
			return false
		}
	}
	return true
}

func refExtend(x vec4, signExt bool, w int) vec4 {
	r := refAll(w, B0)
	copy(r, x)
	if signExt {
		for i := len(x); i < w; i++ {
			r[i] = x[len(x)-1]
		}
	}
	return r
}

func refSlice(x vec4, lsb, w int) vec4 {
	r := refAll(w, B0)
	for i := range r {
		if lsb+i < len(x) {
			r[i] = x[lsb+i]
		}
	}
	return r
}

func refConcat(parts []vec4) vec4 {
	var r vec4
	for i := len(parts) - 1; i >= 0; i-- {
		r = append(r, parts[i]...)
	}
	return r
}

// mk4 builds a constant from a vector by setting its fields directly.
func mk4(t Type, x vec4) *Const {
	v, xz, z := new(big.Int), new(big.Int), new(big.Int)
	for i, b := range x {
		switch b {
		case B1:
			v.SetBit(v, i, 1)
		case BX:
			xz.SetBit(xz, i, 1)
		case BZ:
			xz.SetBit(xz, i, 1)
			z.SetBit(z, i, 1)
		}
	}
	c := &Const{T: t, Val: v}
	if xz.Sign() != 0 {
		c.U = &Unknown{XZ: xz, Z: z, At: Pos{File: "t.sv", Line: len(x)}}
	}
	return c
}

// vecOf reads a constant's bits from its fields directly.
func vecOf(c *Const) vec4 {
	r := make(vec4, c.T.Width)
	for i := range r {
		r[i] = Bit4(c.Val.Bit(i))
		if c.U != nil && c.U.XZ.Bit(i) == 1 {
			r[i] = BX
			if c.U.Z != nil && c.U.Z.Bit(i) == 1 {
				r[i] = BZ
			}
		}
	}
	return r
}

// lit parses a literal such as 4'b1x0z or 4'sb1x0z (no underscores).
func lit(s string) *Const {
	var w int
	var digits string
	signed := strings.Contains(s, "'s")
	if _, err := fmt.Sscanf(strings.Replace(strings.Replace(s, "'sb", " ", 1), "'b", " ", 1), "%d %s", &w, &digits); err != nil || len(digits) != w {
		panic("bad literal " + s)
	}
	x := make(vec4, w)
	for i := range x {
		x[i] = Bit4(strings.IndexByte(digit4, digits[w-1-i]))
	}
	return mk4(Type{Width: w, Signed: signed}, x)
}

// allVecs lists every four-state vector of width w.
func allVecs(w int) []vec4 {
	n := 1 << (2 * w)
	out := make([]vec4, n)
	for k := range out {
		x := make(vec4, w)
		for i := range x {
			x[i] = Bit4(k >> (2 * i) & 3)
		}
		out[k] = x
	}
	return out
}

// checkNorm checks the normal form NewConst4 promises.
func checkNorm(t *testing.T, what string, c *Const) {
	t.Helper()
	w := c.T.Width
	ok := c.Val != nil && c.Val.Sign() >= 0 && c.Val.BitLen() <= w
	if c.U != nil {
		u := c.U
		ok = ok && u.XZ != nil && u.XZ.Sign() > 0 && u.XZ.BitLen() <= w &&
			new(big.Int).And(c.Val, u.XZ).Sign() == 0 &&
			(u.Z == nil || u.Z.Sign() >= 0 && new(big.Int).AndNot(u.Z, u.XZ).Sign() == 0)
	}
	if !ok {
		t.Fatalf("%s: not normalized: %+v %+v", what, c, c.U)
	}
}

// expect compares got with the reference vector want of type typ.
func expect(t *testing.T, what string, got *Const, typ Type, want vec4) {
	t.Helper()
	checkNorm(t, what, got)
	if got.T != typ {
		t.Fatalf("%s: type %v, want %v", what, got.T, typ)
	}
	if g := vecOf(got); g.String() != want.String() {
		t.Fatalf("%s = %s, want %s", what, g, want)
	}
}

var allUnOps = []UnOp{OpNeg, OpNot, OpLogNot, OpRedAnd, OpRedNand, OpRedOr, OpRedNor, OpRedXor, OpRedXnor}

var sameTypeOps = []BinOp{OpAdd, OpSub, OpMul, OpDiv, OpMod, OpAnd, OpOr, OpXor, OpXnor,
	OpEq, OpNe, OpLt, OpLe, OpGt, OpGe}

// checkUnary compares every unary operator on x with the reference.
func checkUnary(t *testing.T, x vec4, xt Type) {
	t.Helper()
	cx := mk4(xt, x)
	for _, op := range allUnOps {
		rt := Bit
		if op == OpNeg || op == OpNot {
			rt = xt
		}
		expect(t, fmt.Sprintf("%v %v'%s", op, xt, x), FoldUnary(op, cx, rt), rt, refUnary(op, x, xt, rt))
	}
}

// checkSameType compares every operator whose operands share type xt.
func checkSameType(t *testing.T, x, y vec4, xt Type) {
	t.Helper()
	cx, cy := mk4(xt, x), mk4(xt, y)
	name := func(op any) string { return fmt.Sprintf("%v'%s %v %v'%s", xt, x, op, xt, y) }
	for _, op := range sameTypeOps {
		rt := xt
		if op.IsCompare() {
			rt = Bit
		}
		expect(t, name(op), FoldBinary(op, cx, cy, rt), rt, refBinary(op, x, y, xt, xt, rt))
	}
	if got, want := FoldCaseEq(cx, cy), refCaseEq(x, y); got != want {
		t.Fatalf("%s = %v, want %v", name("==="), got, want)
	}
	expect(t, name("==?"), FoldWildEq(cx, cy), Bit, refBool(1, refWildEq(x, y)))
	for _, k := range []CaseKind{CaseEq, CaseZ, CaseX, CaseInside} {
		if got, want := CaseMatch(k, cx, cy), refCaseMatch(k, x, y); got != want {
			t.Fatalf("%s = %v, want %v", name(k), got, want)
		}
	}
}

// checkAmount compares the operators whose right operand is an amount.
func checkAmount(t *testing.T, x, y vec4, xt, yt Type) {
	t.Helper()
	cx, cy := mk4(xt, x), mk4(yt, y)
	for _, op := range []BinOp{OpShl, OpShr, OpAShr, OpPow} {
		if op != OpPow && yt.Signed {
			continue
		}
		expect(t, fmt.Sprintf("%v'%s %v %v'%s", xt, x, op, yt, y), FoldBinary(op, cx, cy, xt), xt,
			refBinary(op, x, y, xt, yt, xt))
	}
}

// checkShape compares the bit-moving operations on x.
func checkShape(t *testing.T, x vec4, xt Type) {
	t.Helper()
	cx := mk4(xt, x)
	w := len(x)
	for nw := w; nw <= w+3; nw++ {
		for _, signExt := range []bool{false, true} {
			for _, s := range []bool{false, true} {
				rt := Type{Width: nw, Signed: s}
				expect(t, fmt.Sprintf("extend(%s, %v) to %v", x, signExt, rt), FoldExtend(cx, signExt, rt), rt, refExtend(x, signExt, nw))
			}
		}
	}
	for nw := 1; nw <= w; nw++ {
		rt := Type{Width: nw}
		expect(t, fmt.Sprintf("trunc(%s) to %v", x, rt), FoldTrunc(cx, rt), rt, x[:nw])
	}
	for lsb := 0; lsb <= w+1; lsb++ {
		for nw := 1; nw <= 3; nw++ {
			rt := Type{Width: nw}
			expect(t, fmt.Sprintf("%s[%d+:%d]", x, lsb, nw), FoldSlice(cx, lsb, rt), rt, refSlice(x, lsb, nw))
		}
	}
	for n := 1; n <= 3; n++ {
		var parts []vec4
		for range n {
			parts = append(parts, x)
		}
		expect(t, fmt.Sprintf("{%d{%s}}", n, x), FoldRepl(cx, n), Type{Width: n * w}, refConcat(parts))
	}
	if got, want := Truth(cx), refFold(&refOrTab, B0, x); got != want {
		t.Fatalf("Truth(%s) = %v, want %v", x, got, want)
	}
	for i := -1; i <= w; i++ {
		want := B0
		if i >= 0 && i < w {
			want = x[i]
		}
		if got := cx.Bit(i); got != want {
			t.Fatalf("%s.Bit(%d) = %v, want %v", x, i, got, want)
		}
	}
	for sel := range 16 {
		want := 0
		for _, b := range x {
			if sel>>b&1 == 1 {
				want++
			}
		}
		if got := CountBits4(cx, sel&1 != 0, sel&2 != 0, sel&4 != 0, sel&8 != 0); got != want {
			t.Fatalf("CountBits4(%s, %04b) = %d, want %d", x, sel, got, want)
		}
	}
	if got, want := FormatBinary(cx), fmt.Sprintf("%d'b%s", w, x); got != want {
		t.Fatalf("FormatBinary = %q, want %q", got, want)
	}
}

func TestFold4Exhaustive(t *testing.T) {
	for w := 1; w <= 3; w++ {
		for _, signed := range []bool{false, true} {
			xt := Type{Width: w, Signed: signed}
			for _, x := range allVecs(w) {
				checkUnary(t, x, xt)
				checkShape(t, x, xt)
				for _, y := range allVecs(w) {
					checkSameType(t, x, y, xt)
				}
				for yw := 1; yw <= 3; yw++ {
					for _, ys := range []bool{false, true} {
						for _, y := range allVecs(yw) {
							checkAmount(t, x, y, xt, Type{Width: yw, Signed: ys})
						}
					}
				}
			}
		}
	}
}

func TestFold4CondExhaustive(t *testing.T) {
	var conds []vec4
	for cw := 1; cw <= 2; cw++ {
		conds = append(conds, allVecs(cw)...)
	}
	for w := 1; w <= 3; w++ {
		at := Type{Width: w, Signed: w == 2}
		for _, c := range conds {
			cc := mk4(Type{Width: len(c)}, c)
			for _, a := range allVecs(w) {
				ca := mk4(at, a)
				for _, b := range allVecs(w) {
					expect(t, fmt.Sprintf("%s ? %s : %s", c, a, b), FoldCond(cc, ca, mk4(at, b), at), at, refCond(c, a, b))
				}
			}
		}
	}
}

func TestFold4ConcatExhaustive(t *testing.T) {
	var vals []vec4
	for w := 1; w <= 2; w++ {
		vals = append(vals, allVecs(w)...)
	}
	for _, a := range vals {
		for _, b := range vals {
			got := FoldConcat([]*Const{mk4(Type{Width: len(a), Signed: true}, a), mk4(Type{Width: len(b)}, b)})
			expect(t, fmt.Sprintf("{%s, %s}", a, b), got, Type{Width: len(a) + len(b)}, refConcat([]vec4{a, b}))
		}
	}
	for _, a := range allVecs(1) {
		for _, b := range allVecs(1) {
			for _, c := range allVecs(1) {
				parts := []vec4{a, b, c}
				got := FoldConcat([]*Const{mk4(Bit, a), mk4(Bit, b), mk4(Bit, c)})
				expect(t, fmt.Sprintf("{%s, %s, %s}", a, b, c), got, Type{Width: 3}, refConcat(parts))
			}
		}
	}
}

// TestFold4KnownIs2State checks that known operands fold exactly as the
// 2-state evaluator does, at widths the exhaustive test does not reach.
func TestFold4KnownIs2State(t *testing.T) {
	xt := Type{Width: 67, Signed: true}
	x := NewConst(xt, new(big.Int).Lsh(big.NewInt(-12345), 40))
	y := NewConst(xt, big.NewInt(-7))
	for _, op := range sameTypeOps {
		rt := xt
		if op.IsCompare() {
			rt = Bit
		}
		got := FoldBinary(op, x, y, rt)
		if want := EvalBinary(op, x.Val, xt, y.Val, xt, rt); got.U != nil || got.Val.Cmp(want) != 0 {
			t.Errorf("%v: %v, want %v", op, got.Val, want)
		}
	}
	for _, op := range allUnOps {
		got := FoldUnary(op, x, xt)
		if want := EvalUnary(op, x.Val, xt, xt); got.U != nil || got.Val.Cmp(want) != 0 {
			t.Errorf("%v: %v, want %v", op, got.Val, want)
		}
	}
	if got := FoldBinary(OpDiv, x, NewConst(xt, new(big.Int)), xt); got.Val.Sign() != 0 || got.U != nil {
		t.Errorf("x/0 = %v, want weft's 2-state 0", got.Val)
	}
}

func TestFold4Spots(t *testing.T) {
	u4 := Type{Width: 4}
	cases := []struct {
		what string
		got  *Const
		want string
	}{
		{"4'b1x01 & 4'b0011", FoldBinary(OpAnd, lit("4'b1x01"), lit("4'b0011"), u4), "4'b0001"},
		{"4'b1x0z | 4'b0101", FoldBinary(OpOr, lit("4'b1x0z"), lit("4'b0101"), u4), "4'b1101"},
		{"4'b1x0z ^ 4'b0101", FoldBinary(OpXor, lit("4'b1x0z"), lit("4'b0101"), u4), "4'b1x0x"},
		{"~4'b1x0z", FoldUnary(OpNot, lit("4'b1x0z"), u4), "4'b0x1x"},
		{"2'b1x == 2'b10", FoldBinary(OpEq, lit("2'b1x"), lit("2'b10"), Bit), "1'bx"},
		{"2'b1x == 2'b00", FoldBinary(OpEq, lit("2'b1x"), lit("2'b00"), Bit), "1'b0"},
		{"2'b1x != 2'b00", FoldBinary(OpNe, lit("2'b1x"), lit("2'b00"), Bit), "1'b1"},
		{"2'b1x < 2'b11", FoldBinary(OpLt, lit("2'b1x"), lit("2'b11"), Bit), "1'bx"},
		{"4'b1010 ==? 4'b1x1z", FoldWildEq(lit("4'b1010"), lit("4'b1x1z")), "1'b1"},
		{"4'b1x10 ==? 4'b1010", FoldWildEq(lit("4'b1x10"), lit("4'b1010")), "1'bx"},
		{"4'b1x10 ==? 4'b0x1x", FoldWildEq(lit("4'b1x10"), lit("4'b0x1x")), "1'b0"},
		{"1'bx ? 4'b1100 : 4'b1010", FoldCond(lit("1'bx"), lit("4'b1100"), lit("4'b1010"), u4), "4'b1xx0"},
		{"1'bz ? 4'bz0z1 : 4'bzz11", FoldCond(lit("1'bz"), lit("4'bz0z1"), lit("4'bzz11"), u4), "4'bxxx1"},
		{"1'b1 ? 4'bz0z1 : 4'bzz11", FoldCond(lit("1'b1"), lit("4'bz0z1"), lit("4'bzz11"), u4), "4'bz0z1"},
		{"&4'b1x11", FoldUnary(OpRedAnd, lit("4'b1x11"), Bit), "1'bx"},
		{"&4'b0x11", FoldUnary(OpRedAnd, lit("4'b0x11"), Bit), "1'b0"},
		{"~&4'b0x11", FoldUnary(OpRedNand, lit("4'b0x11"), Bit), "1'b1"},
		{"|4'b0x00", FoldUnary(OpRedOr, lit("4'b0x00"), Bit), "1'bx"},
		{"|4'b0z10", FoldUnary(OpRedOr, lit("4'b0z10"), Bit), "1'b1"},
		{"^4'b0z10", FoldUnary(OpRedXor, lit("4'b0z10"), Bit), "1'bx"},
		{"!4'b0z00", FoldUnary(OpLogNot, lit("4'b0z00"), Bit), "1'bx"},
		{"!4'b0z01", FoldUnary(OpLogNot, lit("4'b0z01"), Bit), "1'b0"},
		{"4'b0001 + 4'b000x", FoldBinary(OpAdd, lit("4'b0001"), lit("4'b000x"), u4), "4'bxxxx"},
		{"-4'b000z", FoldUnary(OpNeg, lit("4'b000z"), u4), "4'bxxxx"},
		{"4'b0011 ** 4'b000x", FoldBinary(OpPow, lit("4'b0011"), lit("4'b000x"), u4), "4'bxxxx"},
		{"4'b1xz0 << 1", FoldBinary(OpShl, lit("4'b1xz0"), lit("2'b01"), u4), "4'bxz00"},
		{"4'b1xz0 >> 2", FoldBinary(OpShr, lit("4'b1xz0"), lit("2'b10"), u4), "4'b001x"},
		{"4'sbz100 >>> 2", FoldBinary(OpAShr, lit("4'sbz100"), lit("2'b10"), Type{Width: 4, Signed: true}), "4'bzzz1"},
		{"4'sbx100 >>> 9", FoldBinary(OpAShr, lit("4'sbx100"), lit("4'b1001"), Type{Width: 4, Signed: true}), "4'bxxxx"},
		{"4'b0001 << 2'b0x", FoldBinary(OpShl, lit("4'b0001"), lit("2'b0x"), u4), "4'bxxxx"},
		{"{2'bz1, 1'b0, 2'b1x}", FoldConcat([]*Const{lit("2'bz1"), lit("1'b0"), lit("2'b1x")}), "5'bz101x"},
		{"{3{2'bz1}}", FoldRepl(lit("2'bz1"), 3), "6'bz1z1z1"},
		{"signed 2'bz1 extended", FoldExtend(lit("2'sbz1"), true, Type{Width: 5, Signed: true}), "5'bzzzz1"},
		{"signed 2'bx0 extended", FoldExtend(lit("2'sbx0"), true, u4), "4'bxxx0"},
		{"2'bz1 zero-extended", FoldExtend(lit("2'bz1"), false, u4), "4'b00z1"},
		{"4'b1xz0[2:1]", FoldSlice(lit("4'b1xz0"), 1, Type{Width: 2}), "2'bxz"},
		{"4'b1xz0[5:2]", FoldSlice(lit("4'b1xz0"), 2, u4), "4'b001x"},
	}
	for _, c := range cases {
		checkNorm(t, c.what, c.got)
		if got := FormatBinary(c.got); got != c.want {
			t.Errorf("%s = %s, want %s", c.what, got, c.want)
		}
	}
	if FoldCaseEq(lit("2'b1x"), lit("2'b10")) {
		t.Errorf("2'b1x === 2'b10 is 1, want 0")
	}
	if !FoldCaseEq(lit("2'b1x"), lit("2'b1x")) || FoldCaseEq(lit("2'b1x"), lit("2'b1z")) {
		t.Errorf("=== does not tell x from z")
	}
	v := lit("4'b1xz0")
	for _, c := range []struct {
		zeros, ones, xs, zs bool
		want                int
	}{{false, false, true, false, 1}, {false, false, false, true, 1}, {true, true, false, false, 2},
		{true, false, true, true, 3}, {true, true, true, true, 4}, {false, false, false, false, 0}} {
		if got := CountBits4(v, c.zeros, c.ones, c.xs, c.zs); got != c.want {
			t.Errorf("$countbits(4'b1xz0, %+v) = %d, want %d", c, got, c.want)
		}
	}
	for _, c := range []struct {
		kind       CaseKind
		sel, label string
		want       bool
	}{
		{CaseEq, "4'b10x1", "4'b10x1", true},
		{CaseEq, "4'b10x1", "4'b10z1", false},
		{CaseZ, "4'b1001", "4'b10zz", true},
		{CaseZ, "4'b10z1", "4'b1001", true},
		{CaseZ, "4'b10x1", "4'b1001", false},
		{CaseZ, "4'b10x1", "4'b10x1", true},
		{CaseX, "4'b10x1", "4'b1001", true},
		{CaseX, "4'b1001", "4'b1x0z", true},
		{CaseX, "4'b1111", "4'b1x0z", false},
		{CaseInside, "4'b1001", "4'b1x0z", true},
		{CaseInside, "4'b1x01", "4'b1001", false},
		{CaseInside, "4'b1x01", "4'b1x01", true},
	} {
		if got := CaseMatch(c.kind, lit(c.sel), lit(c.label)); got != c.want {
			t.Errorf("%v %s matches %s: %v, want %v", c.kind, c.sel, c.label, got, c.want)
		}
	}
	if Truth(lit("3'bx10")) != B1 || Truth(lit("3'bx00")) != BX || Truth(lit("3'b000")) != B0 || Truth(lit("1'bz")) != BX {
		t.Errorf("Truth is wrong")
	}
}

func TestNewConst4Normalizes(t *testing.T) {
	at := Pos{File: "a.sv", Line: 3}
	u4 := Type{Width: 4}
	// Value bits under x/z are cleared, z bits join xz, excess bits and
	// negative inputs are masked.
	c := NewConst4(u4, big.NewInt(-1), big.NewInt(0b10010), big.NewInt(0b100100), at)
	checkNorm(t, "NewConst4", c)
	if got := FormatBinary(c); got != "4'b1zx1" {
		t.Errorf("NewConst4 = %s, want 4'b1zx1", got)
	}
	if c.U.At != at {
		t.Errorf("At = %v, want %v", c.U.At, at)
	}
	// No x/z bit within the width: U is nil.
	for _, k := range []*Const{
		NewConst4(u4, big.NewInt(5), nil, nil, at),
		NewConst4(u4, big.NewInt(5), big.NewInt(0), big.NewInt(0), at),
		NewConst4(u4, big.NewInt(5), big.NewInt(0b110000), big.NewInt(0b100000), at),
		NewConst4(u4, nil, nil, nil, at),
	} {
		checkNorm(t, "NewConst4", k)
		if k.U != nil || !k.Known() {
			t.Errorf("NewConst4 kept U %+v", k.U)
		}
	}
	// XZBits and ZBits copy.
	c = lit("4'bz1x0")
	xz, z := c.XZBits(), c.ZBits()
	if xz.Int64() != 0b1010 || z.Int64() != 0b1000 {
		t.Errorf("XZBits, ZBits = %b, %b", xz, z)
	}
	xz.SetInt64(0)
	z.SetInt64(0)
	if FormatBinary(c) != "4'bz1x0" {
		t.Errorf("writing XZBits/ZBits changed the constant")
	}
	k := lit("4'b0110")
	if k.XZBits().Sign() != 0 || k.ZBits().Sign() != 0 || lit("4'b0x10").ZBits().Sign() != 0 {
		t.Errorf("XZBits/ZBits of a known constant not zero")
	}
	// Results name the first unknown operand.
	x, y := lit("2'b1x"), lit("2'bz1")
	x.U.At, y.U.At = Pos{Line: 1}, Pos{Line: 2}
	if r := FoldBinary(OpAdd, x, y, Type{Width: 2}); r.U.At != x.U.At {
		t.Errorf("At = %v, want %v", r.U.At, x.U.At)
	}
	if r := FoldBinary(OpAdd, lit("2'b11"), y, Type{Width: 2}); r.U.At != y.U.At {
		t.Errorf("At = %v, want %v", r.U.At, y.U.At)
	}
}

// TestFold4Wide folds constants of 10^6 bits: quadratic or per-bit
// big.Int work would take minutes here, linear work takes milliseconds.
// No time is measured; the checks are on the results.
func TestFold4Wide(t *testing.T) {
	const n = 250000 // copies of a 4-bit pattern: 10^6 bits
	pa, pb, pc := lit("4'b1x0z"), lit("4'b1001"), lit("4'b0110")
	a, b, cc := FoldRepl(pa, n), FoldRepl(pb, n), FoldRepl(pc, n)
	w := Type{Width: 4 * n}
	same := func(what string, got, small *Const) {
		t.Helper()
		checkNorm(t, what, got)
		if want := FoldRepl(small, n); !FoldCaseEq(got, want) {
			t.Errorf("%s differs from %d copies of %s", what, n, FormatBinary(small))
		}
	}
	u4 := Type{Width: 4}
	for _, op := range []BinOp{OpAnd, OpOr, OpXor, OpXnor} {
		same(op.String(), FoldBinary(op, a, b, w), FoldBinary(op, pa, pb, u4))
	}
	same("not", FoldUnary(OpNot, a, w), FoldUnary(OpNot, pa, u4))
	same("cond", FoldCond(lit("1'bx"), a, b, w), FoldCond(lit("1'bx"), pa, pb, u4))
	shl := FoldBinary(OpShl, a, ConstInt(Type{Width: 32}, 8), w)
	checkNorm(t, "shl", shl)
	if !FoldCaseEq(shl, FoldConcat([]*Const{FoldTrunc(a, Type{Width: 4*n - 8}), lit("8'b00000000")})) {
		t.Errorf("wide shift is wrong")
	}
	shr := FoldBinary(OpAShr, FoldExtend(a, false, Type{Width: 4 * n, Signed: true}), ConstInt(Type{Width: 32}, 4*n-4), Type{Width: 4 * n, Signed: true})
	if CountBits4(shr, false, true, false, false) != 4*n-3 || FormatBinary(FoldTrunc(shr, u4)) != "4'b1x0z" {
		t.Errorf("wide arithmetic shift is wrong")
	}
	if CountBits4(a, false, false, true, false) != n || CountBits4(a, false, false, false, true) != n ||
		CountBits4(a, true, true, false, false) != 2*n {
		t.Errorf("CountBits4 of the wide value is wrong")
	}
	for op, want := range map[UnOp]string{OpRedAnd: "1'b0", OpRedOr: "1'b1", OpRedXor: "1'bx", OpLogNot: "1'b0"} {
		if got := FormatBinary(FoldUnary(op, a, Bit)); got != want {
			t.Errorf("%v = %s, want %s", op, got, want)
		}
	}
	if got := FormatBinary(FoldBinary(OpEq, a, a, Bit)); got != "1'bx" {
		t.Errorf("a == a = %s, want 1'bx", got)
	}
	if got := FormatBinary(FoldBinary(OpEq, a, b, Bit)); got != "1'bx" {
		t.Errorf("a == b = %s, want 1'bx", got)
	}
	if got := FormatBinary(FoldBinary(OpNe, a, cc, Bit)); got != "1'b1" {
		t.Errorf("a != c = %s, want 1'b1", got)
	}
	if got := FormatBinary(FoldBinary(OpAdd, a, b, w)); got != FormatBinary(FoldRepl(lit("4'bxxxx"), n)) {
		t.Errorf("a + b is not all x")
	}
	if !FoldCaseEq(a, a) || FoldCaseEq(a, b) || !CaseMatch(CaseX, a, b) || CaseMatch(CaseZ, a, b) {
		t.Errorf("wide case matching is wrong")
	}
	if Truth(FoldWildEq(cc, a)) != B0 || Truth(FoldWildEq(b, a)) != B1 || Truth(FoldWildEq(a, b)) != BX ||
		Truth(FoldWildEq(a, FoldRepl(lit("4'bxxxx"), n))) != B1 {
		t.Errorf("wide ==? is wrong")
	}
	parts := make([]*Const, 1000)
	for i := range parts {
		parts[i] = FoldRepl(pa, 250)
	}
	same("concat", FoldConcat(parts), pa)
	same("slice", FoldSlice(FoldConcat([]*Const{b, a, b}), 4*n, w), pa)
	e := FoldExtend(FoldRepl(lit("4'bz001"), n), true, Type{Width: 8 * n, Signed: true})
	if CountBits4(e, false, false, false, true) != 5*n || e.Bit(8*n-1) != BZ {
		t.Errorf("wide sign extension is wrong")
	}
	if s := FormatBinary(a); len(s) != len("1000000'b")+4*n || !strings.HasPrefix(s, "1000000'b1x0z1x0z") {
		t.Errorf("FormatBinary of the wide value is wrong")
	}
}

// digitsOf reads a four-state vector of width w from data, two bits a digit.
func digitsOf(data []byte, w int) vec4 {
	x := make(vec4, w)
	for i := range x {
		if i/4 < len(data) {
			x[i] = Bit4(data[i/4] >> (2 * (i % 4)) & 3)
		}
	}
	return x
}

func FuzzFold4(f *testing.F) {
	f.Add(uint8(0), uint8(3), false, []byte{0x1b}, []byte{0xe4}, []byte{0x01})
	f.Add(uint8(1), uint8(64), true, []byte{0xff, 0x00, 0x55, 0xaa, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44},
		[]byte{0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55}, []byte{0x32})
	f.Add(uint8(2), uint8(65), true, []byte{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03},
		[]byte{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}, []byte{0x11, 0x02})
	f.Add(uint8(3), uint8(70), false, []byte{0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x24},
		[]byte{0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x34}, []byte{0x07})
	f.Add(uint8(4), uint8(127), true, []byte{0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xfa},
		[]byte{0xa5}, []byte{0x2a, 0x15})
	f.Add(uint8(5), uint8(33), true, []byte{0xf1, 0x10, 0x00, 0x0c}, []byte{0xf1, 0x10, 0x00, 0x0c}, []byte{0xff})
	f.Fuzz(func(t *testing.T, sel, width uint8, signed bool, xd, yd, ad []byte) {
		w := int(width)%70 + 1
		xt := Type{Width: w, Signed: signed}
		x, y := digitsOf(xd, w), digitsOf(yd, w)
		checkUnary(t, x, xt)
		checkSameType(t, x, y, xt)
		// The amount: 1 to 8 bits from ad (amounts below and above w).
		aw := int(sel)%8 + 1
		amt := digitsOf(ad, aw)
		checkAmount(t, x, amt, xt, Type{Width: aw})
		checkAmount(t, x, amt, xt, Type{Width: aw, Signed: true})
		c := digitsOf(ad, 1+int(sel>>3)%2)
		expect(t, fmt.Sprintf("%s ? %s : %s", c, x, y), FoldCond(mk4(Type{Width: len(c)}, c), mk4(xt, x), mk4(xt, y), xt), xt, refCond(c, x, y))
		cx := mk4(xt, x)
		for _, nw := range []int{w, w + 1, w + 67} {
			rt := Type{Width: nw, Signed: signed}
			expect(t, "extend", FoldExtend(cx, signed, rt), rt, refExtend(x, signed, nw))
		}
		lsb, nw := int(sel)%(w+2), 1+int(sel>>4)%70
		expect(t, "trunc", FoldTrunc(cx, Type{Width: 1 + lsb%w}), Type{Width: 1 + lsb%w}, x[:1+lsb%w])
		expect(t, "slice", FoldSlice(cx, lsb, Type{Width: nw}), Type{Width: nw}, refSlice(x, lsb, nw))
		parts := []vec4{x, amt, y}
		expect(t, "concat", FoldConcat([]*Const{cx, mk4(Type{Width: aw}, amt), mk4(xt, y)}), Type{Width: 2*w + aw}, refConcat(parts))
		expect(t, "repl", FoldRepl(cx, 3), Type{Width: 3 * w}, refConcat([]vec4{x, x, x}))
		want := 0
		for _, b := range x {
			if sel>>b&1 == 1 {
				want++
			}
		}
		if got := CountBits4(cx, sel&1 != 0, sel&2 != 0, sel&4 != 0, sel&8 != 0); got != want {
			t.Fatalf("CountBits4 = %d, want %d", got, want)
		}
		if got, want := FormatBinary(cx), fmt.Sprintf("%d'b%s", w, x); got != want {
			t.Fatalf("FormatBinary = %q, want %q", got, want)
		}
	})
}
