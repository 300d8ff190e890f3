package opt

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// A syndrome-style chain over bits of a home and of a register becomes
// masked words and one popcount.
func TestParityChain(t *testing.T) {
	src := `unit "p"
b0:
  r1:64 = load.8 h1+0
  r2:1 = loadbits h0+0, 0
  r3:1 = loadbits h0+0, 3
  r4:1 = xor r2, r3
  r5:1 = loadbits h0+1, 2
  r6:1 = xor r4, r5
  r7:1 = extract r1, 9
  r8:1 = xor r6, r7
  r9:1 = extract r1, 40
  r8:1 = xor r8, r9
  r10:1 = const 1
  r8:1 = xor r8, r10
  r11:1 = loadbits h0+2, 7
  r8:1 = xor r8, r11
  r12:1 = loadbits h0+3, 1
  r8:1 = xor r8, r12
  r13:1 = loadbits h0+4, 6
  r8:1 = xor r8, r13
  r14:1 = extract r1, 63
  r8:1 = xor r8, r14
  r15:1 = loadbits h0+0, 0
  r8:1 = xor r8, r15
  r16:1 = loadbits h0+5, 5
  r8:1 = xor r8, r16
  r17:1 = extract r1, 0
  r8:1 = xor r8, r17
  storebits h2+0, 0, r8
  ret ok
`
	u, err := sir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	orig := u.Clone()
	if err := Run(u, Options{Check: true}); err != nil {
		t.Fatal(err)
	}
	got := u.String()
	if strings.Count(got, "popcnt") != 1 || strings.Contains(got, "extract r1, 9") || strings.Count(got, "loadbits") != 1 {
		t.Errorf("want one popcount over one home window and r1:\n%s", got)
	}
	rng := rand.New(rand.NewSource(1))
	for range 50 {
		if msg := sameBehaviour(orig, u, rng); msg != "" {
			t.Fatal(msg)
		}
	}
}

// genParity builds units of 1-bit xor chains over loadbits, extracts and
// constants, with stores into the bytes the leaves came from, registers
// assigned again and accumulating xors in between, across a few blocks.
func genParity(rng *rand.Rand) *sir.Unit {
	b := sir.NewBuilder("parity")
	nb := 1 + rng.Intn(3)
	for i := 1; i < nb; i++ {
		b.NewBlock()
	}
	words := []sir.Reg{b.Load(64, 8, sir.Addr{Home: 1, Offset: 8 * rng.Intn(4)}), b.Load(37, 8, sir.Addr{Home: 2, Offset: 8 * rng.Intn(4)})}
	var bits []sir.Reg
	acc := b.Reg(1)
	b.ConstTo(acc, 0)
	leaf := func() sir.Reg {
		switch rng.Intn(5) {
		case 0, 1:
			return b.LoadBits(1, sir.Addr{Home: sir.HomeID(rng.Intn(2)), Offset: rng.Intn(6)}, rng.Intn(8))
		case 2, 3:
			w := words[rng.Intn(len(words))]
			d := b.Reg(1)
			b.Emit(sir.Inst{Op: sir.OpExtract, Dst: d, A: w, Lo: rng.Intn(b.Width(w))})
			return d
		default:
			return b.Const(1, uint64(rng.Intn(2)))
		}
	}
	for bi := 0; bi < nb; bi++ {
		b.SetBlock(sir.BlockID(bi))
		bits = bits[:0] // another block's may not be assigned on every path here
		for n := 10 + rng.Intn(80); n > 0; n-- {
			switch k := rng.Intn(100); {
			case k < 80:
				l := leaf()
				if len(bits) > 0 && rng.Intn(2) == 0 {
					bits = append(bits, b.Xor(bits[rng.Intn(len(bits))], l))
				} else {
					b.OpTo(acc, sir.OpXor, acc, l, sir.NoReg)
				}
				bits = append(bits, l)
			case k < 84:
				b.StoreBits(sir.Addr{Home: 3, Offset: rng.Intn(12)}, rng.Intn(8), acc)
			case k < 85: // into the bytes leaves come from
				b.StoreBits(sir.Addr{Home: sir.HomeID(rng.Intn(3)), Offset: rng.Intn(12)}, rng.Intn(8), acc)
			case k < 86:
				size := 1 + rng.Intn(2)
				b.Store(size, sir.Addr{Home: sir.HomeID(rng.Intn(2)), Offset: rng.Intn(12)}, b.Const(8*size, rng.Uint64()))
			case k < 87:
				i := rng.Intn(len(words))
				b.Emit(sir.Inst{Op: sir.OpLoad, Dst: words[i], Size: 8, Addr: sir.Addr{Home: sir.HomeID(1 + i), Offset: 8 * rng.Intn(4)}})
			case k < 93 && len(bits) > 1:
				b.StoreBits(sir.Addr{Home: 3, Offset: rng.Intn(16)}, rng.Intn(8), bits[rng.Intn(len(bits))])
			default:
				y := acc
				if len(bits) > 0 {
					y = bits[rng.Intn(len(bits))]
				}
				x := b.Xor(acc, y)
				b.StoreBits(sir.Addr{Home: 3, Offset: 16 + rng.Intn(16)}, rng.Intn(8), x)
			}
		}
		b.StoreBits(sir.Addr{Home: 3, Offset: 40}, bi, acc)
		if bi == nb-1 {
			b.Return(sir.StatusOK)
		} else if rng.Intn(2) == 0 {
			b.Branch(acc, sir.BlockID(bi+1), sir.BlockID(nb-1))
		} else {
			b.Jump(sir.BlockID(bi + 1))
		}
	}
	u, err := b.Finish()
	if err != nil {
		panic(err)
	}
	return u
}

func TestParityRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(41))
	rewritten := 0
	n := 400
	for i := range n {
		u := genParity(rng)
		if err := sir.Check(u); err != nil {
			t.Fatalf("unit %d: %v\n%s", i, err, u)
		}
		orig := u.Clone()
		one := u.Clone()
		if err := RunPass(one, "parity"); err != nil {
			t.Fatal(err)
		}
		if err := sir.Check(one); err != nil {
			t.Fatalf("unit %d after parity: %v\n%s", i, err, one)
		}
		if strings.Contains(one.String(), "popcnt") {
			rewritten++
		}
		if err := Run(u, Options{Check: true}); err != nil {
			t.Fatal(err)
		}
		for k := range 4 {
			if msg := sameBehaviour(orig, one, rng); msg != "" {
				t.Fatalf("unit %d run %d, parity alone: %s\nbefore:\n%s\nafter:\n%s", i, k, msg, orig, one)
			}
			if msg := sameBehaviour(orig, u, rng); msg != "" {
				t.Fatalf("unit %d run %d, pipeline: %s\nbefore:\n%s\nafter:\n%s", i, k, msg, orig, u)
			}
		}
	}
	t.Logf("%d of %d units rewritten", rewritten, n)
	if rewritten < n/4 {
		t.Errorf("only %d of %d units had a tree rewritten: the generator does not exercise parity", rewritten, n)
	}
}
