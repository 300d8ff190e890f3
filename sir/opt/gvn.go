package opt

import "github.com/weft-hdl/weft/sir"

// gvnMaxWalk bounds the blocks gvn visits to find the stores between a
// block and its immediate dominator; past it the block sees nothing from
// above (an opportunity lost, never a wrong value).
const gvnMaxWalk = 256

// Reuse returns a copy of u in which values are reused across blocks (gvn,
// then copyprop and deadcode) and stores that later ones overwrite on
// every path are removed (dse), or nil when neither finds anything.
//
// It is not in the pass table: the native backend applies it after
// finding the runs of code it loops over a module's instances
// (jit/region.go), whose matching a value loaded once for every instance
// (a shared reset, a flop staged before them all) would defeat. scope,
// when not nil, places each instruction (block, index; the index of the
// terminator is the block's length) in those runs; a value is then reused
// only within one segment, and an instruction is left as it is in every
// segment when its value is read outside its segment in one of them (the
// last instance's values read after a run), so that every instance's code
// changes alike.
func Reuse(u *sir.Unit, scope func(b sir.BlockID, i int) Scope) *sir.Unit {
	c := u.Clone()
	reused := gvn(c, scope)
	removed := dse(c, scope) // before deadcode, which renumbers blocks scope names
	if !reused && !removed {
		return nil
	}
	copyprop(c)
	deadcode(c)
	return c
}

// gvn reuses values across blocks, where cse works within one: walking
// the dominator tree, an instruction that recomputes a pure value or
// reloads bytes that a dominating block computed or loaded (or stored)
// into a single-assignment register becomes a copy of that register
// (copyprop and deadcode then remove it). A register file's 31
// write-enable tests, each in its own block, so load the enable and the
// address once instead of 31 times.
//
// Only single-assignment registers take part, as holders and as
// operands: each has one value wherever its definition dominates (the
// definition dominates every read by definite assignment, and an operand's
// definition cannot run again between the holder's and a dominated block
// without passing the holder's). Loads must also survive the stores on
// every path from the holder to the reuse: a store ends the availability
// of every load of its home, in its own block and, for a block entered
// from below its immediate dominator D, every store of a block on a path
// from D to it (found by walking predecessors back to D: all such blocks
// lie in D's subtree). Events write only the runtime-event ring, which no
// load names. scope, when not nil, is Reuse's.
//
// It reports whether it changed anything.
func gvn(u *sir.Unit, scope func(b sir.BlockID, i int) Scope) bool {
	if len(u.Blocks) < 2 {
		return false // one block: cse already did it
	}
	g := &gvnState{
		u:     u,
		scope: scope,
		ndefs: defCounts(u),
		dom:   u.Dominators(),
		preds: u.Preds(),
		table: map[gvnKey][]gvnEntry{},
		kill:  map[sir.HomeID]uint64{},
		seen:  make([]uint32, len(u.Blocks)),
	}
	if scope != nil {
		g.markCrossReads()
	}
	g.stores = make([][]sir.HomeID, len(u.Blocks))
	children := make([][]sir.BlockID, len(u.Blocks))
	for i, b := range u.Blocks {
		id := sir.BlockID(i)
		if b == nil || g.dom.Idom[i] < 0 {
			continue
		}
		if i > 0 {
			p := g.dom.Idom[i]
			children[p] = append(children[p], id)
		}
		for j := range b.Insts {
			if in := &b.Insts[j]; in.Op.IsStore() {
				g.stores[i] = append(g.stores[i], in.Addr.Home)
			}
		}
	}
	// Depth first over the tree; a negative entry leaves a block's scope.
	stack := []sir.BlockID{0}
	var marks []int
	var barriers []uint64
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b < 0 {
			g.undo(marks[len(marks)-1])
			marks = marks[:len(marks)-1]
			g.barrier = barriers[len(barriers)-1]
			barriers = barriers[:len(barriers)-1]
			continue
		}
		marks = append(marks, len(g.log))
		barriers = append(barriers, g.barrier)
		if b != 0 {
			g.enter(b)
		}
		g.block(b, u.Blocks[b])
		stack = append(stack, -1)
		stack = append(stack, children[b]...)
	}
	return g.reused > 0
}

