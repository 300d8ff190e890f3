package jit

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// rollHomes: h0 invariant inputs, h1 and h2 replicated state (strides s1,
// s2), h3 shared state and results.
var rollHomes = []int{64, 1024, 1024, 256}

// rollFault is a way a run of replicas may fail to be rollable.
type rollFault int

const (
	rollClean            rollFault = iota
	rollCarried                    // a segment reads a register of the one before (rolls: carried)
	rollLiveOut                    // the last segment's local is read after the run
	rollInvariantDef               // a segment assigns a register the others read
	rollConstDiffers               // one segment's constant differs
	rollAddrDiffers                // one segment's address breaks the stride
	rollInvariantClobber           // one segment's first local is a register the others read
	rollOperandDiffers             // one segment reads another local at one place
	rollTwoCarried                 // a segment reads two registers of the one before
	rollStepped                    // a constant steps from segment to segment (rolls)
	rollFaults
)

// genRollUnit builds a block with count replicas of one random template
// (loads and stores of each replica's state, arithmetic on locals and
// invariants, a shared accumulator at the same bytes every time), with
// fault injected, then stores registers to h3 so that they are compared.
func genRollUnit(rng *rand.Rand, fault rollFault) (u *sir.Unit, count int, injected, carried bool) {
	b := sir.NewBuilder("roll")
	var inv []sir.Reg
	for i := range 3 {
		r := b.Reg(32)
		b.Emit(sir.Inst{Op: sir.OpLoad, Dst: r, Size: 4, Addr: sir.Addr{Home: 0, Offset: 4 * i}})
		inv = append(inv, r)
	}
	pre, pre2 := b.Reg(32), b.Reg(32)
	b.Emit(sir.Inst{Op: sir.OpLoad, Dst: pre, Size: 4, Addr: sir.Addr{Home: 0, Offset: 40}})
	b.Emit(sir.Inst{Op: sir.OpLoad, Dst: pre2, Size: 4, Addr: sir.Addr{Home: 0, Offset: 44}})
	if rng.Intn(2) == 0 { // read before the run too: still carried in
		b.Emit(sir.Inst{Op: sir.OpStore, A: pre, Size: 4, Addr: sir.Addr{Home: 3, Offset: 32}})
	}
	count = 4 + rng.Intn(9)
	s1 := 4 * (1 + rng.Intn(6))
	s2 := []int{0, 4, 8, 12}[rng.Intn(4)]
	type step struct {
		op       sir.Op
		a, b     int // operand: >=0 local index, <0 invariant -1-i
		home     sir.HomeID
		off, lo  int
		imm      uint64
		shared   bool
		storeArg int
	}
	// The template, over locals numbered in order.
	tmpl := []step{{op: sir.OpLoad, home: sir.HomeID(1 + rng.Intn(2))}}
	nloc := 1
	pick := func() int {
		if nloc > 0 && rng.Intn(3) > 0 {
			return rng.Intn(nloc)
		}
		return -1 - rng.Intn(len(inv))
	}
	if fault == rollStepped {
		tmpl = append(tmpl, step{op: sir.OpConst, imm: uint64(rng.Intn(5))}, step{op: sir.OpLShr, a: 0, b: 1})
		nloc += 2
	}
	for range 6 + rng.Intn(10) {
		switch k := rng.Intn(10); {
		case k < 3:
			h := sir.HomeID(1 + rng.Intn(2))
			tmpl = append(tmpl, step{op: sir.OpLoad, home: h, off: 4 * rng.Intn(1+min(s1, 8)/4)})
			nloc++
		case k < 4:
			tmpl = append(tmpl, step{op: sir.OpLoadBits, home: 1, off: rng.Intn(4), lo: rng.Intn(8)})
			nloc++
		case k < 7:
			ops := []sir.Op{sir.OpAdd, sir.OpXor, sir.OpSub, sir.OpAnd, sir.OpMul, sir.OpLShr}
			tmpl = append(tmpl, step{op: ops[rng.Intn(len(ops))], a: pick(), b: pick()})
			nloc++
		case k < 8:
			tmpl = append(tmpl, step{op: sir.OpConst, imm: uint64(rng.Intn(5))})
			nloc++
		case k < 9:
			h := sir.HomeID(1 + rng.Intn(2))
			tmpl = append(tmpl, step{op: sir.OpStore, home: h, off: 4 * rng.Intn(1+min(s1, 8)/4), storeArg: pick()})
		default:
			tmpl = append(tmpl, step{op: sir.OpStore, home: 3, off: 0, shared: true, storeArg: pick()})
		}
	}
	rev2 := rng.Intn(2) == 0
	carryOut := rng.Intn(2) == 0
	steppedSeen, steppedImm := false, uint64(0)
	stepBy := []uint64{1, 3, 0x9e3779b9, 0xffffffff}[rng.Intn(4)]
	bad := rng.Intn(count)
	swapped := false
	var prev []sir.Reg
	var lastLocals []sir.Reg
	for k := range count {
		loc := []sir.Reg{}
		get := func(i int) sir.Reg {
			if i >= 0 {
				return loc[i]
			}
			return inv[-1-i]
		}
		for _, st := range tmpl {
			stride := s1
			if st.home == 2 {
				stride = s2
			}
			if st.shared || st.home == 3 {
				stride = 0
			}
			off := st.off + k*stride
			if rev2 && st.home == 2 { // replicas laid out downwards
				off = st.off + (count-1-k)*stride
			}
			if fault == rollAddrDiffers && k == bad && k > 0 && st.op.IsMem() {
				off += 4
				injected = true
			}
			switch st.op {
			case sir.OpLoad:
				r := b.Reg(32)
				if fault == rollInvariantClobber && k == bad && len(loc) == 0 {
					r = inv[0]
					injected = k < count-1
				}
				b.Emit(sir.Inst{Op: sir.OpLoad, Dst: r, Size: 4, Addr: sir.Addr{Home: st.home, Offset: off}})
				loc = append(loc, r)
			case sir.OpLoadBits:
				r := b.Reg(32)
				b.Emit(sir.Inst{Op: sir.OpLoadBits, Dst: r, Lo: st.lo, Addr: sir.Addr{Home: st.home, Offset: off}})
				loc = append(loc, r)
			case sir.OpConst:
				r := b.Reg(32)
				imm := st.imm
				if fault == rollStepped && !steppedSeen || fault == rollStepped && st.imm == steppedImm {
					steppedSeen, steppedImm = true, st.imm
					imm = (st.imm + uint64(k)*stepBy) & 0xffffffff
				}
				if fault == rollConstDiffers && k == bad {
					imm += 7
					injected = true
				}
				b.Emit(sir.Inst{Op: sir.OpConst, Dst: r, Imm: imm})
				loc = append(loc, r)
			case sir.OpStore:
				v := get(st.storeArg)
				b.Emit(sir.Inst{Op: sir.OpStore, A: v, Size: 4, Addr: sir.Addr{Home: st.home, Offset: off}})
			default:
				r := b.Reg(32)
				x, y := st.a, st.b
				if fault == rollOperandDiffers && k == bad && !swapped && x >= 0 && y >= 0 && x != y {
					x, swapped, injected = y, true, true
				}
				b.Emit(sir.Inst{Op: st.op, Dst: r, A: get(x), B: get(y)})
				loc = append(loc, r)
			}
		}
		if fault == rollCarried { // every segment stores the one before's first local
			v := pre
			if k > 0 {
				v = prev[0]
			}
			b.Emit(sir.Inst{Op: sir.OpStore, A: v, Size: 4, Addr: sir.Addr{Home: 1, Offset: 12 + k*s1}})
			carried = carried || k > 0
		}
		if fault == rollStepped { // the stepped constant stored whole: its upper bits show
			b.Emit(sir.Inst{Op: sir.OpStore, A: loc[1], Size: 8, Addr: sir.Addr{Home: 3, Offset: 40}})
		}
		if fault == rollTwoCarried { // an op on two of the previous segment's locals
			x, y := pre, pre2
			if k > 0 {
				x, y = prev[0], prev[len(prev)-1]
				injected = len(prev) > 1
			}
			t := b.Reg(32)
			b.Emit(sir.Inst{Op: sir.OpSub, Dst: t, A: x, B: y})
			b.Emit(sir.Inst{Op: sir.OpStore, A: t, Size: 4, Addr: sir.Addr{Home: 1, Offset: 16 + k*s1}})
		}
		if fault == rollInvariantDef && k == bad {
			b.Emit(sir.Inst{Op: sir.OpLoad, Dst: inv[0], Size: 4, Addr: sir.Addr{Home: 0, Offset: 32}})
			injected = k < count-1 // after the last segment it changes nothing they read
		}
		prev, lastLocals = loc, loc
	}
	if fault == rollCarried && carryOut { // the last segment's carried value read after the run
		b.Emit(sir.Inst{Op: sir.OpStore, A: lastLocals[0], Size: 4, Addr: sir.Addr{Home: 3, Offset: 12}})
	}
	if fault == rollCarried && rng.Intn(3) == 0 { // the carried-in value read again after the run
		b.Emit(sir.Inst{Op: sir.OpStore, A: pre, Size: 4, Addr: sir.Addr{Home: 3, Offset: 28}})
	}
	if fault == rollLiveOut {
		b.Emit(sir.Inst{Op: sir.OpStore, A: lastLocals[0], Size: 4, Addr: sir.Addr{Home: 3, Offset: 8}})
		injected = true
	}
	for i, r := range inv {
		b.Emit(sir.Inst{Op: sir.OpStore, A: r, Size: 4, Addr: sir.Addr{Home: 3, Offset: 16 + 4*i}})
	}
	b.Return(sir.StatusOK)
	return b.U, count, injected, carried
}

