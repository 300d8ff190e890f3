package opt

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// runCSE parses body (the blocks of a unit), runs cse alone, checks the
// result and its behaviour, and compares the printed blocks with want.
func runCSE(t *testing.T, body, want string) {
	t.Helper()
	u := runPassOn(t, "cse", body)
	got := strings.TrimPrefix(u.String(), "unit \"t\"\n")
	if want = strings.TrimLeft(want, "\n"); got != want {
		t.Errorf("after cse:\n--- got\n%s--- want\n%s", got, want)
	}
}

// runPassOn parses body (the blocks of unit "t"), runs the named pass
// alone, checks the result and that it behaves as before from 50 random
// states, and returns it.
func runPassOn(t *testing.T, pass, body string) *sir.Unit {
	t.Helper()
	src := "unit \"t\"\n" + strings.TrimLeft(body, "\n")
	u, err := sir.Parse(src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	if err := sir.Check(u); err != nil {
		t.Fatalf("input: %v", err)
	}
	before := u.Clone()
	if err := RunPass(u, pass); err != nil {
		t.Fatal(err)
	}
	if err := sir.Check(u); err != nil {
		t.Fatalf("after %s: %v\n%s", pass, err, u)
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 50; i++ {
		if msg := sameBehaviour(before, u, rng); msg != "" {
			t.Fatalf("%s changed behaviour: %s\n%s", pass, msg, u)
		}
	}
	return u
}

func TestCSEPureExpression(t *testing.T) {
	// Commutative operands match in either order; sub does not; a
	// constant keeps its instruction but shares its value number, so an
	// expression over an equal constant in another register matches too.
	runCSE(t, `
b0:
  r1:8 = load.1 h0+0
  r2:8 = load.1 h0+1
  r3:8 = add r1, r2
  r4:8 = add r2, r1
  r5:8 = sub r1, r2
  r6:8 = sub r2, r1
  r7:8 = const 5
  r8:8 = const 5
  r9:8 = xor r1, r7
  r10:8 = xor r1, r8
  r11:8 = copy r1
  r12:8 = xor r11, r8
  r13:4 = extract r1, 2
  r14:4 = extract r1, 3
  r15:4 = extract r11, 2
  store.1 h1+0, r4
  store.1 h1+1, r6
  store.1 h1+2, r10
  store.1 h1+3, r12
  store.1 h1+4, r5
  store.1 h1+5, r9
  store.1 h1+6, r3
  store.1 h2+0, r13
  store.1 h2+1, r14
  store.1 h2+2, r15
  ret ok
`, `
b0:
  r1:8 = load.1 h0+0
  r2:8 = load.1 h0+1
  r3:8 = add r1, r2
  r4:8 = copy r3
  r5:8 = sub r1, r2
  r6:8 = sub r2, r1
  r7:8 = const 5
  r8:8 = const 5
  r9:8 = xor r1, r7
  r10:8 = copy r9
  r11:8 = copy r1
  r12:8 = copy r9
  r13:4 = extract r1, 2
  r14:4 = extract r1, 3
  r15:4 = copy r13
  store.1 h1+0, r4
  store.1 h1+1, r6
  store.1 h1+2, r10
  store.1 h1+3, r12
  store.1 h1+4, r5
  store.1 h1+5, r9
  store.1 h1+6, r3
  store.1 h2+0, r13
  store.1 h2+1, r14
  store.1 h2+2, r15
  ret ok
`)
}

func TestCSERepeatedLoad(t *testing.T) {
	// Same bytes, same width: reused (load and loadbits). Another width,
	// size or bit offset is another value.
	runCSE(t, `
b0:
  r1:32 = load.4 h0+0
  r2:32 = load.4 h0+0
  r3:16 = load.4 h0+0
  r4:32 = load.8 h0+0
  r5:5 = loadbits h0+8, 3
  r6:5 = loadbits h0+8, 3
  r7:5 = loadbits h0+8, 4
  store.4 h1+0, r2
  store.2 h1+4, r3
  store.4 h1+8, r4
  store.1 h1+12, r6
  store.1 h1+13, r7
  store.4 h1+16, r1
  store.1 h1+20, r5
  ret ok
`, `
b0:
  r1:32 = load.4 h0+0
  r2:32 = copy r1
  r3:16 = load.4 h0+0
  r4:32 = load.8 h0+0
  r5:5 = loadbits h0+8, 3
  r6:5 = copy r5
  r7:5 = loadbits h0+8, 4
  store.4 h1+0, r2
  store.2 h1+4, r3
  store.4 h1+8, r4
  store.1 h1+12, r6
  store.1 h1+13, r7
  store.4 h1+16, r1
  store.1 h1+20, r5
  ret ok
`)
}

func TestCSEStoresInvalidate(t *testing.T) {
	// A static store overlapping the loaded bytes (h0+3 inside h0+0..3, a
	// bit field in byte 9) forgets the load; one next to them (h0+4) does
	// not; a store to another home does not; a dynamic store to the home
	// forgets every load of it; a static store forgets a dynamic load of
	// its home wherever it is.
	runCSE(t, `
b0:
  r9:2 = load.1 h7+0
  r1:32 = load.4 h0+0
  store.1 h0+3, r9
  r2:32 = load.4 h0+0
  store.1 h0+4, r9
  store.4 h1+0, r2
  r3:32 = load.4 h0+0
  r10:8 = load.1 h0+9
  storebits h0+8, 9, r9
  r11:8 = load.1 h0+9
  r4:8 = load.1 h2+5
  store.1 h2+0[r9*1<4], r9
  r5:8 = load.1 h2+5
  r6:8 = load.1 h3+0[r9*2<8]
  store.1 h3+40, r9
  r7:8 = load.1 h3+0[r9*2<8]
  store.4 h4+0, r1
  store.4 h4+4, r2
  store.4 h4+8, r3
  store.1 h4+12, r4
  store.1 h4+13, r5
  store.1 h4+14, r6
  store.1 h4+15, r7
  store.1 h4+16, r10
  store.1 h4+17, r11
  ret ok
`, `
b0:
  r9:2 = load.1 h7+0
  r1:32 = load.4 h0+0
  store.1 h0+3, r9
  r2:32 = load.4 h0+0
  store.1 h0+4, r9
  store.4 h1+0, r2
  r3:32 = copy r2
  r10:8 = load.1 h0+9
  storebits h0+8, 9, r9
  r11:8 = load.1 h0+9
  r4:8 = load.1 h2+5
  store.1 h2+0[r9*1<4], r9
  r5:8 = load.1 h2+5
  r6:8 = load.1 h3+0[r9*2<8]
  store.1 h3+40, r9
  r7:8 = load.1 h3+0[r9*2<8]
  store.4 h4+0, r1
  store.4 h4+4, r2
  store.4 h4+8, r3
  store.1 h4+12, r4
  store.1 h4+13, r5
  store.1 h4+14, r6
  store.1 h4+15, r7
  store.1 h4+16, r10
  store.1 h4+17, r11
  ret ok
`)
}

func TestCSEReassignment(t *testing.T) {
	// Reassigning an operand changes the value; reassigning the holder
	// loses it (no other register holds it). Recomputing a value into the
	// register that still holds it drops the instruction.
	runCSE(t, `
b0:
  r1:8 = load.1 h0+0
  r2:8 = load.1 h0+1
  r3:8 = add r1, r2
  r1:8 = load.1 h0+2
  r4:8 = add r1, r2
  r5:8 = mul r1, r2
  r5:8 = const 0
  r6:8 = mul r1, r2
  r7:8 = or r1, r2
  r7:8 = or r1, r2
  r1:8 = add r1, r2
  r8:8 = add r1, r2
  store.1 h1+0, r3
  store.1 h1+1, r4
  store.1 h1+2, r5
  store.1 h1+3, r6
  store.1 h1+4, r7
  store.1 h1+5, r8
  ret ok
`, `
b0:
  r1:8 = load.1 h0+0
  r2:8 = load.1 h0+1
  r3:8 = add r1, r2
  r1:8 = load.1 h0+2
  r4:8 = add r1, r2
  r5:8 = mul r1, r2
  r5:8 = const 0
  r6:8 = mul r1, r2
  r7:8 = or r1, r2
  r1:8 = copy r4
  r8:8 = add r1, r2
  store.1 h1+0, r3
  store.1 h1+1, r4
  store.1 h1+2, r5
  store.1 h1+3, r6
  store.1 h1+4, r7
  store.1 h1+5, r8
  ret ok
`)
}

func TestCSEDynamicIndex(t *testing.T) {
	// The same dynamic load is reused while its index register is
	// unchanged, not after the index is assigned again (even the same
	// instruction text reads other bytes).
	runCSE(t, `
b0:
  r1:2 = load.1 h0+0
  r2:8 = load.1 h1+0[r1*4<4]
  r3:8 = load.1 h1+0[r1*4<4]
  r1:2 = load.1 h0+1
  r4:8 = load.1 h1+0[r1*4<4]
  r5:8 = load.1 h1+0[r1*2<4]
  store.1 h2+0, r2
  store.1 h2+1, r3
  store.1 h2+2, r4
  store.1 h2+3, r5
  ret ok
`, `
b0:
  r1:2 = load.1 h0+0
  r2:8 = load.1 h1+0[r1*4<4]
  r3:8 = copy r2
  r1:2 = load.1 h0+1
  r4:8 = load.1 h1+0[r1*4<4]
  r5:8 = load.1 h1+0[r1*2<4]
  store.1 h2+0, r2
  store.1 h2+1, r3
  store.1 h2+2, r4
  store.1 h2+3, r5
  ret ok
`)
}

func TestCSEEventsAndBlocks(t *testing.T) {
	// An event writes only the ring: loads stay available across it.
	// Nothing is reused across a block boundary.
	runCSE(t, `
b0:
  r1:8 = load.1 h0+0
  event display fmt=1 level=0 (r1:u8)
  r2:8 = load.1 h0+0
  r3:8 = not r1
  store.1 h1+0, r2
  store.1 h1+1, r3
  jump b1
b1:
  r4:8 = load.1 h0+0
  r5:8 = not r1
  store.1 h1+2, r4
  store.1 h1+3, r5
  ret ok
`, `
b0:
  r1:8 = load.1 h0+0
  event display fmt=1 level=0 (r1:u8)
  r2:8 = copy r1
  r3:8 = not r1
  store.1 h1+0, r2
  store.1 h1+1, r3
  jump b1
b1:
  r4:8 = load.1 h0+0
  r5:8 = not r1
  store.1 h1+2, r4
  store.1 h1+3, r5
  ret ok
`)
}

func TestCSEStoreForwarding(t *testing.T) {
	// A load of exactly a static store's bytes at the stored register's
	// width reads the register back, and after the source is assigned
	// again another register holding the value (r5) serves; another width
	// or size, or a store over part of the bytes, does not.
	runCSE(t, `
b0:
  r1:32 = load.4 h0+0
  store.4 h1+0, r1
  r2:32 = load.4 h1+0
  r3:16 = load.4 h1+0
  r4:8 = load.1 h0+4
  store.2 h1+8, r4
  r5:8 = load.2 h1+8
  r6:16 = load.2 h1+8
  storebits h1+16, 5, r4
  r7:8 = loadbits h1+16, 5
  r4:8 = const 1
  r8:8 = loadbits h1+16, 5
  store.1 h1+8, r4
  r9:8 = load.2 h1+8
  store.4 h2+0, r2
  store.2 h2+4, r3
  store.1 h2+6, r5
  store.2 h2+8, r6
  store.1 h2+10, r7
  store.1 h2+11, r8
  store.1 h2+12, r9
  ret ok
`, `
b0:
  r1:32 = load.4 h0+0
  store.4 h1+0, r1
  r2:32 = copy r1
  r3:16 = load.4 h1+0
  r4:8 = load.1 h0+4
  store.2 h1+8, r4
  r5:8 = copy r4
  r6:16 = load.2 h1+8
  storebits h1+16, 5, r4
  r7:8 = copy r4
  r4:8 = const 1
  r8:8 = copy r5
  store.1 h1+8, r4
  r9:8 = load.2 h1+8
  store.4 h2+0, r2
  store.2 h2+4, r3
  store.1 h2+6, r5
  store.2 h2+8, r6
  store.1 h2+10, r7
  store.1 h2+11, r8
  store.1 h2+12, r9
  ret ok
`)
}

// TestCSEInPipeline: with the whole pipeline, cse's copies are propagated
// and the recomputations disappear; and on random units the pipeline
// with cse removes instructions the pipeline without it keeps (so the
// differential tests exercise it) while behaving the same.
func TestCSEInPipeline(t *testing.T) {
	u, err := sir.Parse(`unit "p"
b0:
  r1:32 = load.4 h0+0
  r2:32 = load.4 h0+4
  r3:32 = xor r1, r2
  store.4 h1+0, r3
  r4:32 = load.4 h1+0
  r5:32 = load.4 h0+0
  r6:32 = xor r5, r2
  r7:32 = add r4, r6
  store.4 h1+0, r7
  ret ok
`)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(u, Options{Check: true}); err != nil {
		t.Fatal(err)
	}
	want := `unit "p"
b0:
  r1:32 = load.4 h0+0
  r2:32 = load.4 h0+4
  r3:32 = xor r1, r2
  r7:32 = add r3, r3
  store.4 h1+0, r7
  ret ok
`
	if got := u.String(); got != want {
		t.Errorf("pipeline:\n--- got\n%s--- want\n%s", got, want)
	}

	rng := rand.New(rand.NewSource(77))
	changed, with, without := 0, 0, 0
	n := 500
	for i := 0; i < n; i++ {
		u := genUnit(rng)
		orig := u.Clone()
		skip := u.Clone()
		if err := Run(u, Options{Check: true}); err != nil {
			t.Fatal(err)
		}
		if err := Run(skip, Options{Check: true, Skip: map[string]bool{"cse": true}}); err != nil {
			t.Fatal(err)
		}
		with += u.NumInsts()
		without += skip.NumInsts()
		if u.NumInsts() < skip.NumInsts() {
			changed++
		}
		if msg := sameBehaviour(orig, u, rng); msg != "" {
			t.Fatalf("unit %d: %s\nbefore:\n%s\nafter:\n%s", i, msg, orig, u)
		}
	}
	t.Logf("%d random units: %d shrink with cse; %d instructions with it, %d without", n, changed, with, without)
	if changed < n/10 {
		t.Errorf("cse shrank only %d of %d random units: the generator does not exercise it", changed, n)
	}
}

// TestCSEMalformed: units sir.Check rejects (registers out of range,
// mismatched widths, unknown ops) do not make cse panic.
func TestCSEMalformed(t *testing.T) {
	u := sir.NewUnit("bad")
	r1, r2 := u.NewReg(8), u.NewReg(16)
	b := u.NewBlock()
	u.Blocks[b].Insts = []sir.Inst{
		{Op: sir.OpCopy, Dst: r2, A: r1},
		{Op: sir.OpCopy, Dst: r1, A: 99},
		{Op: sir.OpAdd, Dst: r1, A: -3, B: 1000},
		{Op: sir.OpAdd, Dst: r2, A: -3, B: 1000},
		{Op: sir.OpAdd, Dst: 77, A: r1, B: r1},
		{Op: sir.OpLoad, Dst: r1, Size: 3, Addr: sir.Addr{Home: -5, Offset: -1, Index: 55}},
		{Op: sir.OpLoad, Dst: r2, Size: 3, Addr: sir.Addr{Home: -5, Offset: -1, Index: 55}},
		{Op: sir.OpStore, A: 42, Size: 9, Addr: sir.Addr{Home: -5}},
		{Op: sir.OpStoreBits, A: r2, Lo: -9, Addr: sir.Addr{Home: -5, Index: -2}},
		{Op: sir.OpLoadBits, Dst: r1, Lo: -9, Addr: sir.Addr{Home: -5}},
		{Op: sir.OpEvent},
		{Op: 200, Dst: r1, A: r2},
		{Op: sir.OpInvalid},
	}
	u.Blocks = append(u.Blocks, nil)
	if err := RunPass(u, "cse"); err != nil {
		t.Fatal(err)
	}
}
