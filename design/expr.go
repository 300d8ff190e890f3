package design

import (
	"fmt"
	"math/big"
)

// Type is the type of an expression value: a packed vector of Width bits
// (Width >= 1), signed or unsigned.
type Type struct {
	Width  int
	Signed bool
}

// Bit is the 1-bit unsigned type of comparisons and logical operators.
var Bit = Type{Width: 1}

func (t Type) String() string {
	if t.Signed {
		return fmt.Sprintf("s%d", t.Width)
	}
	return fmt.Sprintf("u%d", t.Width)
}

// Expr is a typed expression. Elaboration has applied SystemVerilog's
// context-determined width and signedness rules, so every node's operands
// have exactly the widths the node needs (see the invariants on each node and
// Check); a backend only implements local operations.
type Expr interface {
	Type() Type
	isExpr()
}

// LValue is an assignable expression: *HomeRef, *ElemRef, *Slice (whose X is
// an LValue) or *Concat (whose Parts are LValues).
type LValue interface {
	Expr
	isLValue()
}

// Const is a constant. Val holds the two's complement bits: 0 <= Val < 2^Width.
// U, when not nil, marks the bits that are x or z; Val is 0 there, so a
// reader of Val alone reads them as 0, which is what 2-state run-time code
// does (elaboration warns where it does; see Unknown).
type Const struct {
	T   Type
	Val *big.Int
	U   *Unknown
}

// Unknown is the four-state part of a constant: which bits are x or z.
// Elaboration folds constants with x and z bits exactly (IEEE 1800's
// four-state operator tables, design/logic.go); At is where the first x or
// z bit was written, for the warning or error that names it.
type Unknown struct {
	XZ *big.Int // bits that are x or z (non-zero)
	Z  *big.Int // of those, the z bits
	At Pos
}

// HomeRef is the whole value of a home. For a scalar home its type is the
// home's type. For an array home it denotes the whole array and appears only
// as both sides of a whole-array copy (Assign of arrays of equal shape).
type HomeRef struct{ Home *Home }

// ElemRef is one element of an array home. Index has one entry per unpacked
// dimension, already normalized to a 0-based element number within that
// dimension (index - Dim.Lo()), as an unsigned value. An index >= the
// dimension size reads 0 and makes a write do nothing.
type ElemRef struct {
	Home  *Home
	Index []Expr
}

// Slice is T.Width bits of X starting at bit offset Lsb (0 = X's lsb). Every
// bit select, part select, indexed part select, packed multi-dimensional
// select and packed struct member access becomes a Slice. Lsb is unsigned;
// bits at offsets >= X's width read 0 and are not written. T.Signed is false
// except for signed struct members.
type Slice struct {
	X   Expr
	Lsb Expr
	T   Type
}

// UnOp is a unary operator.
type UnOp int

const (
	OpNeg     UnOp = iota // -x; T == X.Type()
	OpNot                 // ~x; T == X.Type()
	OpLogNot              // !x; 1 bit
	OpRedAnd              // &x; 1 bit
	OpRedNand             // ~&x
	OpRedOr               // |x
	OpRedNor              // ~|x
	OpRedXor              // ^x
	OpRedXnor             // ~^x
)

var unOpNames = [...]string{"neg", "not", "lnot", "redand", "rednand", "redor", "rednor", "redxor", "redxnor"}

func (o UnOp) String() string { return unOpNames[o] }

// Unary applies Op to X.
type Unary struct {
	Op UnOp
	X  Expr
	T  Type
}

// BinOp is a binary operator.
type BinOp int

const (
	// Arithmetic and bitwise: X.Type() == Y.Type() == T.
	OpAdd BinOp = iota
	OpSub
	OpMul
	OpDiv // signed when T.Signed; x/0 == 0
	OpMod // signed when T.Signed (sign of the dividend); x%0 == 0
	OpAnd
	OpOr
	OpXor
	OpXnor
	// Shifts and power: X.Type() == T; Y is self-determined and unsigned
	// (any width). Shifting by >= T.Width gives 0 (or all sign bits for
	// OpAShr).
	OpShl
	OpShr  // logical
	OpAShr // arithmetic (only emitted when T.Signed)
	OpPow  // X ** Y; Y may be signed (negative exponents follow IEEE 1800 table 11-4, 2-state)
	// Comparisons: X.Type() == Y.Type() (signed compare when signed); T is 1 bit.
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
)

var binOpNames = [...]string{"add", "sub", "mul", "div", "mod", "and", "or", "xor", "xnor",
	"shl", "shr", "ashr", "pow", "eq", "ne", "lt", "le", "gt", "ge"}

func (o BinOp) String() string { return binOpNames[o] }

