package slt

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/internal/scc"
)

// Splitting comb processes into items.
//
// A comb process becomes one item unless one of two cuts applies; both keep
// the process's behaviour (every fixpoint of the process is a fixpoint of
// its items and back, and acyclic items compute it in one pass).
//
// Statement groups (SplitStmts). The process body's top-level statements
// (nested begin/end blocks flattened, their locals carried along) are
// grouped with a union-find. Two statements share a group when
//   - they write overlapping bits (the later write must win);
//   - the earlier one reads bits the later one writes (the earlier read
//     sees the previous activation's value: keep that, it is a self-loop);
//   - they touch the same process-local variable (locals are private
//     storage that may carry values between statements or activations);
//   - both run system tasks or $random (runtime events keep their order).
// What is left between groups is only "an earlier statement writes bits a
// later one reads". Groups whose such edges form a cycle are merged, so the
// groups form a DAG whose edges follow source order; the global graph then
// orders them exactly as the process did. Each group's read set is
// recomputed over the group alone (upward-exposed), so a read the process
// hid because an earlier statement wrote the bits becomes an edge from
// that statement's group.
//
// Concatenation parts (SplitConcat). A group that is one unconditional
// assignment {p0, p1, ...} = rhs whose parts all have constant addresses
// and that touches no locals is cut into one item per part, pN = rhs[slice].
// An assignment v = {e0, e1, ...} to a constant-address target is cut the
// same way at the boundaries of the right-hand side's parts
// (v[hi:lo] = ek), but only for processes in a loop (see below): elsewhere
// it would only multiply items.
// The slice is pushed into rhs through concatenations, constants, bitwise
// operators, ~, ?:, extensions, truncations, replications and constant
// shifts, so each part reads exactly the rhs bits it takes (`assign {a, b}
// = {b, c}` becomes b = c; a = b: no loop). When the slice would have to
// cut an arithmetic result (`{cout, sum} = a + b`) every part would
// recompute it, so that cut is only made for processes that are part of a
// combinational loop (see Analyze): there it may break the loop. Analyze
// finds the loops, cuts the processes in them that have such a cut, and
// builds the graph once more.

type builder struct {
	d     *design.Design
	opts  Options
	eff   effectsCache
	force map[*design.Process]bool
	items []*Item
	// expensive lists processes with an unused costly concat split.
	expensive map[*design.Process]bool
	slab      []Item // items are allocated in chunks
}

func (b *builder) build() {
	for _, p := range b.d.Comb {
		b.process(p)
	}
	for i, it := range b.items {
		it.ID = i
	}
}

func (b *builder) add(p *design.Process, kind SplitKind, body design.Stmt, reads, writes []design.Access) *Item {
	if len(b.slab) == 0 {
		b.slab = make([]Item, 1024)
	}
	it := &b.slab[0]
	b.slab = b.slab[1:]
	*it = Item{Proc: p, Split: kind, Body: body, Pos: p.Pos, Reads: reads, Writes: writes}
	if a, ok := body.(*design.Assign); ok && a.Pos.Line > 0 {
		it.Pos = a.Pos
	}
	b.items = append(b.items, it)
	return it
}

func (b *builder) whole(p *design.Process) {
	it := b.add(p, SplitNone, p.Body, p.Reads, p.Writes)
	it.Effects = b.eff.stmtEffects(p.Body)
	it.Unconditional = unconditional(p.Body)
	it.Name, it.Part, it.Parts = p.Name, 0, 1
}

// flatten lists the top-level statements of s (nested blocks opened) and
// the locals those blocks declare.
func flatten(s design.Stmt, stmts []design.Stmt, locals []*design.Home) ([]design.Stmt, []*design.Home) {
	if blk, ok := s.(*design.Block); ok {
		if blk == nil {
			return stmts, locals
		}
		locals = append(locals, blk.Locals...)
		for _, st := range blk.Stmts {
			stmts, locals = flatten(st, stmts, locals)
		}
		return stmts, locals
	}
	if s != nil {
		stmts = append(stmts, s)
	}
	return stmts, locals
}

type stmtInfo struct {
	s             design.Stmt
	reads, writes []design.Access
	locals        []*design.Home
	effects       bool
}

