package design

// WalkExpr calls fn for e and every sub-expression of it, parents first
// (nil is skipped). Function bodies are not entered.
func WalkExpr(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch e := e.(type) {
	case *ElemRef:
		for _, ix := range e.Index {
			WalkExpr(ix, fn)
		}
	case *Slice:
		WalkExpr(e.X, fn)
		WalkExpr(e.Lsb, fn)
	case *Unary:
		WalkExpr(e.X, fn)
	case *Binary:
		WalkExpr(e.X, fn)
		WalkExpr(e.Y, fn)
	case *Cond:
		WalkExpr(e.C, fn)
		WalkExpr(e.Then, fn)
		WalkExpr(e.Else, fn)
	case *Concat:
		for _, p := range e.Parts {
			WalkExpr(p, fn)
		}
	case *Repl:
		WalkExpr(e.X, fn)
	case *Extend:
		WalkExpr(e.X, fn)
	case *Trunc:
		WalkExpr(e.X, fn)
	case *Call:
		for _, a := range e.Args {
			WalkExpr(a, fn)
		}
	case *SysFunc:
		for _, a := range e.Args {
			WalkExpr(a, fn)
		}
	}
}

// WalkStmtExprs calls fn for every expression, and sub-expression, that s
// and the statements nested in it hold: conditions, case subjects and
// labels, both sides of assignments, task arguments and outputs. Function
// bodies are not entered.
func WalkStmtExprs(s Stmt, fn func(Expr)) {
	WalkStmt(s, func(st Stmt) bool {
		switch st := st.(type) {
		case *Assign:
			WalkExpr(st.LHS, fn)
			WalkExpr(st.RHS, fn)
		case *If:
			WalkExpr(st.Cond, fn)
		case *Case:
			WalkExpr(st.Subject, fn)
			for _, it := range st.Items {
				for _, l := range it.Labels {
					WalkExpr(l.Value, fn)
					WalkExpr(l.Hi, fn)
				}
			}
		case *Loop:
			WalkExpr(st.Cond, fn)
		case *SysTask:
			for _, a := range st.Args {
				WalkExpr(a, fn)
			}
		case *TaskCall:
			for _, a := range st.Args {
				WalkExpr(a, fn)
			}
			for _, o := range st.Outs {
				if o != nil {
					WalkExpr(o, fn)
				}
			}
		}
		return true
	})
}
