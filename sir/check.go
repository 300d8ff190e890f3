package sir

import (
	"fmt"
	"math"

	"github.com/weft-hdl/weft/sir/internal/regset"
)

// CheckError is the first invariant violation Check found. Inst is the
// instruction index within Block, or -1 for the terminator (or for an error
// about the block or unit as a whole, with Block -1).
type CheckError struct {
	Unit  string
	Block int
	Inst  int
	Msg   string
}

func (e *CheckError) Error() string {
	switch {
	case e.Block < 0:
		return fmt.Sprintf("sir: unit %q: %s", e.Unit, e.Msg)
	case e.Inst < 0:
		return fmt.Sprintf("sir: unit %q: b%d terminator: %s", e.Unit, e.Block, e.Msg)
	}
	return fmt.Sprintf("sir: unit %q: b%d[%d]: %s", e.Unit, e.Block, e.Inst, e.Msg)
}

// Check verifies u's invariants:
//
//   - at least one block; every block terminated; branch targets exist;
//   - every register has a width in 1..64 and every operand is a register
//     of the unit; operand and result widths follow the Op's rule;
//   - immediates fit: OpConst's Imm < 2^w, bit offsets in range, sizes 1, 2,
//     4 or 8, addresses non-negative, dynamic addresses with Stride, Count >= 1;
//     fields an op does not use are zero;
//   - definite assignment: on every path from the entry to a use (in a
//     reachable block), the register is assigned before it is read.
//     Registers may be assigned more than once (SIR is not SSA).
//
// Check never panics, whatever u holds.
func Check(u *Unit) error {
	c := &checker{u: u}
	if err := c.structure(); err != nil {
		return err
	}
	return c.definite()
}

type checker struct{ u *Unit }

func (c *checker) errf(b, i int, format string, args ...any) error {
	return &CheckError{Unit: c.u.Name, Block: b, Inst: i, Msg: fmt.Sprintf(format, args...)}
}

func (c *checker) structure() error {
	u := c.u
	if len(u.Regs) == 0 {
		return c.errf(-1, -1, "Regs is empty (Regs[0] is the unused NoReg slot)")
	}
	for r := 1; r < len(u.Regs); r++ {
		if w := u.Regs[r].Width; w < 1 || w > 64 {
			return c.errf(-1, -1, "r%d has width %d, want 1..64", r, w)
		}
	}
	if len(u.Blocks) == 0 {
		return c.errf(-1, -1, "no blocks")
	}
	for bi, b := range u.Blocks {
		if b == nil {
			return c.errf(-1, -1, "b%d is nil", bi)
		}
		for ii := range b.Insts {
			if msg := c.inst(&b.Insts[ii]); msg != "" {
				return c.errf(bi, ii, "%s: %s", b.Insts[ii].Op, msg)
			}
		}
		if msg := c.term(&b.Term); msg != "" {
			return c.errf(bi, -1, "%s", msg)
		}
	}
	return nil
}

func (c *checker) reg(r Reg) bool { return r > 0 && int(r) < len(c.u.Regs) }

func (c *checker) term(t *Term) string {
	okBlock := func(b BlockID) bool { return b >= 0 && int(b) < len(c.u.Blocks) }
	switch t.Kind {
	case TermNone:
		return "block is not terminated"
	case TermJump:
		if !okBlock(t.Then) {
			return fmt.Sprintf("jump to missing block %s", t.Then)
		}
		if t.Cond != NoReg || t.Else != 0 || t.Status != 0 {
			return "jump has unused fields set"
		}
	case TermBranch:
		if !c.reg(t.Cond) {
			return fmt.Sprintf("branch condition %s is not a register", t.Cond)
		}
		if w := c.u.Width(t.Cond); w != 1 {
			return fmt.Sprintf("branch condition %s has width %d, want 1", t.Cond, w)
		}
		if !okBlock(t.Then) || !okBlock(t.Else) {
			return fmt.Sprintf("branch to missing block (%s, %s)", t.Then, t.Else)
		}
		if t.Status != 0 {
			return "branch has a status"
		}
	case TermReturn:
		if t.Cond != NoReg || t.Then != 0 || t.Else != 0 {
			return "ret has unused fields set"
		}
	default:
		return fmt.Sprintf("unknown terminator kind %d", t.Kind)
	}
	return ""
}