func (b *builder) process(p *design.Process) {
	if b.opts.NoSplit {
		b.whole(p)
		return
	}
	stmts, locals := flatten(p.Body, nil, nil)
	if len(stmts) == 1 {
		// One statement: only a concat split can apply.
		if b.concat(p, stmts[0]) {
			b.number(p)
			return
		}
		b.whole(p)
		return
	}
	if len(stmts) == 0 {
		b.whole(p)
		return
	}
	groups := b.groupStmts(stmts)
	if len(groups) == 1 {
		b.whole(p)
		return
	}
	for _, g := range groups {
		if len(g) == 1 && b.concat(p, g[0].s) {
			continue
		}
		blk := &design.Block{}
		used := map[*design.Home]bool{}
		for _, si := range g {
			blk.Stmts = append(blk.Stmts, si.s)
			for _, h := range si.locals {
				used[h] = true
			}
		}
		for _, h := range locals {
			if used[h] {
				blk.Locals = append(blk.Locals, h)
			}
		}
		r, w := g[0].reads, g[0].writes
		if len(g) > 1 {
			r, w = analyzeStmt(blk)
		}
		it := b.add(p, SplitStmts, blk, r, w)
		if pos := stmtPos(g[0].s); pos.Line > 0 {
			it.Pos = pos
		}
		it.Effects = b.eff.stmtEffects(blk)
		it.Unconditional = unconditional(blk)
	}
	b.number(p)
}

// number sets Name, Part and Parts of p's items (the trailing ones).
func (b *builder) number(p *design.Process) {
	n := 0
	for i := len(b.items) - 1; i >= 0 && b.items[i].Proc == p; i-- {
		n++
	}
	for k, it := range b.items[len(b.items)-n:] {
		it.Part, it.Parts = k, n
		it.Name = p.Name
		if n > 1 {
			it.Name = fmt.Sprintf("%s[%d]", p.Name, k)
		}
	}
}

// groupStmts partitions stmts into independent groups (see the comment at
// the top of this file), ordered by their first statement.
func (b *builder) groupStmts(stmts []design.Stmt) [][]stmtInfo {
	n := len(stmts)
	info := make([]stmtInfo, n)
	for i, s := range stmts {
		r, w := stmtSets(s)
		info[i] = stmtInfo{s: s, reads: r, writes: w, locals: localsOf(s), effects: b.eff.stmtEffects(s)}
	}
	uf := newUnionFind(n)
	// Earlier statements' accesses, by home (a flat list for short bodies).
	type entry struct {
		i int
		a design.Access
	}
	var wflat, rflat []entry
	var wmap, rmap map[*design.Home][]entry
	if n > 32 {
		wmap, rmap = map[*design.Home][]entry{}, map[*design.Home][]entry{}
	}
	earlier := func(flat []entry, m map[*design.Home][]entry, h *design.Home) []entry {
		if m != nil {
			return m[h]
		}
		return flat
	}
	var owner []struct {
		h *design.Home
		i int
	}
	firstEff := -1
	type pair struct{ from, to int }
	var raw []pair
	for j := range info {
		si := &info[j]
		if si.effects {
			if firstEff < 0 {
				firstEff = j
			} else {
				uf.union(firstEff, j)
			}
		}
	locals:
		for _, h := range si.locals {
			for _, o := range owner {
				if o.h == h {
					uf.union(o.i, j)
					continue locals
				}
			}
			owner = append(owner, struct {
				h *design.Home
				i int
			}{h, j})
		}
		for _, w := range si.writes {
			for _, e := range earlier(wflat, wmap, w.Home) {
				if overlap(e.a, w) {
					uf.union(e.i, j) // write/write
				}
			}
			for _, e := range earlier(rflat, rmap, w.Home) {
				if overlap(e.a, w) {
					uf.union(e.i, j) // earlier read, later write
				}
			}
		}
		for _, r := range si.reads {
			for _, e := range earlier(wflat, wmap, r.Home) {
				if overlap(e.a, r) {
					raw = append(raw, pair{e.i, j})
				}
			}
		}
		for _, w := range si.writes {
			if wmap != nil {
				wmap[w.Home] = append(wmap[w.Home], entry{j, w})
			} else {
				wflat = append(wflat, entry{j, w})
			}
		}
		for _, r := range si.reads {
			if rmap != nil {
				rmap[r.Home] = append(rmap[r.Home], entry{j, r})
			} else {
				rflat = append(rflat, entry{j, r})
			}
		}
	}
	// Merge groups whose forward edges form cycles (s1 -> s2 -> s3 with s1
	// and s3 in one group and s2 in another).
	for len(raw) > 0 {
		root := make([]int, n)
		cross := false
		for i := range root {
			root[i] = uf.find(i)
		}
		adj := make([][]int32, n)
		for _, e := range raw {
			f, t := root[e.from], root[e.to]
			if f != t {
				adj[f] = append(adj[f], int32(t))
				cross = true
			}
		}
		if !cross {
			break
		}
		comp, _ := scc.Tarjan(n, func(v int) []int32 { return adj[v] })
		first := map[int32]int{}
		merged := false
		for i := 0; i < n; i++ {
			if root[i] != i {
				continue
			}
			if f, ok := first[comp[i]]; ok {
				uf.union(f, i)
				merged = true
			} else {
				first[comp[i]] = i
			}
		}
		if !merged {
			break
		}
	}
	var groups [][]stmtInfo
	index := make([]int, n)
	for i := range index {
		index[i] = -1
	}
	for i := range info {
		r := uf.find(i)
		if index[r] < 0 {
			index[r] = len(groups)
			groups = append(groups, nil)
		}
		groups[index[r]] = append(groups[index[r]], info[i])
	}
	return groups
}

