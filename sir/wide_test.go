package sir_test

import (
	"encoding/binary"
	"math/big"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

// wideUnit loads x (h0) and y (h1) as word tuples of width W and stores
// x+y, x-y, x*y, x/y, x%y (unsigned), x/y, x%y (signed) and x<y into h2..h9.
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
	store(4, b.MulWide(x, y))
	q, r := b.DivRemWide(x, y, false)
	store(5, q)
	store(6, r)
	q, r = b.DivRemWide(x, y, true)
	store(7, q)
	store(8, r)
	store(9, []sir.Reg{b.ULtWide(x, y)})
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
	for _, W := range []int{8, 64, 65, 100, 128, 200} {
		n := (W + 63) / 64
		u := wideUnit(W)
		sizes := make([]int, 10)
		for i := range sizes {
			sizes[i] = 8 * n
		}
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
		rnd := func() *big.Int {
			switch rng.Intn(6) {
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
		for it := 0; it < iters; it++ {
			x, y := rnd(), rnd()
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
				2: wrap(new(big.Int).Add(x, y)),
				3: wrap(new(big.Int).Sub(x, y)),
				4: wrap(new(big.Int).Mul(x, y)),
				5: div(x, y, true),
				6: div(x, y, false),
				7: div(signed(x), signed(y), true),
				8: div(signed(x), signed(y), false),
				9: lt,
			}
			names := map[sir.HomeID]string{2: "add", 3: "sub", 4: "mul", 5: "divu", 6: "remu", 7: "divs", 8: "rems", 9: "ult"}
			for h := sir.HomeID(2); h <= 9; h++ {
				if got := get(h); got.Cmp(want[h]) != 0 {
					t.Errorf("W=%d %s(%#x, %#x) = %#x, want %#x", W, names[h], x, y, got, want[h])
				}
			}
		}
	}
}
