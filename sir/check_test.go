package sir_test

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

func TestCheckAccepts(t *testing.T) {
	// A register assigned on both arms of a branch and read at the join is
	// definitely assigned; so is a loop counter assigned before the loop.
	u := mustParse(t, `unit ok
b0:
  r1:1 = load.1 h0+0
  r2:8 = const 10
  branch r1, b1, b2
b1:
  r3:8 = const 1
  jump b3
b2:
  r3:8 = const 2
  jump b3
b3:
  r2:8 = sub r2, r3
  r4:1 = ne r2, r3
  branch r4, b3, b4
b4:
  store.1 h0+1, r2
  ret ok
b5:
  r9:8 = copy r8 ; unreachable: not checked for definite assignment
  r8:8 = const 0
  ret ok
`)
	if err := sir.Check(u); err != nil {
		t.Fatal(err)
	}
}

func TestCheckRejects(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"unterminated", "unit x\nb0:\n  r1:8 = const 1\n", "b0 terminator: block is not terminated"},
		{"width mismatch", "unit x\nb0:\n  r1:8 = const 1\n  r2:9 = const 1\n  r3:8 = add r1, r2\n  ret ok\n", "b0[2]: add: operands have widths 8, 9, want 8"},
		{"compare width", "unit x\nb0:\n  r1:8 = const 1\n  r2:8 = eq r1, r1\n  ret ok\n", "eq: result has width 8, want 1"},
		{"branch cond", "unit x\nb0:\n  r1:8 = const 1\n  branch r1, b0, b0\n", "branch condition r1 has width 8, want 1"},
		{"const fits", "unit x\nb0:\n  r1:4 = const 0x10\n  ret ok\n", "constant 0x10 does not fit 4 bits"},
		{"extract range", "unit x\nb0:\n  r1:8 = const 1\n  r2:4 = extract r1, 5\n  ret ok\n", "bits [5, 9) outside the 8-bit operand"},
		{"insert range", "unit x\nb0:\n  r1:8 = const 1\n  r2:4 = const 1\n  r3:8 = insert r1, r2, 6\n  ret ok\n", "bits [6, 10) outside"},
		{"zext narrows", "unit x\nb0:\n  r1:8 = const 1\n  r2:4 = zext r1\n  ret ok\n", "extends 8 bits to 4"},
		{"trunc widens", "unit x\nb0:\n  r1:8 = const 1\n  r2:9 = trunc r1\n  ret ok\n", "truncates 8 bits to 9"},
		{"mux cond", "unit x\nb0:\n  r1:8 = const 1\n  r2:8 = mux r1, r1, r1\n  ret ok\n", "condition A has width 8, want 1"},
		{"carry width", "unit x\nb0:\n  r1:8 = const 1\n  r2:8 = addc r1, r1, r1\n  ret ok\n", "carry C has width 8, want 1"},
		{"load size", "unit x\nb0:\n  r1:8 = load.3 h0+0\n  ret ok\n", "size 3, want 1, 2, 4 or 8"},
		{"load fits", "unit x\nb0:\n  r1:16 = load.1 h0+0\n  ret ok\n", "16-bit value does not fit 1 bytes"},
		{"store fits", "unit x\nb0:\n  r1:64 = const 1\n  store.4 h0+0, r1\n  ret ok\n", "64-bit value does not fit 4 bytes"},
		{"bits window", "unit x\nb0:\n  r1:60 = loadbits h0+0, 13\n  ret ok\n", "crosses an 8-byte window"},
		{"dynamic count", "unit x\nb0:\n  r1:8 = const 1\n  r2:8 = load.1 h0+0[r1*1<0]\n  ret ok\n", "stride and count >= 1"},
		{"ring home", "unit x\nb0:\n  r1:8 = load.1 ring+0\n  ret ok\n", "pseudo-home ring"},
		{"event words", "unit x\nb0:\n  r1:64 = const 1\n  event display fmt=0 level=0 (r1:u100)\n  ret ok\n", "argument 0 (100 bits) has 1 words, want 2"},
		{"event word width", "unit x\nb0:\n  r1:8 = const 1\n  event display fmt=0 level=0 (r1:u9)\n  ret ok\n", "argument 0 word 0 (r1) has width 8, want 9"},
		{"one arm", "unit x\nb0:\n  r1:1 = const 1\n  branch r1, b1, b2\nb1:\n  r2:8 = const 1\n  jump b2\nb2:\n  store.1 h0+0, r2\n  ret ok\n", "b2[0]: r2 may be used before it is assigned"},
		{"two defs one arm missing", "unit x\nb0:\n  r1:1 = const 1\n  r2:8 = const 0\n  branch r1, b1, b3\nb1:\n  r2:8 = const 1\n  branch r1, b2, b3\nb2:\n  r3:8 = const 2\n  r3:8 = const 3\n  jump b3\nb3:\n  store.1 h0+0, r2\n  store.1 h0+0, r3\n  ret ok\n", "b3[1]: r3 may be used before it is assigned"},
		{"single def beside, not above", "unit x\nb0:\n  r1:1 = const 1\n  branch r1, b1, b2\nb1:\n  r2:8 = const 1\n  jump b3\nb2:\n  jump b3\nb3:\n  store.1 h0+0, r2\n  ret ok\n", "b3[0]: r2 may be used before it is assigned"},
		{"use before def", "unit x\nb0:\n  r2:8 = copy r1\n  r1:8 = const 1\n  ret ok\n", "b0[0]: r1 may be used before it is assigned"},
		{"loop carried", "unit x\nb0:\n  jump b1\nb1:\n  r2:8 = add r1, r1\n  r1:8 = const 1\n  r3:1 = const 0\n  branch r3, b1, b2\nb2:\n  ret ok\n", "b1[0]: r1 may be used before"},
		{"branch cond undefined", "unit x\nb0:\n  r1:1 = const 1\n  branch r1, b1, b2\nb1:\n  r2:1 = const 1\n  jump b2\nb2:\n  branch r2, b3, b3\nb3:\n  ret ok\n", "b2 terminator: r2 may be used before"},
	}
	for _, c := range cases {
		u := mustParse(t, c.text)
		err := sir.Check(u)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want error containing %q", c.name, err, c.want)
		}
	}
}

