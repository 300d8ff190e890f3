package sir_test

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

// wideUnit loads x (h0) and y (h1) as word tuples of width W and stores
// x+y, x-y, x*y, x/y, x%y (unsigned), x/y, x%y (signed), x<y and x*y
// (MulWideMem) into h2..h10; h11 is the helpers' scratch; h12..h17 get
// x << a, x >> a and x >>> a (ShiftWideMem) for a = y mod 2048, then for
// a = the low 64 bits of y.
func wideUnit(W int) *sir.Unit {
	b := sir.NewBuilder("wide")
	n := (W + 63) / 64
	load := func(h sir.HomeID) []sir.Reg {
		ws := make([]sir.Reg, n)
		for i := range ws {
			w := 64
			if i == n-1 {
				w = W - 64*i
			}
			ws[i] = b.Load(w, 8, sir.Addr{Home: h, Offset: 8 * i})
		}
		return ws
	}
	store := func(h sir.HomeID, ws []sir.Reg) {
		for i, r := range ws {
			b.Store(8, sir.Addr{Home: h, Offset: 8 * i}, r)
		}
	}
	x, y := load(0), load(1)
	store(2, b.AddWide(x, y))
	store(3, b.SubWide(x, y))
	if n <= 8 {
		store(4, b.MulWide(x, y))
	} else {
		store(4, b.MulWideMem(x, y, sir.Addr{Home: 11}))
	}
	scratch := sir.Addr{Home: 11, Offset: 8}
	q, r := b.DivRemWide(x, y, false, scratch)
	store(5, q)
	store(6, r)
	q, r = b.DivRemWide(x, y, true, scratch)
	store(7, q)
	store(8, r)
	store(9, []sir.Reg{b.ULtWide(x, y)})
	store(10, b.MulWideMem(x, y, scratch))
	amts := []sir.Reg{b.And(b.ZExt(64, y[0]), b.Const(64, 2047)), b.ZExt(64, y[0])}
	for i, amt := range amts {
		for j, op := range []sir.Op{sir.OpShl, sir.OpLShr, sir.OpAShr} {
			store(sir.HomeID(12+3*i+j), b.ShiftWideMem(op, x, amt, scratch))
		}
	}
	b.Return(sir.StatusOK)
	u, err := b.Finish()
	if err != nil {
		panic(err)
	}
	return u
}

func toWords(v *big.Int, n int) []uint64 {
	ws := make([]uint64, n)
	t := new(big.Int).Set(v)
	m := new(big.Int).SetUint64(^uint64(0))
	for i := range ws {
		ws[i] = new(big.Int).And(t, m).Uint64()
		t.Rsh(t, 64)
	}
	return ws
}

