package design

import (
	"errors"
	"github.com/weft-hdl/weft/internal/bound"
	"math/big"
	"math/rand"
	"testing"
	"time"
)

// concatShift is the concatenation the way it was built before ConcatBits:
// shift what is built, or in the next part.
func concatShift(vals []*big.Int, widths []int) *big.Int {
	r := new(big.Int)
	for i, v := range vals {
		r.Lsh(r, uint(widths[i]))
		r.Or(r, Mask(v, widths[i]))
	}
	return r
}

func TestConcatAndReplicateBits(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 500; round++ {
		n := 1 + rng.Intn(8)
		vals := make([]*big.Int, n)
		widths := make([]int, n)
		for i := range vals {
			widths[i] = 1 + rng.Intn(200)
			v := new(big.Int).Rand(rng, new(big.Int).Lsh(one, uint(widths[i]+rng.Intn(3))))
			vals[i] = v // sometimes wider than its width: the excess is dropped
		}
		if got, want := ConcatBits(vals, widths), concatShift(vals, widths); got.Cmp(want) != 0 {
			t.Fatalf("ConcatBits(%v, %v) = %x, want %x", vals, widths, got, want)
		}
		k := 1 + rng.Intn(70)
		rep := make([]*big.Int, k)
		rw := make([]int, k)
		for i := range rep {
			rep[i], rw[i] = vals[0], widths[0]
		}
		if got, want := ReplicateBits(vals[0], widths[0], k), concatShift(rep, rw); got.Cmp(want) != 0 {
			t.Fatalf("ReplicateBits(%v, %d, %d) = %x, want %x", vals[0], widths[0], k, got, want)
		}
	}
	if v := ReplicateBits(big.NewInt(1), 1, 6_000_000); v.Cmp(Ones(6_000_000)) != 0 {
		t.Error("6000000 copies of 1'b1")
	}
	// Linear in the copies: 8 times the copies take about 8 times the CPU
	// time; shifting the value built so far once per copy took 64 times
	// (and minutes at this size). Measured in CPU time, the two sizes back
	// to back, so that a loaded machine slows both alike.
	small := bound.CPUPerRun(func() { ReplicateBits(big.NewInt(1), 1, 750_000) })
	large := bound.CPUPerRun(func() { ReplicateBits(big.NewInt(1), 1, 6_000_000) })
	ratio := float64(large) / float64(max(small, time.Microsecond))
	t.Logf("750000 copies: %v of CPU, 6000000: %v (%.1fx)", small, large, ratio)
	if ratio > 30 {
		t.Errorf("6000000 copies of 1'b1 take %.1f times the CPU time of 750000 (%v, %v): not linear", ratio, large, small)
	}
}

// x ** y modulo 2^w with the exponent reduced must equal the plain power.
func TestPowReducedExponent(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for round := 0; round < 300; round++ {
		w := 1 + rng.Intn(20)
		ty := Type{Width: w}
		x := big.NewInt(rng.Int63n(1 << w))
		ew := w + 1 + rng.Intn(12) // an exponent of more than w bits
		y := new(big.Int).Rand(rng, new(big.Int).Lsh(one, uint(ew)))
		yt := Type{Width: ew}
		want := new(big.Int).Exp(x, y, new(big.Int).Lsh(one, uint(w)))
		if got := EvalBinary(OpPow, x, ty, y, yt, ty); got.Cmp(want) != 0 {
			t.Fatalf("%v ** %v at %d bits = %v, want %v", x, y, w, got, want)
		}
	}
}

func TestBudget(t *testing.T) {
	b := &Budget{MaxSteps: 3, MaxBits: 100}
	for i := 0; i < 3; i++ {
		if err := b.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var be *BudgetError
	if err := b.Step(); !errors.As(err, &be) || be.Unit != "steps" || err.Error() != "constant evaluation needs more than 3 steps" {
		t.Errorf("fourth step: %v", err)
	}
	if err := b.Spend(100); err != nil {
		t.Fatal(err)
	}
	if err := b.Spend(1); !errors.As(err, &be) || be.Unit != "bits" {
		t.Errorf("bit 101: %v", err)
	}
	if err := b.Spend(1 << 62); err == nil || b.Bits < 0 {
		t.Errorf("overflowing spend: %v, %d bits", err, b.Bits)
	}
	var none *Budget
	if none.Step() != nil || none.Spend(1<<40) != nil {
		t.Error("a nil budget limits nothing")
	}

	// The cost of a power follows the squarings the reduced exponent needs;
	// the cost of a product the operands' lengths, not the width alone.
	w := 1 << 24
	big24 := Ones(w)
	if c := OpCost(OpPow, big24, Type{Width: w}, big24, Type{Width: w}); c < 1<<40 {
		t.Errorf("a power of 16-Mbit values costs only %d", c)
	}
	if c := OpCost(OpMod, big24, Type{Width: w}, big.NewInt(7), Type{Width: w}); c > 1<<26 {
		t.Errorf("a 16-Mbit value modulo 7 costs %d, want about its width", c)
	}
	if c := OpCost(OpAdd, big24, Type{Width: w}, big24, Type{Width: w}); c != int64(w) {
		t.Errorf("an addition costs %d, want its width", c)
	}
}

// The machine charges its budget and stops when it runs out.
func TestMachineBudget(t *testing.T) {
	h := &Home{Name: "x", Width: 1 << 20}
	m := NewMachine()
	m.Budget = &Budget{MaxBits: 10 << 20}
	x := &HomeRef{Home: h}
	m.Set(h, 0, Ones(1<<20))
	var e Expr = x
	for i := 0; i < 20; i++ {
		e = &Binary{Op: OpAdd, X: e, Y: x, T: Type{Width: 1 << 20}}
	}
	_, err := m.Eval(e)
	var be *BudgetError
	if !errors.As(err, &be) || be.Unit != "bits" {
		t.Errorf("20 additions of 1-Mbit values under a 10-Mbit budget: %v", err)
	}
}
