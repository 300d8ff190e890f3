package jit

import "github.com/weft-hdl/weft/sir"

// knownZeros computes, for each register with one definition, bits its
// value always has clear (those at and above its width included; a
// register with several definitions, or none, gets only those). The
// lowering uses it to skip masks that would clear clear bits: an insert
// into a value built by shifts and inserts of narrower ones (a shifter's
// {fill, x >> k} stages) needs no and before its or.
//
// A single definition dominates every read (definite assignment), and
// registers are visited in the allocation's reverse postorder, whose
// definition counts (al.ndef) it reads, so an operand's facts are final
// before its readers' are computed (a loop-carried operand has several
// definitions and none).
func knownZeros(u *sir.Unit, al *allocation) []uint64 {
	defs := al.ndef
	kz := make([]uint64, len(u.Regs))
	isConst := make([]bool, len(u.Regs))
	for r := range kz {
		kz[r] = ^sir.Mask(u.Width(sir.Reg(r)))
	}
	get := func(r sir.Reg) uint64 {
		if r <= 0 || int(r) >= len(kz) {
			return 0
		}
		return kz[r]
	}
	for _, bi := range al.order {
		for _, in := range u.Blocks[bi].Insts {
			d := in.Dst
			if d == sir.NoReg || defs[d] != 1 {
				continue
			}
			above := ^sir.Mask(u.Width(d))
			var z uint64
			switch in.Op {
			case sir.OpConst:
				z, isConst[d] = ^in.Imm, true
			case sir.OpCopy, sir.OpZExt:
				z = get(in.A)
			case sir.OpAnd:
				z = get(in.A) | get(in.B)
			case sir.OpOr, sir.OpXor:
				z = get(in.A) & get(in.B)
			case sir.OpMux:
				z = get(in.B) & get(in.C)
			case sir.OpShl, sir.OpLShr:
				if b := in.B; b > 0 && int(b) < len(kz) && isConst[b] && ^kz[b] < 64 {
					c := ^kz[b] // the constant's value
					if in.Op == sir.OpShl {
						z = get(in.A)<<c | sir.Mask(int(c))
					} else {
						z = get(in.A)>>c | ^(^uint64(0) >> c)
					}
				}
			case sir.OpExtract:
				z = get(in.A) >> uint(in.Lo)
			case sir.OpInsert:
				field := sir.Mask(u.Width(in.B)) << uint(in.Lo)
				z = get(in.A)&^field | get(in.B)<<uint(in.Lo)&field
			}
			kz[d] = z | above
		}
	}
	return kz
}
