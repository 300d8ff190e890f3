package design

// Copier makes deep copies of statements and expressions in which the
// homes, functions and %m scopes they name are replaced: how elaboration
// turns one instance's processes into another's. Constant values
// (*big.Int) are shared, never copied: nothing edits them in place. A node
// reached twice (a shared sub-expression) is copied once, so the copy has
// the same shape as the original.
type Copier struct {
	// Home maps a home to the one the copy names.
	Home func(*Home) *Home
	// Func maps a called function; nil keeps every function.
	Func func(*Function) *Function
	// Scope rewrites SysTask.Scope; nil keeps it.
	Scope func(string) string
	// Ref, when set, may replace a HomeRef of a scalar home by another
	// reference (a *HomeRef or *ElemRef, used as is); nil keeps the
	// HomeRef (with Home applied).
	Ref func(*Home) Expr

	seen map[any]any
}

// Stmt copies s (nil stays nil).
func (c *Copier) Stmt(s Stmt) Stmt {
	if s == nil {
		return nil
	}
	if done, ok := c.seen[s]; ok {
		return done.(Stmt)
	}
	var out Stmt
	switch s := s.(type) {
	case *Block:
		out = c.Block(s)
	case *Assign:
		n := *s
		n.LHS, n.RHS = c.LValue(s.LHS), c.Expr(s.RHS)
		out = &n
	case *If:
		n := *s
		n.Cond, n.Then, n.Else = c.Expr(s.Cond), c.Stmt(s.Then), c.Stmt(s.Else)
		out = &n
	case *Case:
		n := *s
		n.Subject, n.Default = c.Expr(s.Subject), c.Stmt(s.Default)
		n.Items = make([]*CaseItem, len(s.Items))
		for i, it := range s.Items {
			ni := *it
			ni.Body = c.Stmt(it.Body)
			ni.Labels = make([]*CaseLabel, len(it.Labels))
			for j, l := range it.Labels {
				nl := *l
				nl.Value, nl.Hi = c.Expr(l.Value), c.Expr(l.Hi)
				ni.Labels[j] = &nl
			}
			n.Items[i] = &ni
		}
		out = &n
	case *Loop:
		n := *s
		n.Cond, n.Body, n.Step = c.Expr(s.Cond), c.Stmt(s.Body), c.Stmt(s.Step)
		out = &n
	case *Break:
		n := *s
		out = &n
	case *Continue:
		n := *s
		out = &n
	case *Return:
		n := *s
		out = &n
	case *SysTask:
		n := *s
		n.Args = c.exprs(s.Args)
		if s.Target != nil {
			n.Target = c.Home(s.Target)
		}
		if c.Scope != nil {
			n.Scope = c.Scope(s.Scope)
		}
		out = &n
	case *TaskCall:
		n := *s
		n.Func, n.Args = c.fn(s.Func), c.exprs(s.Args)
		if s.Outs != nil {
			n.Outs = make([]LValue, len(s.Outs))
			for i, o := range s.Outs {
				if o != nil {
					n.Outs[i] = c.LValue(o)
				}
			}
		}
		out = &n
	default:
		panic("design.Copier: unknown statement type")
	}
	c.remember(s, out)
	return out
}

// Block copies a block; its locals are mapped by Home like any other home.
func (c *Copier) Block(b *Block) *Block {
	if b == nil {
		return nil
	}
	n := &Block{Stmts: make([]Stmt, len(b.Stmts))}
	if b.Locals != nil {
		n.Locals = make([]*Home, len(b.Locals))
		for i, h := range b.Locals {
			n.Locals[i] = c.Home(h)
		}
	}
	for i, st := range b.Stmts {
		n.Stmts[i] = c.Stmt(st)
	}
	return n
}

// LValue copies an assignment target.
func (c *Copier) LValue(l LValue) LValue {
	if l == nil {
		return nil
	}
	return c.Expr(l).(LValue)
}

// Expr copies e (nil stays nil).
func (c *Copier) Expr(e Expr) Expr {
	if e == nil {
		return nil
	}
	if done, ok := c.seen[e]; ok {
		return done.(Expr)
	}
	var out Expr
	switch e := e.(type) {
	case *Const:
		n := *e
		out = &n
	case *HomeRef:
		if c.Ref != nil && !e.Home.IsArray() {
			if r := c.Ref(e.Home); r != nil {
				out = r
				break
			}
		}
		n := *e
		n.Home = c.Home(e.Home)
		out = &n
	case *ElemRef:
		n := *e
		n.Home, n.Index = c.Home(e.Home), c.exprs(e.Index)
		out = &n
	case *Slice:
		n := *e
		n.X, n.Lsb = c.Expr(e.X), c.Expr(e.Lsb)
		out = &n
	case *Unary:
		n := *e
		n.X = c.Expr(e.X)
		out = &n
	case *Binary:
		n := *e
		n.X, n.Y = c.Expr(e.X), c.Expr(e.Y)
		out = &n
	case *Cond:
		n := *e
		n.C, n.Then, n.Else = c.Expr(e.C), c.Expr(e.Then), c.Expr(e.Else)
		out = &n
	case *Concat:
		n := *e
		n.Parts = c.exprs(e.Parts)
		out = &n
	case *Repl:
		n := *e
		n.X = c.Expr(e.X)
		out = &n
	case *Extend:
		n := *e
		n.X = c.Expr(e.X)
		out = &n
	case *Trunc:
		n := *e
		n.X = c.Expr(e.X)
		out = &n
	case *Call:
		n := *e
		n.Func, n.Args = c.fn(e.Func), c.exprs(e.Args)
		out = &n
	case *SysFunc:
		n := *e
		n.Args = c.exprs(e.Args)
		out = &n
	default:
		panic("design.Copier: unknown expression type")
	}
	c.remember(e, out)
	return out
}

func (c *Copier) exprs(xs []Expr) []Expr {
	if xs == nil {
		return nil
	}
	out := make([]Expr, len(xs))
	for i, x := range xs {
		out[i] = c.Expr(x)
	}
	return out
}

func (c *Copier) fn(f *Function) *Function {
	if c.Func == nil || f == nil {
		return f
	}
	return c.Func(f)
}

func (c *Copier) remember(from, to any) {
	if c.seen == nil {
		c.seen = map[any]any{}
	}
	c.seen[from] = to
}
