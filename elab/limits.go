package elab

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// Limits bound the work of one elaboration, so that a design that would
// elaborate for hours (a constant function looping over a huge range, a
// million-bit constant folded in every iteration of a large generate loop,
// generate loops nested three deep) ends in an error naming the construct
// and the limit. A zero field takes its default.
//
// ConstSteps and ConstBits bound the constant evaluation that a design
// needs: parameters, ranges, constant function calls. What elaboration
// only tries (running an initial block or a function call at elaboration
// time rather than at run time) has a budget of the same size of its own,
// and running out of it only leaves the work to run time.
type Limits struct {
	// ConstSteps bounds the statements and loop iterations that constant
	// functions execute, over the whole elaboration (each single call is
	// also bounded, by 2^20 steps). Default DefaultConstSteps.
	ConstSteps int64
	// ConstBits bounds the bits constant evaluation computes, over the
	// whole elaboration: each folded operation, concatenation or
	// replication counts the width of its value, a multiplication,
	// division or power more (design.OpCost). Default DefaultConstBits.
	ConstBits int64
	// GenerateIterations bounds the iterations of all generate loops
	// together, and of each loop (at least 2^20 then, as for a procedural
	// loop, so that a step that never reaches the bound is named as
	// such). A loop's header runs, and its iterations are charged, before
	// any of its bodies is built. Default DefaultGenerateIterations.
	GenerateIterations int64
	// Instances bounds the module and interface instances of the design.
	// Default DefaultInstances.
	Instances int64
}

// The defaults of Limits. Each is far above what real designs use (a
// 64K-word constant ROM computed by a function takes a few million steps
// and under 10^9 bits; a generate loop of a million one-bit flops passes)
// and stops a runaway within seconds: a step takes 0.2-1 us, 2^35 bits
// about 4 s of big-number arithmetic, and a generate iteration or an
// instance 15-40 us and 3-8 KiB.
const (
	DefaultConstSteps         = 1 << 24
	DefaultConstBits          = 1 << 35
	DefaultGenerateIterations = 1 << 20
	DefaultInstances          = 1 << 17
)

// work is what one elaboration has spent of its Limits.
type work struct {
	limits Limits
	budget design.Budget
	// optional is the budget of the folds that may fail without an error
	// (an initial block run at elaboration, a call that could also run
	// at run time): spending on them must not starve a parameter.
	optional design.Budget
	genIters int64
	genDone  bool // a generate limit is reported
	instDone bool // the instance limit is reported
	nest     int  // depth of elaboration's recursion (see enter)
	nestDone bool // maxNest is reported
	// exhausted is set once the budget error is reported: every later
	// evaluation fails the same way and says nothing more.
	exhausted bool
}

func (e *elab) work() *work {
	if e.spent == nil {
		l := e.opts.Limits
		if l.ConstSteps <= 0 {
			l.ConstSteps = DefaultConstSteps
		}
		if l.ConstBits <= 0 {
			l.ConstBits = DefaultConstBits
		}
		if l.GenerateIterations <= 0 {
			l.GenerateIterations = DefaultGenerateIterations
		}
		if l.Instances <= 0 {
			l.Instances = DefaultInstances
		}
		b := design.Budget{MaxSteps: l.ConstSteps, MaxBits: l.ConstBits}
		e.spent = &work{limits: l, budget: b, optional: b}
	}
	return e.spent
}

// budget is the constant-evaluation budget every machine of this
// elaboration shares.
func (e *elab) budget() *design.Budget { return &e.work().budget }

// optionalBudget is the budget of the folds whose failure only leaves
// the work to run time.
func (e *elab) optionalBudget() *design.Budget { return &e.work().optional }

// spend charges n bits of constant work done for what at pos; when the
// budget is exhausted it reports so (once) and returns false.
func (e *elab) spend(pos hdl.Pos, n int64, what string) bool {
	err := e.budget().Spend(n)
	if err == nil {
		return true
	}
	var be *design.BudgetError
	errors.As(err, &be)
	e.budgetExceeded(pos, what, be)
	return false
}

// budgetExceeded reports that constant evaluation at pos, for what, ran out
// of the elaboration's budget.
func (e *elab) budgetExceeded(pos hdl.Pos, what string, be *design.BudgetError) {
	w := e.work()
	if w.exhausted {
		return
	}
	w.exhausted = true
	field, flag := "ConstSteps", "--max-const-steps"
	if be.Unit == "bits" {
		field, flag = "ConstBits", "--max-const-bits"
	}
	e.errorf(pos, "%s: %s in this elaboration (elab.Limits.%s; raise it with %s)", what, be, field, flag)
}

// constErr reports a failed constant evaluation of what at pos.
func (e *elab) constErr(pos hdl.Pos, what string, err error) {
	var be *design.BudgetError
	if errors.As(err, &be) {
		e.budgetExceeded(pos, what, be)
		return
	}
	e.errorf(pos, "%s is not a constant: %s", what, err)
}

// generateIterations charges n iterations of the generate loop name at
// pos; past the limit it reports so and returns false.
func (e *elab) generateIterations(pos hdl.Pos, name string, n int64) bool {
	w := e.work()
	w.genIters += n
	if w.genIters <= w.limits.GenerateIterations {
		return true
	}
	if !w.genDone {
		w.genDone = true
		e.errorf(pos, "generate loop '%s': the generate loops of this design run more than %d iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)", name, w.limits.GenerateIterations)
	}
	return false
}

// numText formats a value for a message: in full when short, by its size
// when printing it would take a page (or, for millions of digits, seconds).
func numText(v *big.Int) string {
	if v.BitLen() <= 128 {
		return v.String()
	}
	sign := ""
	if v.Sign() < 0 {
		sign = "-"
	}
	return fmt.Sprintf("%s(a %d-bit number)", sign, v.BitLen())
}

// maxNest bounds elaboration's recursion: an expression (up to
// hdl.MaxExprDepth levels), the parameters and types it uses, the
// expressions that define those, and so on. Parameters or types defined
// each through the next can chain without end; at this bound such a chain
// needs under 32 MiB of stack (TestDefinitionChains runs it under 256).
const maxNest = 1 << 15

// enter counts one level of elaboration's recursion, at n's position;
// past maxNest it reports so (once) and returns false. A true return must
// be matched by leave.
func (e *elab) enter(n hdl.Expr) bool {
	var pos hdl.Pos
	if n != nil {
		pos = n.Position()
	}
	return e.enterAt(pos)
}

func (e *elab) enterAt(pos hdl.Pos) bool {
	w := e.work()
	if w.nestDone {
		// The elaboration has failed: stop at once everywhere rather than
		// recurse as deep again from each of a chain's links.
		return false
	}
	if w.nest >= maxNest {
		w.nestDone = true
		e.errorf(pos, "expressions, parameters and types nest more than %d levels deep here (each defined through the next); define them in fewer steps", maxNest)
		return false
	}
	w.nest++
	return true
}

func (e *elab) leave() { e.spent.nest-- }