// Scope places an instruction in a run of repeated code: segment Seg of
// run Run (from 1), at position Pos in the segment; the zero Scope is
// outside every run.
type Scope struct{ Run, Seg, Pos int }

// gvnKey is a value: an op over single-assignment registers, or the bytes
// of a load at a result width.
type gvnKey struct {
	op      sir.Op
	w       int32
	a, b, c sir.Reg
	imm     uint64
	lo      int32
	size    int32
	home    sir.HomeID
	offset  int
	index   sir.Reg
	stride  int
	count   int
}

// gvnEntry is a register holding a value since sequence number seq, in
// the segment (or outside) that scope says.
type gvnEntry struct {
	reg   sir.Reg
	seq   uint64
	scope Scope
}

// gvnUndo restores, on leaving a scope, a table entry pushed (key set) or
// a home's kill sequence number changed (old).
type gvnUndo struct {
	key  *gvnKey
	home sir.HomeID
	old  uint64
}

type gvnState struct {
	u      *sir.Unit
	scope  func(b sir.BlockID, i int) Scope
	at     Scope // where the instruction being looked at lies (Pos cleared)
	ndefs  []int32
	dom    *sir.DomTree
	preds  [][]sir.BlockID
	stores [][]sir.HomeID // homes each block stores to
	table  map[gvnKey][]gvnEntry
	// kill is, per home, the sequence number of the last store on the
	// way here; entries of its loads from before it are void. barrier
	// voids every entry from before it.
	kill    map[sir.HomeID]uint64
	barrier uint64
	seq     uint64
	log     []gvnUndo
	seen    []uint32 // walk stamps
	walk    uint32
	reused  int
	// kept are, with scopes, the positions of runs whose instructions
	// stay: their value is read outside its segment in some segment
	// (after a run, its last instance's values), and a reused value would
	// carry the read to its holder's definition instead.
	kept map[Scope]bool
	keep bool // the instruction being looked at is kept
}

func (g *gvnState) markCrossReads() {
	u := g.u
	defAt := make([]Scope, len(u.Regs))
	defined := make([]bool, len(u.Regs))
	for i, b := range u.Blocks {
		if b == nil || g.dom.Idom[i] < 0 {
			continue
		}
		for j, in := range b.Insts {
			if d := in.Dst; d > 0 && int(d) < len(defAt) {
				defAt[d], defined[d] = g.scope(sir.BlockID(i), j), true
			}
		}
	}
	g.kept = map[Scope]bool{}
	var buf []sir.Reg
	for i, b := range u.Blocks {
		if b == nil || g.dom.Idom[i] < 0 {
			continue
		}
		read := func(r sir.Reg, at Scope) {
			if r <= 0 || int(r) >= len(defAt) || !defined[r] {
				return
			}
			if d := defAt[r]; d.Run != 0 && (d.Run != at.Run || d.Seg != at.Seg) {
				g.kept[Scope{Run: d.Run, Pos: d.Pos}] = true
			}
		}
		for j := range b.Insts {
			at := g.scope(sir.BlockID(i), j)
			for _, r := range b.Insts[j].Uses(buf[:0]) {
				read(r, at)
			}
		}
		if b.Term.Kind == sir.TermBranch {
			read(b.Term.Cond, g.scope(sir.BlockID(i), len(b.Insts)))
		}
	}
}

func (g *gvnState) single(r sir.Reg) bool {
	return r > 0 && int(r) < len(g.ndefs) && g.ndefs[r] == 1
}

// killHome voids the available loads of h from here on (in this scope).
func (g *gvnState) killHome(h sir.HomeID) {
	g.seq++
	g.log = append(g.log, gvnUndo{home: h, old: g.kill[h]})
	g.kill[h] = g.seq
}