func TestWideArithmetic(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	iters := 60
	if testing.Short() {
		iters = 15
	}
	for _, W := range []int{8, 64, 65, 100, 128, 200, 257, 700, 1500} {
		n := (W + 63) / 64
		u := wideUnit(W)
		sizes := make([]int, 18)
		for i := range sizes {
			sizes[i] = 8 * n
		}
		sizes[11] = 8 + max(sir.MulWideScratch(n), sir.DivRemWideScratch(n), sir.ShiftWideScratch(n))
		l, size := sir.PackedLayout(sizes, 0)
		f, err := interp.Compile(u, l, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mod := new(big.Int).Lsh(big.NewInt(1), uint(W))
		half := new(big.Int).Rsh(mod, 1)
		wrap := func(v *big.Int) *big.Int { return new(big.Int).Mod(v, mod) }
		signed := func(v *big.Int) *big.Int {
			if v.Cmp(half) >= 0 {
				return new(big.Int).Sub(v, mod)
			}
			return v
		}
		// digits builds a value from 32-bit digits that stress algorithm
		// D's quotient estimate and add-back step.
		digits := func() *big.Int {
			v := new(big.Int)
			for i := rng.Intn((W+31)/32) + 1; i > 0; i-- {
				d := []int64{0, 1, 0x7fffffff, 0x80000000, 0xffffffff, rng.Int63n(1 << 32)}[rng.Intn(6)]
				v.Lsh(v, 32)
				v.Or(v, big.NewInt(d))
			}
			return wrap(v)
		}
		rnd := func() *big.Int {
			switch rng.Intn(8) {
			case 6, 7:
				return digits()
			case 0:
				return big.NewInt(int64(rng.Intn(5)))
			case 1:
				return new(big.Int).Sub(mod, big.NewInt(int64(1+rng.Intn(3)))) // -1, -2, -3
			case 2:
				return new(big.Int).Set(half) // MIN
			case 3:
				return new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(W))))
			}
			return new(big.Int).Rand(rng, mod)
		}
		state := make([]byte, size)
		// Hacker's Delight's divmnu cases on 32-bit digits: qhat corrected
		// by the third digit, and one that needs the add-back step.
		hex := func(s string) *big.Int { v, _ := new(big.Int).SetString(s, 16); return wrap(v) }
		fixed := [][2]*big.Int{
			{hex("800000000000000000000003"), hex("200000000000000000000001")},
			{hex("7fffffff800000000000000000000000"), hex("800000000000000000000001")},
			{hex("7fffffff800000000000000000000000"), hex("800000000000000000000000")},
		}
		for it := 0; it < iters+len(fixed); it++ {
			var x, y *big.Int
			if it < len(fixed) {
				x, y = fixed[it][0], fixed[it][1]
			} else {
				x, y = rnd(), rnd()
			}
			clear(state)
			for i, w := range toWords(x, n) {
				binary.LittleEndian.PutUint64(state[l.Offsets[0]+8*i:], w)
			}
			for i, w := range toWords(y, n) {
				binary.LittleEndian.PutUint64(state[l.Offsets[1]+8*i:], w)
			}
			if st := f.Run(state); st != sir.StatusOK {
				t.Fatalf("W=%d: status %v", W, st)
			}
			get := func(h sir.HomeID) *big.Int {
				v := new(big.Int)
				for i := n - 1; i >= 0; i-- {
					v.Lsh(v, 64)
					v.Or(v, new(big.Int).SetUint64(binary.LittleEndian.Uint64(state[l.Offsets[h]+8*i:])))
				}
				return v
			}
			div := func(a, b *big.Int, quo bool) *big.Int {
				if b.Sign() == 0 {
					return big.NewInt(0)
				}
				if quo {
					return wrap(new(big.Int).Quo(a, b))
				}
				return wrap(new(big.Int).Rem(a, b))
			}
			lt := big.NewInt(0)
			if x.Cmp(y) < 0 {
				lt = big.NewInt(1)
			}
			want := map[sir.HomeID]*big.Int{
				2:  wrap(new(big.Int).Add(x, y)),
				3:  wrap(new(big.Int).Sub(x, y)),
				4:  wrap(new(big.Int).Mul(x, y)),
				5:  div(x, y, true),
				6:  div(x, y, false),
				7:  div(signed(x), signed(y), true),
				8:  div(signed(x), signed(y), false),
				9:  lt,
				10: wrap(new(big.Int).Mul(x, y)),
			}
			names := map[sir.HomeID]string{2: "add", 3: "sub", 4: "mul", 5: "divu", 6: "remu", 7: "divs", 8: "rems", 9: "ult", 10: "mulmem"}
			low := new(big.Int).And(y, new(big.Int).SetUint64(^uint64(0)))
			for i, a := range []*big.Int{new(big.Int).And(y, big.NewInt(2047)), low} {
				sa := uint(W)
				if a.Cmp(big.NewInt(int64(W))) < 0 {
					sa = uint(a.Int64())
				}
				h := sir.HomeID(12 + 3*i)
				want[h] = wrap(new(big.Int).Lsh(x, sa))
				want[h+1] = new(big.Int).Rsh(x, sa)
				want[h+2] = wrap(new(big.Int).Rsh(signed(x), sa))
				names[h], names[h+1], names[h+2] = fmt.Sprintf("shl%d", i), fmt.Sprintf("lshr%d", i), fmt.Sprintf("ashr%d", i)
			}
			for h := sir.HomeID(2); h <= 17; h++ {
				if h == 11 {
					continue // scratch
				}
				if got := get(h); got.Cmp(want[h]) != 0 {
					t.Errorf("W=%d %s(%#x, %#x) = %#x, want %#x", W, names[h], x, y, got, want[h])
				}
			}
		}
	}
}