// inst checks one instruction and returns a message, "" when it is fine.
func (c *checker) inst(in *Inst) string {
	op := in.Op
	if !op.Valid() {
		return "invalid opcode"
	}
	u := c.u
	// Register operands.
	n := op.NumArgs()
	regs := [3]Reg{in.A, in.B, in.C}
	for i, r := range regs {
		if i < n && !c.reg(r) {
			return fmt.Sprintf("operand %c is %s, not a register of the unit", 'A'+i, r)
		}
		if i >= n && r != NoReg {
			return fmt.Sprintf("operand %c is set but %s takes %d operands", 'A'+i, op, n)
		}
	}
	if op.HasDst() != (in.Dst != NoReg) {
		if op.HasDst() {
			return "missing destination register"
		}
		return "has a destination register"
	}
	if in.Dst != NoReg && !c.reg(in.Dst) {
		return fmt.Sprintf("destination %s is not a register of the unit", in.Dst)
	}
	// Unused fields.
	if op != OpConst && in.Imm != 0 {
		return "Imm is set"
	}
	if in.Lo != 0 && op != OpExtract && op != OpInsert && op != OpLoadBits && op != OpStoreBits {
		return "Lo is set"
	}
	if in.Size != 0 && op != OpLoad && op != OpStore {
		return "Size is set"
	}
	if !op.IsMem() && in.Addr != (Addr{}) {
		return "Addr is set"
	}
	if (op == OpEvent) != (in.Ev != nil) {
		if op == OpEvent {
			return "missing Ev"
		}
		return "Ev is set"
	}
	w, aw, bw, cw := u.Width(in.Dst), u.Width(in.A), u.Width(in.B), u.Width(in.C)
	want := func(what string, got, exp int) string {
		return fmt.Sprintf("%s has width %d, want %d", what, got, exp)
	}
	switch op {
	case OpConst:
		if in.Imm&^Mask(w) != 0 {
			return fmt.Sprintf("constant %#x does not fit %d bits", in.Imm, w)
		}
	case OpCopy, OpNot, OpNeg:
		if aw != w {
			return want("A", aw, w)
		}
	case OpAdd, OpSub, OpMul, OpMulHiU, OpMulHiS, OpDivU, OpDivS, OpRemU, OpRemS, OpAnd, OpOr, OpXor:
		if aw != w || bw != w {
			return fmt.Sprintf("operands have widths %d, %d, want %d", aw, bw, w)
		}
	case OpAddC, OpSubB:
		if aw != w || bw != w {
			return fmt.Sprintf("operands have widths %d, %d, want %d", aw, bw, w)
		}
		if cw != 1 {
			return want("carry C", cw, 1)
		}
	case OpAddCO, OpSubBO:
		if w != 1 {
			return want("result", w, 1)
		}
		if aw != bw {
			return fmt.Sprintf("operands have widths %d, %d", aw, bw)
		}
		if cw != 1 {
			return want("carry C", cw, 1)
		}
	case OpShl, OpLShr, OpAShr:
		if aw != w {
			return want("A", aw, w)
		}
	case OpFShl, OpFShr:
		if aw != w || bw != w {
			return fmt.Sprintf("operands have widths %d, %d, want %d", aw, bw, w)
		}
	case OpEq, OpNe, OpULt, OpULe, OpSLt, OpSLe:
		if w != 1 {
			return want("result", w, 1)
		}
		if aw != bw {
			return fmt.Sprintf("operands have widths %d, %d", aw, bw)
		}
	case OpMux:
		if aw != 1 {
			return want("condition A", aw, 1)
		}
		if bw != w || cw != w {
			return fmt.Sprintf("operands have widths %d, %d, want %d", bw, cw, w)
		}
	case OpZExt, OpSExt:
		if aw > w {
			return fmt.Sprintf("extends %d bits to %d", aw, w)
		}
	case OpTrunc:
		if aw < w {
			return fmt.Sprintf("truncates %d bits to %d", aw, w)
		}
	case OpExtract:
		if in.Lo < 0 || in.Lo+w > aw {
			return fmt.Sprintf("bits [%d, %d) outside the %d-bit operand", in.Lo, in.Lo+w, aw)
		}
	case OpInsert:
		if aw != w {
			return want("A", aw, w)
		}
		if in.Lo < 0 || in.Lo+bw > aw {
			return fmt.Sprintf("bits [%d, %d) outside the %d-bit operand", in.Lo, in.Lo+bw, aw)
		}
	case OpPopCnt, OpClz:
	case OpLoad, OpStore:
		if in.Size != 1 && in.Size != 2 && in.Size != 4 && in.Size != 8 {
			return fmt.Sprintf("size %d, want 1, 2, 4 or 8", in.Size)
		}
		vw := w
		if op == OpStore {
			vw = aw
		}
		if vw > 8*in.Size {
			return fmt.Sprintf("%d-bit value does not fit %d bytes", vw, in.Size)
		}
	case OpLoadBits, OpStoreBits:
		vw := w
		if op == OpStoreBits {
			vw = aw
		}
		if in.Lo < 0 || in.Lo%8+vw > 64 {
			return fmt.Sprintf("bit field [%d, %d) crosses an 8-byte window (Lo%%8 + width must be <= 64)", in.Lo, in.Lo+vw)
		}
	case OpEvent:
		return c.event(in.Ev)
	}
	if op.IsMem() {
		a := in.Addr
		if a.Home < 0 {
			return fmt.Sprintf("address names pseudo-home %s", a.Home)
		}
		if a.Offset < 0 {
			return fmt.Sprintf("negative offset %d", a.Offset)
		}
		if a.Index != NoReg {
			if !c.reg(a.Index) {
				return fmt.Sprintf("index %s is not a register of the unit", a.Index)
			}
			if a.Stride < 1 || a.Count < 1 {
				return fmt.Sprintf("dynamic address needs stride and count >= 1, has %d and %d", a.Stride, a.Count)
			}
		} else if a.Stride != 0 || a.Count != 0 {
			return "static address has a stride or count"
		}
	}
	return ""
}