func (g *gvnState) undo(mark int) {
	for i := len(g.log) - 1; i >= mark; i-- {
		e := g.log[i]
		if e.key != nil {
			s := g.table[*e.key]
			if len(s) == 1 {
				delete(g.table, *e.key)
			} else {
				g.table[*e.key] = s[:len(s)-1]
			}
			continue
		}
		if e.old == 0 {
			delete(g.kill, e.home)
		} else {
			g.kill[e.home] = e.old
		}
	}
	g.log = g.log[:mark]
}

// enter applies the stores between b's immediate dominator and b.
func (g *gvnState) enter(b sir.BlockID) {
	d := g.dom.Idom[b]
	g.walk++
	work := append([]sir.BlockID(nil), g.preds[b]...)
	visited := 0
	killed := map[sir.HomeID]bool{}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if p == d || g.seen[p] == g.walk || g.dom.Idom[p] < 0 {
			continue
		}
		g.seen[p] = g.walk
		if visited++; visited > gvnMaxWalk {
			g.seq++
			g.barrier = g.seq
			return
		}
		for _, h := range g.stores[p] {
			killed[h] = true
		}
		work = append(work, g.preds[p]...)
	}
	for h := range killed {
		g.killHome(h)
	}
}

func (g *gvnState) block(id sir.BlockID, b *sir.Block) {
	for i := range b.Insts {
		if g.scope != nil {
			at := g.scope(id, i)
			g.keep = g.kept[Scope{Run: at.Run, Pos: at.Pos}]
			g.at = Scope{Run: at.Run, Seg: at.Seg}
		}
		g.inst(&b.Insts[i])
	}
}

func (g *gvnState) inst(in *sir.Inst) {
	u := g.u
	op := in.Op
	switch {
	case op.IsStore():
		g.killHome(in.Addr.Home)
		if op == sir.OpStore && !in.Addr.Dynamic() && g.single(in.A) {
			// A load of exactly these bytes at A's width reads A back.
			k := gvnKey{op: sir.OpLoad, w: int32(u.Width(in.A)), size: int32(in.Size), home: in.Addr.Home, offset: in.Addr.Offset}
			g.push(k, in.A)
		}
		return
	case op == sir.OpConst || op == sir.OpCopy || !op.Pure() || !op.HasDst() || !g.single(in.Dst):
		return // constants are cheaper to make again than to keep
	}
	k := gvnKey{op: op, w: int32(u.Width(in.Dst)), imm: in.Imm, lo: int32(in.Lo), size: int32(in.Size)}
	args := [3]sir.Reg{in.A, in.B, in.C}
	for i := range args {
		if i >= op.NumArgs() {
			args[i] = sir.NoReg // unused fields carry no meaning
		} else if !g.single(args[i]) {
			return
		}
	}
	k.a, k.b, k.c = args[0], args[1], args[2]
	if op.Commutative() && k.b < k.a {
		k.a, k.b = k.b, k.a
	}
	load := op.IsMem()
	if load {
		a := in.Addr
		k.home, k.offset, k.stride, k.count = a.Home, a.Offset, a.Stride, a.Count
		if a.Dynamic() {
			if !g.single(a.Index) {
				return
			}
			k.index = a.Index
		}
	}
	if s := g.table[k]; len(s) > 0 {
		e := s[len(s)-1]
		if e.seq > g.barrier && (!load || e.seq > g.kill[k.home]) && e.scope == g.at && e.reg != in.Dst && !g.keep {
			*in = sir.Inst{Op: sir.OpCopy, Dst: in.Dst, A: e.reg}
			g.reused++
			return
		}
	}
	g.push(k, in.Dst)
}

// push makes r the holder of k from here on (in this scope).
func (g *gvnState) push(k gvnKey, r sir.Reg) {
	g.seq++
	g.table[k] = append(g.table[k], gvnEntry{reg: r, seq: g.seq, scope: g.at})
	kp := k
	g.log = append(g.log, gvnUndo{key: &kp})
}
