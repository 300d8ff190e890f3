package design

import (
	"fmt"
	"math/big"
	"math/bits"
)

// Budget is the work the machines of one job may do together (elaboration
// shares one among every constant it folds): a per-evaluation step limit
// alone lets a design fold a million constants of a million steps each.
// Every statement and loop iteration a machine executes is a step; every
// value it computes costs its width in bits, a multiplication more (see
// MulCost). Zero maxima mean no limit.
type Budget struct {
	MaxSteps, MaxBits int64
	Steps, Bits       int64
}

// BudgetError is the failure of an evaluation that ran out of its Budget.
type BudgetError struct {
	// Unit is "steps" or "bits"; Limit the maximum that was exceeded.
	Unit  string
	Limit int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("constant evaluation needs more than %d %s", e.Limit, e.Unit)
}

// Step charges one step.
func (b *Budget) Step() error {
	if b == nil {
		return nil
	}
	b.Steps++
	if b.MaxSteps > 0 && b.Steps > b.MaxSteps {
		return &BudgetError{Unit: "steps", Limit: b.MaxSteps}
	}
	return nil
}

// Spend charges n bits of work. Call it before the work when the work is
// large, so that a refused computation is never started.
func (b *Budget) Spend(n int64) error {
	if b == nil {
		return nil
	}
	b.Bits = satAdd(b.Bits, n)
	if b.MaxBits > 0 && b.Bits > b.MaxBits {
		return &BudgetError{Unit: "bits", Limit: b.MaxBits}
	}
	return nil
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return 1<<63 - 1
}

func satMul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(lo)
}

// mulCost is the charge for a product of an a-bit and a b-bit number:
// big.Int takes about n*m word operations for an n-word by m-word product
// while the shorter has under 16 words and fewer above, which
// 64*n*max(1, m/16) bits of linear work models with integers (exact for
// two 1024-word operands, an overestimate above).
func mulCost(a, b int) int64 {
	n, m := int64(max(a, b)+63)/64, int64(min(a, b)+63)/64
	return satMul(64*n, max(1, m/16))
}

// OpCost is the charge for EvalBinary computing x op y (of types xt and
// yt): the width of the operands for the linear operators; for products,
// quotients and powers what their multiplications cost.
func OpCost(op BinOp, x *big.Int, xt Type, y *big.Int, yt Type) int64 {
	w := xt.Width
	switch op {
	case OpMul:
		return max(int64(w), mulCost(x.BitLen(), y.BitLen()))
	case OpDiv, OpMod:
		a, b := ToInt(x, xt).BitLen(), ToInt(y, yt).BitLen()
		return max(int64(w), mulCost(max(1, a-b+1), b))
	case OpPow:
		exp := ToInt(y, yt)
		if exp.Sign() <= 0 {
			return int64(w)
		}
		// EvalBinary reduces the exponent below 2^w: at most w squarings,
		// each with a multiplication, of values up to w bits.
		return satMul(2*int64(min(exp.BitLen(), w)), mulCost(w, w))
	}
	return int64(max(w, yt.Width))
}