// TestRollRandom: replicated code compiles to a loop when it may (clean
// templates must roll), never when a fault forbids it across the faulty
// segment, and native code rolled or not matches the interpreter on random
// states.
func TestRollRandom(t *testing.T) {
	defer SetRollMinRun(0)() // the generated runs are short
	rng := rand.New(rand.NewSource(21))
	l, size := sir.PackedLayout(rollHomes, 0)
	n := 400
	if testing.Short() {
		n = 80
	}
	rolled, carriedRolled, steppedRolled := 0, 0, 0
	for i := range n {
		fault := rollFault(i % int(rollFaults))
		u, count, injected, carries := genRollUnit(rng, fault)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator: %v\n%s", err, u)
		}
		runs := findRolls(u, l)
		if len(runs) > 0 {
			rolled++
		}
		if fault == rollClean && len(u.Blocks[0].Insts) >= count*rollMinPeriod && len(runs) == 0 {
			// A clean template of at least rollMinPeriod instructions rolls
			// unless its locals are all dead (nothing to compare then).
			t.Logf("unit %d: clean template did not roll\n%s", i, u)
		}
		for _, rs := range runs {
			for _, r := range rs {
				if carries && r.carry.ok {
					carriedRolled++
				}
				if r.step.ok {
					steppedRolled++
				}
				if injected && r.count == count {
					t.Fatalf("unit %d (%v): all %d segments rolled despite the fault\n%s", i, fault, count, u)
				}
			}
		}
		what := fmt.Sprintf("unit %d (fault %d)", i, fault)
		fi, k := compileBoth(t, u, l, size)
		for range 4 {
			state := make([]byte, size)
			rng.Read(state)
			if msg := diffRun(t, fi, k, state); msg != "" {
				t.Fatalf("%s: %s\n%s", what, msg, u)
			}
		}
	}
	t.Logf("%d of %d units rolled, %d with a carried value, %d with a stepped constant", rolled, n, carriedRolled, steppedRolled)
	if carriedRolled == 0 || steppedRolled == 0 {
		t.Error("no run with a carried value, or none with a stepped constant, rolled")
	}
	if rolled < n/8 {
		t.Errorf("only %d of %d units rolled", rolled, n)
	}
}

