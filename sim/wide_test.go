package sim_test

import (
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"math/big"
	"math/rand"
	"runtime"
	"strconv"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/kernels"
)

// wideOps computes x*y, x/y and x%y unsigned and signed, and x shifted by
// the low 12 bits of y, at width W in flops on clk, in two instances (so that partitioned kernels have work
// for two lanes): u0 on x and y, u1 on y and x.
const wideOps = `
module t #(parameter int W = 600) (input logic clk, input logic [W-1:0] x, y,
  output logic [W-1:0] p, q, r, sp, sq, sr, shl, shr, sha,
  output logic [W-1:0] p1, q1, r1, sp1, sq1, sr1, shl1, shr1, sha1);
  ops #(W) u0 (.clk, .x, .y, .p, .q, .r, .sp, .sq, .sr, .shl, .shr, .sha);
  ops #(W) u1 (.clk, .x(y), .y(x), .p(p1), .q(q1), .r(r1), .sp(sp1), .sq(sq1), .sr(sr1),
    .shl(shl1), .shr(shr1), .sha(sha1));
endmodule
module ops #(parameter int W = 8) (input logic clk, input logic [W-1:0] x, y,
  output logic [W-1:0] p, q, r, sp, sq, sr, shl, shr, sha);
  logic signed [W-1:0] sx, sy;
  assign sx = x;
  assign sy = y;
  always_ff @(posedge clk) begin
    p <= x * y; q <= x / y; r <= x % y;
    sp <= sx * sy; sq <= sx / sy; sr <= sx % sy;
    shl <= x << y[11:0]; shr <= x >> y[11:0]; sha <= sx >>> y[11:0];
  end
endmodule`

// wideWant is what wideOps computes for x and y at width W.
func wideWant(W int, x, y *big.Int) map[string]*big.Int {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(W))
	half := new(big.Int).Rsh(mod, 1)
	wrap := func(v *big.Int) *big.Int { return new(big.Int).Mod(v, mod) }
	signed := func(v *big.Int) *big.Int {
		if v.Cmp(half) >= 0 {
			return new(big.Int).Sub(v, mod)
		}
		return v
	}
	div := func(a, b *big.Int, quo bool) *big.Int {
		switch {
		case b.Sign() == 0:
			return new(big.Int)
		case quo:
			return wrap(new(big.Int).Quo(a, b))
		}
		return wrap(new(big.Int).Rem(a, b))
	}
	sx, sy := signed(x), signed(y)
	n := uint(new(big.Int).And(y, big.NewInt(4095)).Int64())
	return map[string]*big.Int{
		"p": wrap(new(big.Int).Mul(x, y)), "q": div(x, y, true), "r": div(x, y, false),
		"sp": wrap(new(big.Int).Mul(sx, sy)), "sq": div(sx, sy, true), "sr": div(sx, sy, false),
		"shl": wrap(new(big.Int).Lsh(x, n)), "shr": new(big.Int).Rsh(x, n), "sha": wrap(new(big.Int).Rsh(sx, n)),
	}
}

func bigWords(v *big.Int, W int) []uint64 {
	ws := make([]uint64, (W+63)/64)
	for i := range ws {
		ws[i] = new(big.Int).Rsh(v, uint(64*i)).Uint64()
	}
	return ws
}

// wideBackends are the ways a wide-arithmetic design is compared: the
// interpreter, native code, and native code partitioned over 2 lanes (each
// lane's tasks have their own scratch for the multiply and divide loops).
var wideBackends = []struct {
	name string
	opt  func(*compile.Builder)
}{
	{"interp", func(b *compile.Builder) { b.Backend(compile.BackendInterp) }},
	{"native", func(b *compile.Builder) { b.Backend(compile.BackendNative) }},
	{"native-2lanes", func(b *compile.Builder) {
		b.Backend(compile.BackendNative).Lanes(2).Partition(compile.PartitionAlways)
	}},
}

// Wide multiply, divide and shift (sir.MulWide below 9 words, MulWideMem
// above; DivRemWide's algorithm D always; a barrel shifter up to 16 words,
// ShiftWideMem above) agree with math/big on every backend, for random,
// structured and corner values.
func TestWideArithmeticBackends(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	iters := tier.Pick(10, 40)
	widths := []int{65, 130, 512, 600, 1500, 3000}
	if raceEnabled && !tier.Long() {
		iters, widths = 4, []int{65, 130, 600, 3000}
	}
	for _, W := range widths {
		benches := make([]*bench, len(wideBackends))
		for i, be := range wideBackends {
			benches[i] = build(t, wideOps, be.opt, func(b *compile.Builder) { b.Param("W", strconv.Itoa(W)) })
		}
		if par := benches[2].p.Program.Parallel; par == nil || !bothLanes(par.Kernels()) {
			t.Fatalf("W=%d: no kernel is partitioned over both lanes", W)
		}
		mod := new(big.Int).Lsh(big.NewInt(1), uint(W))
		rnd := func() *big.Int {
			switch rng.Intn(7) {
			case 0:
				return big.NewInt(int64(rng.Intn(4)))
			case 1:
				return new(big.Int).Sub(mod, big.NewInt(int64(1+rng.Intn(2)))) // -1, -2
			case 2:
				return new(big.Int).Rsh(mod, 1) // MIN
			case 3: // 32-bit digits that stress the quotient estimate
				v := new(big.Int)
				for i := rng.Intn((W+31)/32) + 1; i > 0; i-- {
					v.Lsh(v, 32)
					v.Or(v, big.NewInt([]int64{0, 1, 0x7fffffff, 0x80000000, 0xffffffff}[rng.Intn(5)]))
				}
				return v.Mod(v, mod)
			case 4:
				return new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(W))))
			}
			return new(big.Int).Rand(rng, mod)
		}
		for it := 0; it < iters; it++ {
			x, y := rnd(), rnd()
			want := wideWant(W, x, y)
			for k, v := range wideWant(W, y, x) {
				want[k+"1"] = v
			}
			for i, b := range benches {
				for name, v := range map[string]*big.Int{"x": x, "y": y} {
					if err := b.s.SetInputWords(b.home(name), 0, bigWords(v, W)); err != nil {
						t.Fatal(err)
					}
				}
				b.tick("clk", 1)
				for out := range want {
					got, err := b.s.GetBig(b.home(out), 0)
					if err != nil {
						t.Fatal(err)
					}
					if got.Cmp(want[out]) != 0 {
						t.Fatalf("W=%d %s: %s(%#x, %#x) = %#x, want %#x", W, wideBackends[i].name, out, x, y, got, want[out])
					}
				}
			}
		}
	}
}

