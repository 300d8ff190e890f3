package jit

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// vecHomes: h0 invariant inputs, h1 and h2 replicated state (one element
// of e bytes per replica), h3 shared state and results.
var vecHomes = []int{64, 8192, 8192, 256}

// vecFault is a way a run of replicas may fail to vectorize.
type vecFault int

const (
	vecClean       vecFault = iota
	vecStepped              // a constant steps from replica to replica (vectorizes)
	vecFixedLoad            // a load of bytes that do not move (vectorizes: read once)
	vecOverlap              // a replica stores what a later one loads
	vecFixedStored          // a fixed load of bytes a replica stores
	vecMul                  // an operation with no packed form
	vecWideStride           // replicas two elements apart
	vecFaults
)

// genVecUnit builds count replicas of a random template of lane-wise
// operations on e-byte elements of width w values, with fault injected.
func genVecUnit(rng *rand.Rand, fault vecFault) (u *sir.Unit, e int, vectorizable bool) {
	e = []int{1, 2, 4, 8}[rng.Intn(4)]
	w := 8 * e
	if rng.Intn(2) == 0 { // narrower values in the same elements
		w = 8*e/2 + 1 + rng.Intn(8*e/2)
	}
	b := sir.NewBuilder("vec")
	var inv []sir.Reg
	for i := range 2 {
		inv = append(inv, b.Load(w, e, sir.Addr{Home: 0, Offset: 8 * i}))
	}
	count := 2 + rng.Intn(130)
	stride := e
	if fault == vecWideStride {
		stride = 2 * e
	}
	type step struct {
		op   sir.Op
		a, b int // >= 0 local, < 0 invariant -1-i
		home sir.HomeID
		off  int
		imm  uint64
	}
	tmpl := []step{{op: sir.OpLoad, home: sir.HomeID(1 + rng.Intn(2)), off: 0}}
	nloc := 1
	pick := func() int {
		if rng.Intn(4) > 0 {
			return rng.Intn(nloc)
		}
		return -1 - rng.Intn(len(inv))
	}
	if fault == vecStepped {
		tmpl = append(tmpl, step{op: sir.OpConst, imm: 1}, step{op: sir.OpAdd, a: 0, b: 1})
		nloc += 2
	}
	if fault == vecFixedLoad || fault == vecFixedStored {
		tmpl = append(tmpl, step{op: sir.OpLoad, home: 3, off: 64})
		nloc++
	}
	if fault == vecMul {
		tmpl = append(tmpl, step{op: sir.OpMul, a: 0, b: -1})
		nloc++
	}
	for range 1 + rng.Intn(8) {
		switch k := rng.Intn(10); {
		case k < 2:
			tmpl = append(tmpl, step{op: sir.OpLoad, home: sir.HomeID(1 + rng.Intn(2)), off: 4096})
			nloc++
		case k < 7:
			ops := []sir.Op{sir.OpAdd, sir.OpSub, sir.OpAnd, sir.OpOr, sir.OpXor, sir.OpNot, sir.OpCopy}
			tmpl = append(tmpl, step{op: ops[rng.Intn(len(ops))], a: pick(), b: pick()})
			nloc++
		case k < 8:
			tmpl = append(tmpl, step{op: sir.OpConst, imm: rng.Uint64() & sir.Mask(w)})
			nloc++
		default:
			tmpl = append(tmpl, step{op: sir.OpStore, home: 2, off: 0, a: pick()})
		}
	}
	tmpl = append(tmpl, step{op: sir.OpStore, home: 1, off: 0, a: nloc - 1})
	if fault == vecOverlap {
		// Replica k stores where replica k+2 loads (one element on, a run
		// starting mid-replica would hold both in one segment: no fault).
		tmpl = append(tmpl, step{op: sir.OpStore, home: tmpl[0].home, off: 2 * stride, a: nloc - 1})
	}
	if fault == vecFixedStored {
		tmpl = append(tmpl, step{op: sir.OpStore, home: 3, off: 64, a: 0})
	}
	for k := range count {
		var loc []sir.Reg
		get := func(i int) sir.Reg {
			if i >= 0 {
				return loc[i]
			}
			return inv[-1-i]
		}
		for _, st := range tmpl {
			off := st.off + k*stride
			if st.home == 3 {
				off = st.off
			}
			switch st.op {
			case sir.OpLoad:
				loc = append(loc, b.Load(w, e, sir.Addr{Home: st.home, Offset: off}))
			case sir.OpConst:
				imm := st.imm
				if fault == vecStepped && len(loc) == 1 {
					imm = (imm + uint64(k)*3) & sir.Mask(w)
				}
				loc = append(loc, b.Const(w, imm))
			case sir.OpStore:
				b.Store(e, sir.Addr{Home: st.home, Offset: off}, get(st.a))
			case sir.OpNot, sir.OpCopy:
				loc = append(loc, b.Op(st.op, get(st.a)))
			default:
				loc = append(loc, b.Op(st.op, get(st.a), get(st.b)))
			}
		}
	}
	b.Store(8, sir.Addr{Home: 3, Offset: 0}, b.Op(sir.OpZExt, inv[0]))
	b.Return(sir.StatusOK)
	bytes := 16
	if useAVX2() {
		bytes = 32
	}
	vectorizable = count >= 2*vecMinGroups*bytes/e && (fault == vecClean || fault == vecStepped || fault == vecFixedLoad)
	return b.U, e, vectorizable
}

