package opt

import "github.com/weft-hdl/weft/sir"

// Bounds of an arm ifconvert turns into straight-line code: both arms run
// whatever the condition, so only short ones pay (a mispredicted branch
// costs about as much as a dozen simple instructions).
const (
	ifconvMaxOps    = 8 // instructions other than stores and constants
	ifconvMaxConsts = 8 // constants (most become immediates)
	ifconvMaxStores = 4
	ifconvRounds    = 4 // nested ifs convert from the inside out
)

// ifconvert turns short if/else and if-only shapes whose arms only compute
// and store into straight-line code: block B ending in "branch c, T, E",
// where T and E are arms (reached only from B, ending in a jump to the
// same join) or one of them is the join itself. The arms' computations
// run unconditionally; each location an arm stores becomes one store of
// mux(c, then value, else value), the side that leaves it alone giving
// its old contents (loaded first). An arm qualifies when:
//
//   - its instructions are pure (loads included: they never fault) or
//     static stores of values as wide as the stored bytes or stored by
//     both arms at the same width;
//   - every register it assigns is assigned only there (so neither the
//     other arm nor anything after the join reads it: the arm dominates
//     neither, and definite assignment forbids reading a register not
//     assigned on every path);
//   - it loads no byte it stored before, so all loads can run before all
//     stores and still read what they read in the arm;
//   - the stores of both arms, taken together, are to identical or
//     disjoint byte ranges, one store per range per arm.
//
// Straight-line code then merges with the join (cfg), so a chain of such
// ifs on one condition (a reset test in every process) becomes one block
// in which cse loads the condition once; ifconvert runs cfg, cse and
// copyprop itself, only when it converted something.
//
// Converted code is smaller and never mispredicts, but runs both arms:
// on a small design whose code fits the instruction cache, with branches
// that predict well, it is slower (kernels decides: see
// kernels.Options.LargeMinInsts).
func ifconvert(u *sir.Unit) {
	changed := false
	for range ifconvRounds {
		if !ifconvertRound(u) {
			break
		}
		changed = true
		cleanupCFG(u)
	}
	if changed {
		cse(u)
		copyprop(u)
	}
}

type ifconvStore struct {
	addr sir.Addr
	size int
	val  [2]sir.Reg // then, else value (NoReg: that arm leaves it alone)
}

func ifconvertRound(u *sir.Unit) bool {
	ndefs := defCounts(u)
	preds := u.Preds()
	// touched blocks were converted in this round: the counts and
	// predecessors above do not describe them any more.
	touched := make([]bool, len(u.Blocks))
	// An arm is a block reached only from b that jumps on to another.
	arm := func(b, x sir.BlockID) bool {
		if x == 0 || x == b || touched[x] || len(preds[x]) != 1 || preds[x][0] != b {
			return false
		}
		t := u.Blocks[x].Term
		return t.Kind == sir.TermJump && t.Then != x && t.Then != b
	}
	changed := false
	for bi, blk := range u.Blocks {
		t := blk.Term
		b := sir.BlockID(bi)
		if t.Kind != sir.TermBranch || t.Then == t.Else {
			continue
		}
		var arms [2]*sir.Block // then, else; nil: empty
		var join sir.BlockID
		switch {
		case arm(b, t.Then) && arm(b, t.Else) && u.Blocks[t.Then].Term.Then == u.Blocks[t.Else].Term.Then:
			arms[0], arms[1] = u.Blocks[t.Then], u.Blocks[t.Else]
			join = u.Blocks[t.Then].Term.Then
		case arm(b, t.Then) && u.Blocks[t.Then].Term.Then == t.Else:
			arms[0], join = u.Blocks[t.Then], t.Else
		case arm(b, t.Else) && u.Blocks[t.Else].Term.Then == t.Then:
			arms[1], join = u.Blocks[t.Else], t.Then
		default:
			continue
		}
		if join == b {
			continue
		}
		stores, ok := ifconvPlan(u, ndefs, arms)
		if !ok {
			continue
		}
		var code []sir.Inst
		for _, a := range arms {
			if a == nil {
				continue
			}
			for _, in := range a.Insts {
				if in.Op != sir.OpStore {
					code = append(code, in)
				}
			}
		}
		for i := range stores {
			st := &stores[i]
			if st.val[0] != sir.NoReg && st.val[1] != sir.NoReg {
				continue
			}
			r := u.NewReg(8 * st.size)
			code = append(code, sir.Inst{Op: sir.OpLoad, Dst: r, Size: st.size, Addr: st.addr})
			for k := range st.val {
				if st.val[k] == sir.NoReg {
					st.val[k] = r
				}
			}
		}
		// An arm's constant zero (a reset value) selects by masking:
		// v & sext(c) or v & sext(!c), the mask shared by every store of
		// that width (and, after cse, by the next ifs on c).
		zero := map[sir.Reg]bool{}
		for _, in := range code {
			if in.Op == sir.OpConst && in.Imm == 0 {
				zero[in.Dst] = true
			}
		}
		var notCond sir.Reg
		masks := map[[2]int]sir.Reg{} // (width, which side is zero) -> mask
		mask := func(w, side int) sir.Reg {
			if m, ok := masks[[2]int{w, side}]; ok {
				return m
			}
			c := t.Cond
			if side == 0 { // zero when c: keep the else value where !c
				if notCond == sir.NoReg {
					one := u.NewReg(1)
					notCond = u.NewReg(1)
					code = append(code, sir.Inst{Op: sir.OpConst, Dst: one, Imm: 1},
						sir.Inst{Op: sir.OpXor, Dst: notCond, A: t.Cond, B: one})
				}
				c = notCond
			}
			m := c
			if w > 1 {
				m = u.NewReg(w)
				code = append(code, sir.Inst{Op: sir.OpSExt, Dst: m, A: c})
			}
			masks[[2]int{w, side}] = m
			return m
		}
		for _, st := range stores {
			w := u.Width(st.val[0])
			v := u.NewReg(w)
			switch {
			case zero[st.val[0]] && !zero[st.val[1]]:
				code = append(code, sir.Inst{Op: sir.OpAnd, Dst: v, A: st.val[1], B: mask(w, 0)})
			case zero[st.val[1]] && !zero[st.val[0]]:
				code = append(code, sir.Inst{Op: sir.OpAnd, Dst: v, A: st.val[0], B: mask(w, 1)})
			default:
				code = append(code, sir.Inst{Op: sir.OpMux, Dst: v, A: t.Cond, B: st.val[0], C: st.val[1]})
			}
			code = append(code, sir.Inst{Op: sir.OpStore, A: v, Size: st.size, Addr: st.addr})
		}
		touched[bi] = true
		blk.Insts = append(blk.Insts, code...)
		blk.Term = sir.Term{Kind: sir.TermJump, Then: join}
		for _, a := range arms {
			if a != nil {
				a.Insts, a.Term = nil, sir.Term{Kind: sir.TermJump, Then: join}
			}
		}
		changed = true
	}
	return changed
}

