//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

var testWidths = []int{1, 7, 8, 31, 32, 33, 63, 64}

// diffRun runs u on state with the interpreter and natively and reports a
// difference in status or state bytes ("" when identical).
func diffRun(t testing.TB, fi *interp.Func, k *Kernel, state []byte) string {
	t.Helper()
	want := append([]byte(nil), state...)
	ws := fi.Run(want)
	buf := make([]byte, k.Size())
	copy(buf, state)
	gs := k.Run(buf)
	got := buf[:len(state)]
	if ws != gs {
		return fmt.Sprintf("status native %v, interp %v", gs, ws)
	}
	if !bytes.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				return fmt.Sprintf("state differs first at byte %d: native % x, interp % x", i, got[i&^7:i&^7+8], want[i&^7:i&^7+8])
			}
		}
	}
	return ""
}

func compileBoth(t testing.TB, u *sir.Unit, l sir.Layout, stateSize int) (*interp.Func, *Kernel) {
	t.Helper()
	fi, err := interp.Compile(u, l, interp.Options{})
	if err != nil {
		t.Fatalf("interp: %v\n%s", err, u)
	}
	k, err := Compile(u, l, Options{StateSize: stateSize})
	if err != nil {
		t.Fatalf("jit: %v\n%s", err, u)
	}
	t.Cleanup(func() { k.Close() })
	return fi, k
}

// interesting returns an operand of width w: edge values half the time.
func interesting(rng *rand.Rand, w int) uint64 {
	m := sir.Mask(w)
	switch rng.Intn(12) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return m
	case 3:
		return 1 << uint(w-1) // MIN
	case 4:
		return (1<<uint(w-1) - 1) & m // MAX
	case 5:
		return uint64(rng.Intn(2*w+3)) & m // shift-amount range
	}
	return rng.Uint64() & m
}

// opCase is one op at fixed operand widths.
type opCase struct {
	op            sir.Op
	w, aw, bw, cw int // cw 0: no C; bw 0: no B
	lo            int
}

func (c opCase) String() string {
	return fmt.Sprintf("%s w=%d a=%d b=%d c=%d lo=%d", c.op, c.w, c.aw, c.bw, c.cw, c.lo)
}

// opCases lists every ALU op at the test widths with legal operand widths.
func opCases(rng *rand.Rand) []opCase {
	var cs []opCase
	pick := func() int { return testWidths[rng.Intn(len(testWidths))] }
	for _, w := range testWidths {
		for _, op := range []sir.Op{sir.OpAdd, sir.OpSub, sir.OpMul, sir.OpMulHiU, sir.OpMulHiS, sir.OpDivU,
			sir.OpDivS, sir.OpRemU, sir.OpRemS, sir.OpAnd, sir.OpOr, sir.OpXor} {
			cs = append(cs, opCase{op: op, w: w, aw: w, bw: w})
		}
		cs = append(cs, opCase{op: sir.OpCopy, w: w, aw: w}, opCase{op: sir.OpNot, w: w, aw: w}, opCase{op: sir.OpNeg, w: w, aw: w})
		for _, op := range []sir.Op{sir.OpAddC, sir.OpSubB} {
			cs = append(cs, opCase{op: op, w: w, aw: w, bw: w, cw: 1})
		}
		for _, op := range []sir.Op{sir.OpAddCO, sir.OpSubBO} {
			cs = append(cs, opCase{op: op, w: 1, aw: w, bw: w, cw: 1})
		}
		for _, op := range []sir.Op{sir.OpShl, sir.OpLShr, sir.OpAShr} {
			for _, bw := range []int{pick(), 8, 64} {
				cs = append(cs, opCase{op: op, w: w, aw: w, bw: bw})
			}
		}
		for _, op := range []sir.Op{sir.OpFShl, sir.OpFShr} {
			for _, cw := range []int{pick(), 8, 64} {
				cs = append(cs, opCase{op: op, w: w, aw: w, bw: w, cw: cw})
			}
		}
		for _, op := range []sir.Op{sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe} {
			cs = append(cs, opCase{op: op, w: 1, aw: w, bw: w})
		}
		cs = append(cs, opCase{op: sir.OpMux, w: w, aw: 1, bw: w, cw: w})
		for _, aw := range testWidths {
			if aw <= w {
				cs = append(cs, opCase{op: sir.OpZExt, w: w, aw: aw}, opCase{op: sir.OpSExt, w: w, aw: aw})
			} else {
				cs = append(cs, opCase{op: sir.OpTrunc, w: w, aw: aw})
			}
			if aw >= w {
				for _, lo := range []int{0, aw - w, rng.Intn(aw - w + 1)} {
					cs = append(cs, opCase{op: sir.OpExtract, w: w, aw: aw, lo: lo})
				}
			}
			if aw <= w {
				for _, lo := range []int{0, w - aw, rng.Intn(w - aw + 1)} {
					cs = append(cs, opCase{op: sir.OpInsert, w: w, aw: w, bw: aw, lo: lo})
				}
			}
			cs = append(cs, opCase{op: sir.OpPopCnt, w: w, aw: aw}, opCase{op: sir.OpClz, w: w, aw: aw})
		}
	}
	return cs
}