// counterUnit is n 64-bit counters in h0 (8 bytes apart), each counting
// while the byte in h1 is set: five instructions a replica.
func counterUnit(n int) *sir.Unit {
	b := sir.NewBuilder("counters")
	en := b.Load(1, 1, sir.Addr{Home: 1})
	for k := range n {
		a := sir.Addr{Home: 0, Offset: 8 * k}
		v := b.Load(64, 8, a)
		b.Store(8, a, b.Op(sir.OpMux, en, b.Add(v, b.Const(64, 1)), v))
	}
	b.Return(sir.StatusOK)
	return b.U
}

// TestRollShrinksCode: 64 replicas of a counter update compile to a loop
// whose code does not grow with the replica count, with the same effect.
func TestRollShrinksCode(t *testing.T) {
	defer SetRollMinRun(0)()
	l, size := sir.PackedLayout([]int{8 * 64, 8}, 0)
	mk := counterUnit
	sizes := map[int]int{}
	for _, n := range []int{16, 64} {
		u := mk(n)
		fi, k := compileBoth(t, u, l, size)
		sizes[n] = k.CodeSize()
		state := make([]byte, size)
		state[8*64] = 1
		for i := range state[:8*64] {
			state[i] = byte(i)
		}
		if msg := diffRun(t, fi, k, state); msg != "" {
			t.Fatal(msg)
		}
	}
	if sizes[64] != sizes[16] {
		t.Errorf("code size %d for 16 replicas, %d for 64: not rolled", sizes[16], sizes[64])
	}
	restore := SetRollMinRun(math.MaxInt32) // nothing rolls
	_, k := compileBoth(t, mk(64), l, size)
	restore()
	if k.CodeSize() <= 2*sizes[64] {
		t.Errorf("unrolled %d bytes, rolled %d", k.CodeSize(), sizes[64])
	}
}

// TestRollMinRun: a run shorter than rollMinRun instructions stays
// unrolled, a longer one rolls.
func TestRollMinRun(t *testing.T) {
	l, _ := sir.PackedLayout([]int{8 * 1024, 8}, 0)
	mk := counterUnit
	if runs := findRolls(mk(64), l); len(runs) != 0 {
		t.Errorf("64 replicas (%d instructions) rolled", 5*64)
	}
	// Five instructions a replica are below rollMinPeriod: two make a
	// segment.
	if runs := findRolls(mk(1024), l); len(runs) != 1 || runs[0][0].count*runs[0][0].period != 5*1024 {
		t.Errorf("1024 replicas: %v", runs)
	}
}