func (c *checker) event(ev *Event) string {
	if ev.Kind < EvDisplay || ev.Kind >= numEventKinds {
		return fmt.Sprintf("unknown event kind %d", ev.Kind)
	}
	if ev.Format < 0 || ev.Level < 0 || ev.Format > math.MaxUint32 || ev.Level > math.MaxUint32 {
		return "format id or level outside 0..2^32-1"
	}
	if len(ev.Args) > MaxEventArgs {
		return "too many arguments"
	}
	for i, a := range ev.Args {
		if a.Width < 1 || a.Width > MaxEventArgWidth {
			return fmt.Sprintf("argument %d has width %d", i, a.Width)
		}
		if n := (a.Width + 63) / 64; len(a.Words) != n {
			return fmt.Sprintf("argument %d (%d bits) has %d words, want %d", i, a.Width, len(a.Words), n)
		}
		for j, r := range a.Words {
			if !c.reg(r) {
				return fmt.Sprintf("argument %d word %d is %s, not a register of the unit", i, j, r)
			}
			exp := 64
			if j == len(a.Words)-1 {
				exp = a.Width - 64*j
			}
			if got := c.u.Width(r); got != exp {
				return fmt.Sprintf("argument %d word %d (%s) has width %d, want %d", i, j, r, got, exp)
			}
		}
	}
	return ""
}