// Issue 19: a 100,000-bit register doing *, / and % died at 5.6 GB. The
// wide operations now loop in a few words of scratch state: building the
// design stays far below a gigabyte, the state holds a few copies of the
// operands, and running cycles allocates nothing in Go.
func TestWideArithmeticMemory(t *testing.T) {
	W := 100_000
	if !tier.Long() || raceEnabled {
		// cmd/weft's TestHostileInputs runs 100,000 bits in an
		// uninstrumented weft under a memory bound.
		W = 20_000
		if raceEnabled {
			W = 5_000
		}
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(W))
	x := new(big.Int).Sub(mod, big.NewInt(1))                                  // all ones
	y := new(big.Int).Sub(new(big.Int).Rsh(mod, uint(W/2)), big.NewInt(12345)) // half the width: the most divide steps
	want := wideWant(W, x, y)
	for _, be := range wideBackends[:2] {
		t.Run(be.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			b := build(t, wideOps, be.opt, func(b *compile.Builder) { b.Top("ops").Param("W", strconv.Itoa(W)) })
			runtime.ReadMemStats(&after)
			if grew := int64(after.Sys) - int64(before.Sys); grew > 1<<30 {
				t.Errorf("building took %d MiB from the OS", grew>>20)
			}
			// x, y, six results, their staging copies, and the loops'
			// scratch: a few dozen operand copies at most, and the ring.
			if st, limit := b.p.Program.Layout.StateSize(), 32*W/8+b.s.RingCap()+4096; st > limit {
				t.Errorf("state is %d bytes, want at most %d", st, limit)
			}
			// The code is linear in the words too (an unrolled product
			// is quadratic: 5 * 1563^2 instructions at 100,000 bits).
			insts := 0
			for _, u := range b.p.Program.Units() {
				insts += u.NumInsts()
			}
			if limit := 500 * W / 64; insts > limit {
				t.Errorf("the kernels have %d SIR instructions, want at most %d", insts, limit)
			}
			t.Logf("%d SIR instructions, %d bytes of state", insts, b.p.Program.Layout.StateSize())
			for name, v := range map[string]*big.Int{"x": x, "y": y} {
				if err := b.s.SetInputWords(b.home(name), 0, bigWords(v, W)); err != nil {
					t.Fatal(err)
				}
			}
			b.tick("clk", 1)
			runtime.ReadMemStats(&before)
			const cycles = 3
			b.tick("clk", cycles)
			runtime.ReadMemStats(&after)
			if n := after.Mallocs - before.Mallocs; n > 100 {
				t.Errorf("%d cycles made %d allocations (%d bytes)", cycles, n, after.TotalAlloc-before.TotalAlloc)
			}
			for out := range want {
				got, err := b.s.GetBig(b.home(out), 0)
				if err != nil {
					t.Fatal(err)
				}
				if got.Cmp(want[out]) != 0 {
					t.Errorf("%s: got %s..., want %s...", out, prefix(got), prefix(want[out]))
				}
			}
		})
	}
}

func bothLanes(ks []*kernels.Partitioned) bool {
	for _, k := range ks {
		if len(k.Lanes) == 2 && len(k.Lanes[0]) > 0 && len(k.Lanes[1]) > 0 {
			return true
		}
	}
	return false
}

func prefix(v *big.Int) string {
	s := fmt.Sprintf("%#x", v)
	return s[:min(len(s), 24)]
}

// Replication builds one period of lcm(width, 64) bits and reuses its
// words: {N{v}} of narrow v is cheap at any N and right at every width.
func TestWideReplication(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, vw := range []int{2, 3, 5, 8, 24, 63, 64, 65, 100} {
		for _, n := range []int{1, 2, 7, 64, 65, 300} {
			b := build(t, `
module t #(parameter int VW = 2, parameter int N = 1) (input logic [VW-1:0] v, output logic [VW*N-1:0] y);
  assign y = {N{v}};
endmodule`, func(b *compile.Builder) { b.Param("VW", strconv.Itoa(vw)).Param("N", strconv.Itoa(n)) })
			v := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(vw)))
			if err := b.s.SetInputWords(b.home("v"), 0, bigWords(v, vw)); err != nil {
				t.Fatal(err)
			}
			b.step()
			want := new(big.Int)
			for range n {
				want.Lsh(want, uint(vw)).Or(want, v)
			}
			got, err := b.s.GetBig(b.home("y"), 0)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Errorf("{%d{%d'h%x}} = %#x, want %#x", n, vw, v, got, want)
			}
		}
	}
}