type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(x int) int {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

// union joins the sets of x and y; the smaller index becomes the root.
func (u unionFind) union(x, y int) {
	x, y = u.find(x), u.find(y)
	if x == y {
		return
	}
	if y < x {
		x, y = y, x
	}
	u[y] = x
}

// flattenLValue lists the parts of a concatenation lvalue, most
// significant first (nested concatenations opened).
func flattenLValue(lv design.Expr, out []design.Expr) []design.Expr {
	if c, ok := lv.(*design.Concat); ok {
		for _, p := range c.Parts {
			out = flattenLValue(p, out)
		}
		return out
	}
	return append(out, lv)
}

// concat cuts s into one item per concatenation part when it is an
// assignment to a concatenation of constant-address parts, or (only for
// processes in b.force) an assignment of a concatenation to a
// constant-address target, cut at the right-hand side's part boundaries.
// See the top of this file. It reports whether it added items.
func (b *builder) concat(p *design.Process, s design.Stmt) bool {
	a, ok := s.(*design.Assign)
	if !ok {
		return false
	}
	var parts []design.Expr
	onDemand := false
	if _, ok := a.LHS.(*design.Concat); ok {
		parts = flattenLValue(a.LHS, nil)
		for _, pt := range parts {
			if !staticRef(pt) {
				return false
			}
		}
	} else {
		widths := rhsCuts(a.RHS)
		if len(widths) < 2 || !staticRef(a.LHS) {
			return false
		}
		onDemand = true
		off := a.RHS.Type().Width
		for _, w := range widths {
			off -= w
			parts = append(parts, sliceLValue(a.LHS, off, w))
		}
	}
	if len(parts) < 2 || len(localsOf(a)) > 0 {
		return false
	}
	type cut struct {
		lhs design.LValue
		rhs design.Expr
	}
	cuts := make([]cut, len(parts))
	off := a.RHS.Type().Width
	cheap := true
	cutter := newConcatCutter(a.RHS)
	for k, pt := range parts {
		w := pt.Type().Width
		off -= w
		rhs, ch := cutter.narrow(off, w)
		cheap = cheap && ch
		cuts[k] = cut{pt.(design.LValue), rhs}
	}
	if off != 0 {
		return false // malformed widths: leave it alone
	}
	if (!cheap || onDemand) && !b.force[p] {
		b.expensive[p] = true
		return false
	}
	for _, c := range cuts {
		body := &design.Assign{LHS: c.lhs, RHS: c.rhs, NonBlocking: a.NonBlocking, Pos: a.Pos}
		r, w := stmtSets(body)
		it := b.add(p, SplitConcat, body, r, w)
		it.Effects = b.eff.stmtEffects(body)
		it.Unconditional = true
	}
	return true
}

// concatCutter narrows one expression at many offsets. For a
// concatenation it finds the parts a cut covers by binary search: narrow
// scans every part, which made cutting a concatenation of n parts into n
// pieces take n^2 steps (minutes for a 64K-element pattern).
type concatCutter struct {
	e   design.Expr
	c   *design.Concat
	los []int // lsb offset of each part of c, least significant first
}

func newConcatCutter(e design.Expr) *concatCutter {
	k := &concatCutter{e: e}
	if c, ok := e.(*design.Concat); ok {
		k.c = c
		lo := 0
		for i := len(c.Parts) - 1; i >= 0; i-- {
			k.los = append(k.los, lo)
			lo += c.Parts[i].Type().Width
		}
	}
	return k
}

// narrow is narrow(k.e, off, w).
func (k *concatCutter) narrow(off, w int) (design.Expr, bool) {
	if k.c == nil || (off == 0 && w == k.e.Type().Width) {
		return narrow(k.e, off, w)
	}
	n := len(k.los)
	// The last part starting at or below off is the first one the cut
	// covers.
	first := sort.Search(n, func(i int) bool { return k.los[i] > off }) - 1
	var pieces []design.Expr
	cheap := true
	for i := max(first, 0); i < n && k.los[i] < off+w; i++ {
		pt := k.c.Parts[n-1-i]
		lo, pw := k.los[i], pt.Type().Width
		a, z := max(off, lo), min(off+w, lo+pw)
		if a < z {
			p, ch := narrow(pt, a-lo, z-a)
			cheap = cheap && ch
			pieces = append(pieces, p)
		}
	}
	return joinPieces(pieces, unsignedT(w)), cheap
}

// rhsCuts returns the widths of the top-level parts of a concatenation
// right-hand side, most significant first (nil when it is not one).
func rhsCuts(e design.Expr) []int {
	for {
		x, ok := e.(*design.Extend)
		if !ok || x.T.Width != x.X.Type().Width {
			break
		}
		e = x.X
	}
	c, ok := e.(*design.Concat)
	if !ok {
		return nil
	}
	out := make([]int, len(c.Parts))
	for i, p := range c.Parts {
		out[i] = p.Type().Width
	}
	return out
}

// sliceLValue returns bits off..off+w-1 of a constant-address target.
func sliceLValue(lv design.LValue, off, w int) design.Expr {
	if s, ok := lv.(*design.Slice); ok {
		if l, ok := design.ConstUint(s.Lsb); ok {
			return &design.Slice{X: s.X, Lsb: u32(l + off), T: unsignedT(w)}
		}
	}
	return &design.Slice{X: lv, Lsb: u32(off), T: unsignedT(w)}
}

func u32(v int) design.Expr { return design.ConstInt(design.Type{Width: 32}, int64(v)) }

// leaf reports whether e is a constant or a reference whose addresses are
// constants or references: cheap to evaluate twice.
func leaf(e design.Expr) bool {
	switch e := e.(type) {
	case *design.Const, *design.HomeRef:
		return true
	case *design.ElemRef:
		for _, ix := range e.Index {
			if !leaf(ix) {
				return false
			}
		}
		return true
	case *design.Slice:
		return leaf(e.X) && leaf(e.Lsb)
	}
	return false
}

// isRef reports whether e is a reference chain (HomeRef, ElemRef, or Slice
// of one): those are sliced in place rather than rewritten.
func isRef(e design.Expr) bool {
	_, ok, _ := design.RefAccess(e)
	return ok
}

// unsignedT is the unsigned type of w bits.
func unsignedT(w int) design.Type { return design.Type{Width: w} }

// asUnsigned returns e with an unsigned type of the same width.
func asUnsigned(e design.Expr) design.Expr {
	t := e.Type()
	if !t.Signed {
		return e
	}
	return &design.Extend{X: e, T: unsignedT(t.Width)}
}

// narrow returns bits off..off+w-1 of e as an expression of w bits. cheap
// is false when the result evaluates some non-leaf part of e that other
// slices of e evaluate too (the split would compute it twice). A partial
// slice is unsigned; the full range returns e itself.
func narrow(e design.Expr, off, w int) (design.Expr, bool) {
	ew := e.Type().Width
	if off == 0 && w == ew {
		return e, true
	}
	t := unsignedT(w)
	switch x := e.(type) {
	case *design.Const:
		v := new(big.Int).Rsh(x.Val, uint(off))
		return design.NewConst(t, v), true
	case *design.HomeRef, *design.ElemRef:
		return &design.Slice{X: x, Lsb: u32(off), T: t}, true
	case *design.Slice:
		l, ok := design.ConstUint(x.Lsb)
		if !ok {
			return &design.Slice{X: x, Lsb: u32(off), T: t}, leaf(x)
		}
		// Bits l+off.. of x.X; those at or above x.X's width read 0.
		xw := x.X.Type().Width
		if l+off >= xw {
			return design.NewConst(t, new(big.Int)), true
		}
		in := min(w, xw-(l+off))
		var pieces []design.Expr
		var cheap bool
		if isRef(x.X) {
			pieces = append(pieces, &design.Slice{X: x.X, Lsb: u32(l + off), T: unsignedT(in)})
			cheap = leaf(x.X)
		} else {
			var n design.Expr
			n, cheap = narrow(x.X, l+off, in)
			pieces = append(pieces, n)
		}
		if in < w {
			pieces = append(pieces, design.NewConst(unsignedT(w-in), new(big.Int)))
		}
		return joinPieces(pieces, t), cheap
	case *design.Concat:
		var pieces []design.Expr // least significant first
		cheap := true
		lo := 0
		for i := len(x.Parts) - 1; i >= 0; i-- {
			pt := x.Parts[i]
			pw := pt.Type().Width
			a, z := max(off, lo), min(off+w, lo+pw)
			if a < z {
				n, ch := narrow(pt, a-lo, z-a)
				cheap = cheap && ch
				pieces = append(pieces, n)
			}
			lo += pw
		}
		return joinPieces(pieces, t), cheap
	case *design.Repl:
		xw := x.X.Type().Width
		var pieces []design.Expr
		for lo := off / xw * xw; lo < min(ew, off+w); lo += xw {
			a, z := max(off, lo), min(off+w, lo+xw)
			if a < z {
				n, _ := narrow(x.X, a-lo, z-a)
				pieces = append(pieces, n)
			}
		}
		return joinPieces(pieces, t), leaf(x.X) || len(pieces) == 1
	case *design.Unary:
		if x.Op == design.OpNot {
			n, ch := narrow(x.X, off, w)
			n = asUnsigned(n)
			return &design.Unary{Op: design.OpNot, X: n, T: n.Type()}, ch
		}
	case *design.Binary:
		switch x.Op {
		case design.OpAnd, design.OpOr, design.OpXor, design.OpXnor:
			nx, cx := narrow(x.X, off, w)
			ny, cy := narrow(x.Y, off, w)
			return &design.Binary{Op: x.Op, X: asUnsigned(nx), Y: asUnsigned(ny), T: t}, cx && cy
		case design.OpShl, design.OpShr:
			k, ok := design.ConstUint(x.Y)
			if !ok {
				break
			}
			if k >= ew {
				return design.NewConst(t, new(big.Int)), true
			}
			// Result bit i is X bit i-k (shl) or i+k (shr), 0 outside X.
			shift := -k
			if x.Op == design.OpShr {
				shift = k
			}
			var pieces []design.Expr
			cheap := true
			srcLo, srcHi := off+shift, off+w-1+shift // X bits wanted
			if srcLo < 0 {
				z := min(-srcLo, w)
				pieces = append(pieces, design.NewConst(unsignedT(z), new(big.Int)))
				srcLo = 0
			}
			if srcLo <= srcHi && srcLo < ew {
				top := min(srcHi, ew-1)
				n, ch := narrow(x.X, srcLo, top-srcLo+1)
				cheap = ch
				pieces = append(pieces, n)
				srcLo = top + 1
			}
			if srcLo <= srcHi {
				pieces = append(pieces, design.NewConst(unsignedT(srcHi-srcLo+1), new(big.Int)))
			}
			return joinPieces(pieces, t), cheap
		}
	case *design.Cond:
		nt, ct := narrow(x.Then, off, w)
		ne, ce := narrow(x.Else, off, w)
		return &design.Cond{C: x.C, Then: asUnsigned(nt), Else: asUnsigned(ne), T: t}, ct && ce && leaf(x.C)
	case *design.Extend:
		xw := x.X.Type().Width
		if off+w <= xw {
			return narrow(x.X, off, w)
		}
		var pieces []design.Expr
		cheap := true
		if off < xw {
			n, ch := narrow(x.X, off, xw-off)
			cheap = ch
			pieces = append(pieces, n)
		}
		extLo := max(off, xw)
		extW := off + w - extLo
		if x.SignExt {
			sign, _ := narrow(x.X, xw-1, 1)
			pieces = append(pieces, &design.Repl{X: asUnsigned(sign), N: extW, T: unsignedT(extW)})
			cheap = cheap && leaf(x.X)
		} else {
			pieces = append(pieces, design.NewConst(unsignedT(extW), new(big.Int)))
		}
		return joinPieces(pieces, t), cheap
	case *design.Trunc:
		return narrow(x.X, off, w)
	}
	// Anything else is sliced whole: each part evaluates it.
	return &design.Slice{X: e, Lsb: u32(off), T: t}, leaf(e)
}

// joinPieces concatenates pieces given least significant first into a
// w-bit unsigned value.
func joinPieces(pieces []design.Expr, t design.Type) design.Expr {
	if len(pieces) == 1 {
		return asUnsigned(pieces[0])
	}
	parts := make([]design.Expr, len(pieces))
	for i, p := range pieces {
		parts[len(pieces)-1-i] = p
	}
	return &design.Concat{Parts: parts, T: t}
}

// stmtPos is the source position of a statement (zero when it has none).
func stmtPos(s design.Stmt) design.Pos {
	switch s := s.(type) {
	case *design.Assign:
		return s.Pos
	case *design.If:
		return s.Pos
	case *design.Case:
		return s.Pos
	case *design.Loop:
		return s.Pos
	case *design.SysTask:
		return s.Pos
	case *design.TaskCall:
		return s.Pos
	}
	return design.Pos{}
}