// opUnit: r1..r3 = load h0[0,8,16] (8 bytes, truncated), r4 = op, store
// r4 to h0[24].
func opUnit(c opCase) *sir.Unit {
	u := sir.NewUnit(c.op.String())
	b := u.Blocks
	_ = b
	bl := u.NewBlock()
	blk := u.Blocks[bl]
	in := sir.Inst{Op: c.op, Dst: 0, Lo: c.lo}
	ld := func(w, off int) sir.Reg {
		r := u.NewReg(w)
		blk.Insts = append(blk.Insts, sir.Inst{Op: sir.OpLoad, Dst: r, Size: 8, Addr: sir.Addr{Home: 0, Offset: off}})
		return r
	}
	in.A = ld(c.aw, 0)
	if c.bw > 0 {
		in.B = ld(c.bw, 8)
	}
	if c.cw > 0 {
		in.C = ld(c.cw, 16)
	}
	in.Dst = u.NewReg(c.w)
	blk.Insts = append(blk.Insts, in,
		sir.Inst{Op: sir.OpStore, A: in.Dst, Size: 8, Addr: sir.Addr{Home: 0, Offset: 24}})
	blk.Term = sir.Term{Kind: sir.TermReturn}
	return u
}

// TestOps: every lowered ALU op x widths x random and edge operands.
func TestOps(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	l, size := sir.PackedLayout([]int{32}, 0)
	n := 300
	if testing.Short() {
		n = 60
	}
	cases, runs := 0, 0
	for _, c := range opCases(rng) {
		fi, k := compileBoth(t, opUnit(c), l, size)
		cases++
		state := make([]byte, size)
		for i := 0; i < n; i++ {
			for j, w := range []int{c.aw, c.bw, c.cw} {
				v := rng.Uint64() // high garbage: the load truncates
				if w > 0 {
					v = v&^sir.Mask(w) | interesting(rng, w)
				}
				for q := 0; q < 8; q++ {
					state[8*j+q] = byte(v >> (8 * q))
				}
			}
			runs++
			if d := diffRun(t, fi, k, state); d != "" {
				t.Fatalf("%v operands % x: %s", c, state[:24], d)
			}
		}
	}
	t.Logf("%d op cases, %d runs", cases, runs)
}

// TestDivEdges: divide by zero and MIN / -1 at every width, both signs.
func TestDivEdges(t *testing.T) {
	l, size := sir.PackedLayout([]int{32}, 0)
	for _, w := range testWidths {
		m := sir.Mask(w)
		for _, op := range []sir.Op{sir.OpDivU, sir.OpDivS, sir.OpRemU, sir.OpRemS} {
			fi, k := compileBoth(t, opUnit(opCase{op: op, w: w, aw: w, bw: w}), l, size)
			for _, ab := range [][2]uint64{{0, 0}, {m, 0}, {1 << uint(w-1), m}, {m, m}, {5, m}, {1 << uint(w-1), 1}} {
				state := make([]byte, size)
				for q := 0; q < 8; q++ {
					state[q], state[8+q] = byte(ab[0]>>(8*q)), byte(ab[1]>>(8*q))
				}
				if d := diffRun(t, fi, k, state); d != "" {
					t.Fatalf("%s w=%d %#x, %#x: %s", op, w, ab[0], ab[1], d)
				}
			}
		}
	}
}

// TestFunnelByConstant: fshl/fshr by a constant amount (straight-line
// shifts, a rotate when both halves are one register) at every width and
// every amount class: 0, inside the word, the word, past it, past 2w.
func TestFunnelByConstant(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	l, size := sir.PackedLayout([]int{32}, 0)
	for _, w := range append([]int{16}, testWidths...) {
		amounts := []uint64{0, 1, uint64(w / 2), uint64(w - 1), uint64(w), uint64(w + 1), uint64(2*w - 1), uint64(2 * w), uint64(2*w + 3)}
		for _, op := range []sir.Op{sir.OpFShl, sir.OpFShr} {
			for _, same := range []bool{false, true} {
				for _, n := range amounts {
					u := sir.NewUnit("funnel")
					blk := u.Blocks[u.NewBlock()]
					a, b, c, d := u.NewReg(w), u.NewReg(w), u.NewReg(8), u.NewReg(w)
					if n >= 256 {
						c = u.NewReg(16)
					}
					blk.Insts = append(blk.Insts,
						sir.Inst{Op: sir.OpLoad, Dst: a, Size: 8, Addr: sir.Addr{Home: 0, Offset: 0}},
						sir.Inst{Op: sir.OpLoad, Dst: b, Size: 8, Addr: sir.Addr{Home: 0, Offset: 8}},
						sir.Inst{Op: sir.OpConst, Dst: c, Imm: n})
					if same {
						b = a
					}
					blk.Insts = append(blk.Insts,
						sir.Inst{Op: op, Dst: d, A: a, B: b, C: c},
						sir.Inst{Op: sir.OpStore, A: d, Size: 8, Addr: sir.Addr{Home: 0, Offset: 24}})
					blk.Term = sir.Term{Kind: sir.TermReturn}
					fi, k := compileBoth(t, u, l, size)
					for range 40 {
						state := make([]byte, size)
						for j := range 2 {
							v := rng.Uint64()&^sir.Mask(w) | interesting(rng, w)
							for q := 0; q < 8; q++ {
								state[8*j+q] = byte(v >> (8 * q))
							}
						}
						if msg := diffRun(t, fi, k, state); msg != "" {
							t.Fatalf("%s w=%d by %d (same register %v), operands % x: %s", op, w, n, same, state[:16], msg)
						}
					}
				}
			}
		}
	}
}