// ifconvPlan checks two arms against ifconvert's rules and lists the
// locations they store, in the order of the then arm's stores followed by
// the else arm's others.
func ifconvPlan(u *sir.Unit, ndefs []int32, arms [2]*sir.Block) ([]ifconvStore, bool) {
	var stores []ifconvStore
	for k, a := range arms {
		if a == nil {
			continue
		}
		ops, nconst, nst := 0, 0, 0
		for i := range a.Insts {
			in := &a.Insts[i]
			switch {
			case in.Op == sir.OpStore:
				if in.Addr.Dynamic() {
					return nil, false
				}
				nst++
				lo, hi := in.Addr.Offset, in.Addr.Offset+in.Size
				found := false
				for j := range stores {
					st := &stores[j]
					if st.addr.Home != in.Addr.Home || st.addr.Offset+st.size <= lo || hi <= st.addr.Offset {
						continue // disjoint
					}
					if st.addr != in.Addr || st.size != in.Size || st.val[k] != sir.NoReg || u.Width(st.val[1-k]) != u.Width(in.A) {
						return nil, false
					}
					st.val[k], found = in.A, true
				}
				if !found {
					st := ifconvStore{addr: in.Addr, size: in.Size}
					st.val[k] = in.A
					stores = append(stores, st)
				}
			case in.Op.Pure() && in.Dst != sir.NoReg:
				if (in.Op == sir.OpLoad || in.Op == sir.OpLoadBits) && loadsStored(u, in, a.Insts[:i]) {
					return nil, false
				}
				if ndefs[in.Dst] != 1 {
					return nil, false
				}
				if in.Op == sir.OpConst {
					nconst++
				} else {
					ops++
				}
			default:
				return nil, false
			}
		}
		if ops > ifconvMaxOps || nconst > ifconvMaxConsts || nst > ifconvMaxStores {
			return nil, false
		}
	}
	// A location only one arm stores is kept by the other through a full
	// load of its bytes, which the stored value must fill.
	for _, st := range stores {
		for k := range st.val {
			if st.val[k] == sir.NoReg && u.Width(st.val[1-k]) != 8*st.size {
				return nil, false
			}
		}
	}
	return stores, true
}

// loadsStored reports whether the load ld may read bytes one of the
// stores among before wrote (all static stores, per ifconvPlan).
func loadsStored(u *sir.Unit, ld *sir.Inst, before []sir.Inst) bool {
	r := memRange(u, ld)
	if ld.Addr.Dynamic() {
		r.hi += (ld.Addr.Count - 1) * ld.Addr.Stride
	}
	for i := range before {
		st := &before[i]
		if st.Op == sir.OpStore && st.Addr.Home == ld.Addr.Home && memRange(u, st).overlaps(r) {
			return true
		}
	}
	return false
}