// definite checks definite assignment with a forward "must be defined"
// data-flow problem over the registers some block reads before writing.
func (c *checker) definite() error {
	u := c.u
	ue := UpwardExposed(u)
	// A register assigned once (in reachable code) is definitely assigned
	// where it is read across blocks exactly when its block strictly
	// dominates the reader's; only registers assigned several times need
	// the data flow below, whose cost is blocks times registers.
	reach := u.Reachable()
	ndefs := make([]int32, len(u.Regs))
	defBlock := make([]BlockID, len(u.Regs))
	for bi, b := range u.Blocks {
		if !reach[bi] {
			continue
		}
		for i := range b.Insts {
			if d := b.Insts[i].Dst; d != NoReg && int(d) < len(ndefs) {
				ndefs[d]++
				defBlock[d] = BlockID(bi)
			}
		}
	}
	var dom *DomTree
	idx := make(map[Reg]int)
	var glob []Reg
	rpo := u.RPO()
	for _, b := range rpo {
		bi := int(b)
		for _, r := range ue[b] {
			if int(r) < len(ndefs) && ndefs[r] == 1 {
				if dom == nil {
					dom = u.Dominators()
				}
				if d := defBlock[r]; d == BlockID(bi) || !dom.Dominates(d, BlockID(bi)) {
					return c.errf(bi, firstUse(u.Blocks[bi], r), "%s may be used before it is assigned (not assigned on every path from the entry)", r)
				}
				continue
			}
			if _, ok := idx[r]; !ok {
				idx[r] = len(glob)
				glob = append(glob, r)
			}
		}
	}
	if len(glob) == 0 {
		return nil
	}
	n := len(glob)
	defs := make([]regset.Set, len(u.Blocks))
	for bi, b := range u.Blocks {
		defs[bi] = regset.New(n)
		for i := range b.Insts {
			if d := b.Insts[i].Dst; d != NoReg {
				if k, ok := idx[d]; ok {
					defs[bi].Add(k)
				}
			}
		}
	}
	preds := u.Preds()
	in := make([]regset.Set, len(u.Blocks))
	out := make([]regset.Set, len(u.Blocks))
	for _, b := range rpo {
		in[b] = regset.Full(n)
		out[b] = regset.Full(n)
	}
	in[0] = regset.New(n)
	tmp := regset.New(n)
	for changed := true; changed; {
		changed = false
		for _, b := range rpo {
			if b != 0 {
				tmp.Fill(n)
				for _, p := range preds[b] {
					if reach[p] {
						tmp.And(out[p])
					}
				}
				in[b].Copy(tmp)
			}
			tmp.Copy(in[b])
			tmp.Or(defs[b])
			if !tmp.Equal(out[b]) {
				out[b].Copy(tmp)
				changed = true
			}
		}
	}
	for _, b := range rpo {
		for _, r := range ue[b] {
			if k, ok := idx[r]; ok && !in[b].Has(k) {
				return c.errf(int(b), firstUse(u.Blocks[b], r), "%s may be used before it is assigned (not assigned on every path from the entry)", r)
			}
		}
	}
	return nil
}

func firstUse(b *Block, r Reg) int {
	var buf []Reg
	for i := range b.Insts {
		buf = b.Insts[i].Uses(buf[:0])
		for _, x := range buf {
			if x == r {
				return i
			}
		}
	}
	return -1
}

// UpwardExposed returns, per block, the registers the block reads before
// (or without) assigning them itself, in first-use order; the terminator's
// condition counts as a use after the instructions. Registers that are not
// upward-exposed anywhere never carry a value between blocks.
func UpwardExposed(u *Unit) [][]Reg {
	res := make([][]Reg, len(u.Blocks))
	def := make(map[Reg]bool)
	seen := make(map[Reg]bool)
	var buf []Reg
	for bi, b := range u.Blocks {
		clear(def)
		clear(seen)
		use := func(r Reg) {
			if r != NoReg && !def[r] && !seen[r] {
				seen[r] = true
				res[bi] = append(res[bi], r)
			}
		}
		for i := range b.Insts {
			buf = b.Insts[i].Uses(buf[:0])
			for _, r := range buf {
				use(r)
			}
			if d := b.Insts[i].Dst; d != NoReg {
				def[d] = true
			}
		}
		if b.Term.Kind == TermBranch {
			use(b.Term.Cond)
		}
	}
	return res
}