func TestCheckRejectsBuiltUnits(t *testing.T) {
	mk := func(f func(u *sir.Unit)) *sir.Unit {
		u := sir.NewUnit("x")
		u.NewReg(8)
		u.NewBlock()
		u.Blocks[0].Insts = []sir.Inst{{Op: sir.OpConst, Dst: 1, Imm: 1}}
		u.Blocks[0].Term = sir.Term{Kind: sir.TermReturn}
		f(u)
		return u
	}
	cases := []struct {
		name string
		u    *sir.Unit
		want string
	}{
		{"no blocks", &sir.Unit{Name: "x", Regs: make([]sir.RegInfo, 1)}, "no blocks"},
		{"no regs slot", &sir.Unit{Name: "x"}, "Regs is empty"},
		{"bad width", mk(func(u *sir.Unit) { u.Regs[1].Width = 0 }), "r1 has width 0"},
		{"nil block", mk(func(u *sir.Unit) { u.Blocks = append(u.Blocks, nil) }), "b1 is nil"},
		{"bad opcode", mk(func(u *sir.Unit) { u.Blocks[0].Insts[0].Op = 200 }), "invalid opcode"},
		{"missing reg", mk(func(u *sir.Unit) {
			u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpCopy, Dst: 1, A: 7})
		}), "operand A is r7, not a register"},
		{"extra operand", mk(func(u *sir.Unit) {
			u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpNot, Dst: 1, A: 1, B: 1})
		}), "operand B is set"},
		{"store dst", mk(func(u *sir.Unit) {
			u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpStore, Dst: 1, A: 1, Size: 1})
		}), "has a destination register"},
		{"stray imm", mk(func(u *sir.Unit) {
			u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpCopy, Dst: 1, A: 1, Imm: 3})
		}), "Imm is set"},
		{"nil event", mk(func(u *sir.Unit) { u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpEvent}) }), "missing Ev"},
		{"bad kind", mk(func(u *sir.Unit) {
			u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpEvent, Ev: &sir.Event{Kind: 99}})
		}), "unknown event kind"},
		{"jump target", mk(func(u *sir.Unit) { u.Blocks[0].Term = sir.Term{Kind: sir.TermJump, Then: 5} }), "jump to missing block b5"},
		{"term kind", mk(func(u *sir.Unit) { u.Blocks[0].Term = sir.Term{Kind: 9} }), "unknown terminator kind"},
		{"static stride", mk(func(u *sir.Unit) {
			u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpLoad, Dst: 1, Size: 1, Addr: sir.Addr{Stride: 1}})
		}), "static address has a stride"},
		{"negative offset", mk(func(u *sir.Unit) {
			u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpLoad, Dst: 1, Size: 1, Addr: sir.Addr{Offset: -1}})
		}), "negative offset"},
	}
	for _, c := range cases {
		err := sir.Check(c.u)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want error containing %q", c.name, err, c.want)
		}
		_ = c.u.String() // printing a malformed unit must not panic
	}
}