// IsCompare reports whether o is a comparison.
func (o BinOp) IsCompare() bool { return o >= OpEq }

// IsShift reports whether o's right operand is a self-determined amount.
func (o BinOp) IsShift() bool { return o >= OpShl && o <= OpPow }

// Binary applies Op to X and Y. Logical && || -> <-> are lowered to bitwise
// operators on 1-bit truth values (OpRedOr of each side).
type Binary struct {
	Op   BinOp
	X, Y Expr
	T    Type
}

// Cond is C ? Then : Else; C is 1 bit; Then and Else have type T.
type Cond struct {
	C, Then, Else Expr
	T             Type
}

// Concat is {Parts[0], Parts[1], ...}: Parts[0] is the most significant.
// Its type is unsigned with the sum of the parts' widths.
type Concat struct {
	Parts []Expr
	T     Type
}

// Repl is {N{X}}: N >= 1 copies of X; unsigned, N*width(X) bits.
type Repl struct {
	X Expr
	N int
	T Type
}

// Extend widens X to T.Width bits: sign-extends when SignExt, otherwise
// zero-extends. With T.Width == X's width it only changes signedness.
type Extend struct {
	X       Expr
	SignExt bool
	T       Type
}

// Trunc keeps the low T.Width bits of X (T.Width <= X's width).
type Trunc struct {
	X Expr
	T Type
}

// Call calls a function; Args[i] has the width of Func.Args[i].
type Call struct {
	Func *Function
	Args []Expr
	T    Type
}

// SysFn is a runtime system function (constant ones are folded by elab).
type SysFn int

const (
	FnCountOnes SysFn = iota // $countones(x): T is 32-bit signed... see Type
	FnOneHot                 // $onehot(x): 1 bit
	FnOneHot0                // $onehot0(x): 1 bit
	FnClog2                  // $clog2(x) of a non-constant: 32-bit signed
	FnTime                   // $time: 64-bit unsigned simulation time
	FnRandom                 // $random: 32-bit signed
	FnURandom                // $urandom: 32-bit unsigned
)

var sysFnNames = [...]string{"$countones", "$onehot", "$onehot0", "$clog2", "$time", "$random", "$urandom"}

func (f SysFn) String() string { return sysFnNames[f] }

// SysFunc is a runtime system function call; Args are self-determined.
type SysFunc struct {
	Fn   SysFn
	Args []Expr
	T    Type
}

func (e *Const) Type() Type   { return e.T }
func (e *HomeRef) Type() Type { return e.Home.Type() }
func (e *ElemRef) Type() Type { return e.Home.Type() }
func (e *Slice) Type() Type   { return e.T }
func (e *Unary) Type() Type   { return e.T }
func (e *Binary) Type() Type  { return e.T }
func (e *Cond) Type() Type    { return e.T }
func (e *Concat) Type() Type  { return e.T }
func (e *Repl) Type() Type    { return e.T }
func (e *Extend) Type() Type  { return e.T }
func (e *Trunc) Type() Type   { return e.T }
func (e *Call) Type() Type    { return e.T }
func (e *SysFunc) Type() Type { return e.T }

func (*Const) isExpr()   {}
func (*HomeRef) isExpr() {}
func (*ElemRef) isExpr() {}
func (*Slice) isExpr()   {}
func (*Unary) isExpr()   {}
func (*Binary) isExpr()  {}
func (*Cond) isExpr()    {}
func (*Concat) isExpr()  {}
func (*Repl) isExpr()    {}
func (*Extend) isExpr()  {}
func (*Trunc) isExpr()   {}
func (*Call) isExpr()    {}
func (*SysFunc) isExpr() {}

func (*HomeRef) isLValue() {}
func (*ElemRef) isLValue() {}
func (*Slice) isLValue()   {}
func (*Concat) isLValue()  {}

// NewConst returns a constant of type t holding v (any integer; it is
// wrapped to t.Width bits).
func NewConst(t Type, v *big.Int) *Const { return &Const{T: t, Val: Mask(v, t.Width)} }

// ConstInt returns a constant of type t holding v.
func ConstInt(t Type, v int64) *Const { return NewConst(t, big.NewInt(v)) }

// ConstValue returns e's value when e is a *Const.
func ConstValue(e Expr) (*big.Int, bool) {
	if c, ok := e.(*Const); ok {
		return c.Val, true
	}
	return nil, false
}

// ConstUint returns e's value as an int when e is a constant that fits.
func ConstUint(e Expr) (int, bool) {
	c, ok := e.(*Const)
	if !ok || !c.Val.IsInt64() || c.Val.Int64() > 1<<40 {
		return 0, false
	}
	return int(c.Val.Int64()), true
}
