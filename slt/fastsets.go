package slt

import "github.com/weft-hdl/weft/design"

// Read and write sets of one statement. design.Analyze is exact but
// allocates maps on every call; most split parts are a single assignment,
// for which the sets follow directly: every reference on the right-hand
// side and in the target's indexes is read before the target is written,
// so nothing is hidden (upward exposure is trivial).

// stmtSets returns the reads and writes of s: a fast path for a single
// assignment without calls, design.Analyze otherwise.
func stmtSets(s design.Stmt) (reads, writes []design.Access) {
	if a, ok := s.(*design.Assign); ok {
		if r, w, ok := assignSets(a); ok {
			return r, w
		}
	}
	return analyzeStmt(s)
}

// analyzeStmt returns the upward-exposed reads and the writes of s with
// design.Analyze's rules.
func analyzeStmt(s design.Stmt) (reads, writes []design.Access) {
	p := &design.Process{Body: s}
	design.Analyze(p)
	return p.Reads, p.Writes
}

// assignSets computes the sets of one assignment; ok is false when it
// calls a function or copies an array (design.Analyze handles those).
func assignSets(a *design.Assign) (reads, writes []design.Access, ok bool) {
	c := setCollector{ok: true}
	c.expr(a.RHS)
	c.lvalueIndexes(a.LHS)
	if !c.ok {
		return nil, nil, false
	}
	for _, w := range lvalueAccesses(a.LHS, nil) {
		if !isLocal(w.Home) {
			writes = append(writes, w)
		}
	}
	if len(writes) > 0 && writes[0].Home.IsArray() && writes[0].Whole() {
		if _, whole := a.LHS.(*design.HomeRef); whole {
			return nil, nil, false // array copy
		}
	}
	return mergeAccesses(c.reads), mergeAccesses(writes), true
}

type setCollector struct {
	reads []design.Access
	ok    bool
}

func (c *setCollector) read(a design.Access) {
	if !isLocal(a.Home) {
		c.reads = append(c.reads, a)
	}
}

// expr mirrors design.Analyze's expression walk.
func (c *setCollector) expr(e design.Expr) {
	switch e := e.(type) {
	case nil, *design.Const:
	case *design.HomeRef, *design.ElemRef, *design.Slice:
		if a, ok, empty := design.RefAccess(e); ok {
			c.refIndexes(e)
			if !empty {
				c.read(a)
			}
			return
		}
		s := e.(*design.Slice)
		c.expr(s.X)
		c.expr(s.Lsb)
	case *design.Unary:
		c.expr(e.X)
	case *design.Binary:
		c.expr(e.X)
		c.expr(e.Y)
	case *design.Cond:
		c.expr(e.C)
		c.expr(e.Then)
		c.expr(e.Else)
	case *design.Concat:
		for _, p := range e.Parts {
			c.expr(p)
		}
	case *design.Repl:
		c.expr(e.X)
	case *design.Extend:
		c.expr(e.X)
	case *design.Trunc:
		c.expr(e.X)
	case *design.SysFunc:
		for _, a := range e.Args {
			c.expr(a)
		}
	default: // calls
		c.ok = false
	}
}

// refIndexes reads the index and offset expressions of a reference chain.
func (c *setCollector) refIndexes(e design.Expr) {
	switch e := e.(type) {
	case *design.ElemRef:
		for _, ix := range e.Index {
			c.expr(ix)
		}
	case *design.Slice:
		c.refIndexes(e.X)
		c.expr(e.Lsb)
	}
}

func (c *setCollector) lvalueIndexes(lv design.LValue) {
	if cc, ok := lv.(*design.Concat); ok {
		for _, p := range cc.Parts {
			c.lvalueIndexes(p.(design.LValue))
		}
		return
	}
	c.refIndexes(lv)
}
