package jit

import (
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

// zerosUnit builds a straight-line unit of values made of shifts by
// constants, inserts, extracts, zero-extensions and bitwise ops on loads
// and constants (a shifter's stages and their kin), every register
// assigned once and stored to h1 at its own 8-byte slot.
func zerosUnit(rng *rand.Rand) (*sir.Unit, []sir.Reg) {
	u := sir.NewUnit("zeros")
	b := u.Blocks[u.NewBlock()]
	var regs []sir.Reg
	emit := func(in sir.Inst) sir.Reg {
		b.Insts = append(b.Insts, in)
		regs = append(regs, in.Dst)
		return in.Dst
	}
	widths := []int{1, 3, 8, 16, 31, 32, 33, 64}
	pick := func(w int) sir.Reg { // an earlier register of width w, or a new load
		var c []sir.Reg
		for _, r := range regs {
			if u.Width(r) == w {
				c = append(c, r)
			}
		}
		if len(c) > 0 && rng.Intn(4) != 0 {
			return c[rng.Intn(len(c))]
		}
		if rng.Intn(3) == 0 {
			return emit(sir.Inst{Op: sir.OpConst, Dst: u.NewReg(w), Imm: rng.Uint64() & sir.Mask(w) & rng.Uint64()})
		}
		return emit(sir.Inst{Op: sir.OpLoad, Dst: u.NewReg(w), Size: 8, Addr: sir.Addr{Home: 0, Offset: 8 * rng.Intn(8)}})
	}
	for n := 10 + rng.Intn(30); n > 0; n-- {
		w := widths[rng.Intn(len(widths))]
		switch rng.Intn(7) {
		case 0:
			aw := widths[rng.Intn(len(widths))]
			if aw > w {
				aw, w = w, aw
			}
			emit(sir.Inst{Op: sir.OpZExt, Dst: u.NewReg(w), A: pick(aw)})
		case 1:
			op := []sir.Op{sir.OpAnd, sir.OpOr, sir.OpXor}[rng.Intn(3)]
			emit(sir.Inst{Op: op, Dst: u.NewReg(w), A: pick(w), B: pick(w)})
		case 2:
			emit(sir.Inst{Op: sir.OpMux, Dst: u.NewReg(w), A: pick(1), B: pick(w), C: pick(w)})
		case 3:
			k := emit(sir.Inst{Op: sir.OpConst, Dst: u.NewReg(8), Imm: uint64(rng.Intn(w + 1))})
			op := []sir.Op{sir.OpShl, sir.OpLShr}[rng.Intn(2)]
			emit(sir.Inst{Op: op, Dst: u.NewReg(w), A: pick(w), B: k})
		case 4:
			aw := widths[rng.Intn(len(widths))]
			if aw < w {
				aw, w = w, aw
			}
			emit(sir.Inst{Op: sir.OpExtract, Dst: u.NewReg(w), A: pick(aw), Lo: rng.Intn(aw - w + 1)})
		default:
			bw := widths[rng.Intn(len(widths))]
			if bw > w {
				bw, w = w, bw
			}
			emit(sir.Inst{Op: sir.OpInsert, Dst: u.NewReg(w), A: pick(w), B: pick(bw), Lo: rng.Intn(w - bw + 1)})
		}
	}
	for i, r := range regs {
		b.Insts = append(b.Insts, sir.Inst{Op: sir.OpStore, A: r, Size: 8, Addr: sir.Addr{Home: 1, Offset: 8 * i}})
	}
	b.Term = sir.Term{Kind: sir.TermReturn}
	return u, regs
}

// TestKnownZeros: every bit knownZeros claims clear is clear in every
// run, the claims are not empty, and native code that relies on them
// (inserts without their mask) matches the interpreter.
func TestKnownZeros(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	claimed := 0
	for n := range 1500 {
		u, regs := zerosUnit(rng)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator made a bad unit: %v\n%s", err, u)
		}
		l, size := sir.PackedLayout([]int{64, 8 * len(regs)}, 0)
		kz := knownZeros(u, allocate(u, allocatable))
		fi, err := interp.Compile(u, l, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k, err := Compile(u, l, Options{StateSize: size})
		if err != nil {
			t.Fatalf("%v\n%s", err, u)
		}
		for run := range 4 {
			state := make([]byte, size)
			for i := range 64 {
				state[i] = byte(rng.Intn(256)) & byte(rng.Intn(256)) // more zero bits
			}
			if d := diffRun(t, fi, k, state); d != "" {
				t.Fatalf("unit %d run %d: %s\n%s", n, run, d, u)
			}
			fi.Run(state)
			for i, r := range regs {
				v := le64(state[l.Offset(1)+8*i:])
				if z := kz[r] & sir.Mask(u.Width(r)); v&z != 0 {
					t.Fatalf("unit %d: %s = %#x has bits %#x set that knownZeros says are clear\n%s", n, r, v, v&z, u)
				}
			}
		}
		for _, r := range regs {
			if kz[r]&sir.Mask(u.Width(r)) != 0 {
				claimed++
			}
		}
		k.Close()
	}
	if claimed < 1000 {
		t.Errorf("knownZeros claimed clear bits for only %d registers", claimed)
	}
}

func le64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}