// TestVectorRandom: runs of replicas vectorize when they may (every lane
// size, narrow widths, stepped constants, fixed loads, any count: the
// groups left over run unrolled), never when a fault forbids it, and
// native code matches the interpreter on random states either way.
func TestVectorRandom(t *testing.T) {
	for _, avx2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "sse2", true: "avx2"}[avx2], func(t *testing.T) {
			if avx2 && !useAVX2() {
				t.Skip("the CPU has no AVX2")
			}
			defer SetAVX2(avx2)()
			vectorRandom(t)
		})
	}
}

func vectorRandom(t *testing.T) {
	defer SetRollMinRun(1 << 30)() // only vector runs: what is checked here
	rng := rand.New(rand.NewSource(33))
	l, size := sir.PackedLayout(vecHomes, 0)
	n := 700
	if testing.Short() {
		n = 140
	}
	vectorized, missed := 0, 0
	byLane := map[int]int{}
	for i := range n {
		fault := vecFault(i % int(vecFaults))
		u, e, want := genVecUnit(rng, fault)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator: %v\n%s", err, u)
		}
		got := false
		for _, rs := range findRolls(u, l) {
			for _, r := range rs {
				got = got || r.vec != nil
			}
		}
		what := fmt.Sprintf("unit %d (fault %d, %d-byte lanes)", i, fault, e)
		switch {
		case got && fault != vecClean && fault != vecStepped && fault != vecFixedLoad:
			t.Fatalf("%s vectorized despite the fault\n%s", what, u)
		case got:
			vectorized++
			byLane[e]++
		case want:
			missed++
		}
		fi, k := compileBoth(t, u, l, size)
		for range 3 {
			state := make([]byte, size)
			rng.Read(state)
			if msg := diffRun(t, fi, k, state); msg != "" {
				t.Fatalf("%s: %s\n%s", what, msg, u)
			}
		}
	}
	t.Logf("%d of %d units vectorized (by lane size %v), %d that could were not", vectorized, n, byLane, missed)
	if len(byLane) != 4 || vectorized < n/5 {
		t.Errorf("too few vectorized: %d, by lane size %v", vectorized, byLane)
	}
}

// TestVectorCounters: 1,000 32-bit counters each adding its own index (the
// perf design's shape) vectorize, with the code size of a few replicas,
// and match the interpreter; SetVector(false) keeps them scalar.
func TestVectorCounters(t *testing.T) {
	for _, avx2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "sse2", true: "avx2"}[avx2], func(t *testing.T) {
			if avx2 && !useAVX2() {
				t.Skip("the CPU has no AVX2")
			}
			defer SetAVX2(avx2)()
			vectorCounters(t)
		})
	}
}

func vectorCounters(t *testing.T) {
	mk := func(n int) *sir.Unit {
		b := sir.NewBuilder("counters")
		for k := range n {
			a := sir.Addr{Home: 0, Offset: 4 * k}
			b.Store(4, a, b.Add(b.Load(32, 4, a), b.Const(32, uint64(k+1))))
		}
		b.Return(sir.StatusOK)
		return b.U
	}
	l, size := sir.PackedLayout([]int{4 * 1000}, 0)
	before := VectorRuns()
	fi, k := compileBoth(t, mk(1000), l, size)
	if VectorRuns() == before {
		t.Fatal("not vectorized")
	}
	state := make([]byte, size)
	for i := range state {
		state[i] = byte(i * 7)
	}
	for range 3 {
		if msg := diffRun(t, fi, k, state); msg != "" {
			t.Fatal(msg)
		}
		fi.Run(state)
	}
	restore := SetVector(false)
	_, ks := compileBoth(t, mk(1000), l, size)
	restore()
	if k.CodeSize()*4 > ks.CodeSize() {
		t.Errorf("vector code %d bytes, scalar %d", k.CodeSize(), ks.CodeSize())
	}
}
