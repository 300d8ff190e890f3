package hdl

import "math/big"

// The syntax tree. Nodes record the position of their first token. Operators
// are kept as their source spelling ("+", "<<<", "===", "&&", "~&") because
// that reads well in diagnostics and in elaboration's switch statements.
//
// The tree says what was written, not what it means: widths, names and
// parameter values are resolved by package elab.

// Node is any syntax tree node.
type Node interface{ Position() Pos }

// At is embedded in every node to carry its position.
type At struct{ Pos Pos }

// Position returns where the node starts.
func (a At) Position() Pos { return a.Pos }

// SourceText is everything one compilation parsed: design units in source order.
type SourceText struct {
	Modules  []*Module
	Packages []*Package
	// Items are compilation-unit-scope declarations outside any module or
	// package (typedefs, localparams, functions, imports).
	Items []Item
	// Timescales are the `timescale directives of the sources, in order
	// (the preprocessor executes them; see Source.Timescales).
	Timescales []Timescale
	// Inputs names the files of the compilation unit as given (not the
	// files they include), for messages about the unit as a whole.
	Inputs []string
}

// Package is `package name; ... endpackage`.
type Package struct {
	At
	Name  string
	Items []Item
}

// Module is `module name #(params) (ports); items endmodule`.
type Module struct {
	At
	Name string
	// Interface is set for an interface declaration (`interface ...
	// endinterface`): the same parts as a module, plus Modport items.
	Interface bool
	// Imports written in the header (`module m import p::*; (...)`).
	Imports []*Import
	// Params are the header parameter port list `#(...)`; body parameter
	// declarations appear in Items.
	Params []*ParamDecl
	// ANSI is true when ports are declared in the header with directions.
	ANSI bool
	// Ports lists the header ports. For ANSI headers each PortDecl is complete;
	// for non-ANSI headers each has only Names set and the directions come from
	// PortDecl items in the body.
	Ports []*PortDecl
	Items []Item
	End   Pos
}

// Item is a module, package, generate-block or function-scope item.
type Item interface {
	Node
	itemNode()
}

// Direction of a port or function argument.
type Direction int

const (
	DirNone Direction = iota
	DirInput
	DirOutput
	DirInout
	DirRef
)

func (d Direction) String() string {
	return [...]string{"", "input", "output", "inout", "ref"}[d]
}

// Signing is an explicit `signed`/`unsigned` keyword, or its absence.
type Signing int

const (
	SignDefault Signing = iota
	SignSigned
	SignUnsigned
)

// TypeKind names the base of a data type as written.
type TypeKind int

const (
	TypeImplicit TypeKind = iota // no keyword: `input [7:0] a`, `wire a`
	TypeLogic
	TypeReg
	TypeBit
	TypeInteger
	TypeInt
	TypeByte
	TypeShortint
	TypeLongint
	TypeTime
	TypeReal   // parsed so elaboration can say "not supported"
	TypeString // parsed so elaboration can say "not supported"
	TypeNamed  // a typedef name, possibly package-scoped, or a type parameter
	TypeEnum
	TypeStruct
	TypeUnion
	TypeVoid // function return only
	TypeTypeRef
)

// Range is a packed or unpacked dimension: `[Left:Right]`, or `[Size]` for an
// unpacked C-style size (Size set, Left/Right nil), or `[]`/`[$]` (Unsized,
// rejected by elaboration).
type Range struct {
	At
	Left, Right Expr
	Size        Expr
	Unsized     bool
}

// DataType is a data type as written: a base, signing, packed dimensions.
type DataType struct {
	At
	Kind    TypeKind
	Signing Signing
	Packed  []*Range
	// Name is set for TypeNamed: Package is "" unless written `pkg::t`.
	Package, Name string
	Enum          *EnumType
	Struct        *StructType // struct and union
	// TypeRef is the expression or type inside `type(...)` for TypeTypeRef.
	TypeRef Expr
}

// EnumType is `enum base { A, B = 3, ... }`.
type EnumType struct {
	Base  *DataType // nil: int
	Items []*EnumItem
}

// EnumItem is one enumerator; Value may be nil.
type EnumItem struct {
	At
	Name  string
	Value Expr
}

// StructType is `struct packed signed { members }` (or union).
type StructType struct {
	Packed  bool
	Union   bool
	Members []*StructMember
}

// StructMember is one member declaration; several names may share a type.
type StructMember struct {
	At
	Type  *DataType
	Names []*Declarator
}

// Declarator is one declared name with its unpacked dimensions and optional
// initializer (`mem [0:15] = '{default: 0}`).
type Declarator struct {
	At
	Name     string
	Unpacked []*Range
	Init     Expr
}

// NetKind is the net keyword of a declaration, if any.
type NetKind int

const (
	NetNone NetKind = iota
	NetWire
	NetTri
	NetSupply0
	NetSupply1
	NetWand
	NetWor
	NetUwire
)

// VarDecl declares nets or variables: `wire [3:0] a, b;`, `logic c = 1;`,
// `var logic d;`, `reg [7:0] mem [0:255];`, `integer i;`.
type VarDecl struct {
	At
	Net   NetKind
	Var   bool // `var` keyword
	Const bool // `const`
	// Automatic or Static lifetime written on the declaration.
	Automatic, Static bool
	Type              *DataType
	Names             []*Declarator
}

// PortDecl declares ports: in an ANSI header, in a non-ANSI body, or (with
// only Names) as a non-ANSI header entry.
type PortDecl struct {
	At
	Dir   Direction
	Net   NetKind
	Var   bool
	Type  *DataType // nil in a non-ANSI header entry
	Names []*Declarator
	// Interface ports (`intf.modport p`) are recorded so elaboration can
	// reject them by name.
	Interface string
	// In an ANSI header a port without a direction takes the previous
	// port's; the first one has DirNone (IEEE: inout for a data type, an
	// interface port for an interface name: elaboration decides). ANSI
	// ports always have a Type (TypeImplicit when none is written), and a
	// default value (`input a = 1`) is the Declarator's Init.
}

// ParamDecl is `parameter`/`localparam`, typed or untyped, or a type parameter
// (`parameter type T = logic [7:0]`).
type ParamDecl struct {
	At
	Local bool
	Type  *DataType // nil when untyped
	// TypeParam: each Declarator's default is in TypeDefaults at the same index.
	TypeParam    bool
	TypeDefaults []*DataType
	Names        []*Declarator
}

// Typedef is `typedef type name [unpacked];`. A forward typedef has Type nil.
type Typedef struct {
	At
	Type     *DataType
	Name     string
	Unpacked []*Range
}

// Import is `import pkg::*;` (Name "*") or `import pkg::name;`.
type Import struct {
	At
	Package string
	Name    string
}

// Genvar declares genvars: `genvar i, j;`.
type Genvar struct {
	At
	Names []string
}

// ContAssign is one `assign lhs = rhs;` (a statement with several assignments
// is split into several ContAssign items).
type ContAssign struct {
	At
	LHS, RHS Expr
	// Delay is the `#d` of `assign #d a = b;` (nil without one); a 2-state
	// cycle simulator ignores it, elaboration may warn.
	Delay Expr
}

// AlwaysKind tells the flavour of a procedural block.
type AlwaysKind int

const (
	Always AlwaysKind = iota
	AlwaysComb
	AlwaysFF
	AlwaysLatch
	Initial
	Final
)

func (k AlwaysKind) String() string {
	return [...]string{"always", "always_comb", "always_ff", "always_latch", "initial", "final"}[k]
}

// AlwaysBlock is a procedural block. For `always @(...) stmt` and
// `always_ff @(...) stmt` the event control is Body's outer EventStmt.
type AlwaysBlock struct {
	At
	Kind AlwaysKind
	Body Stmt
}

// Instance is `mod #(params) u0 (conns), u1 (conns);`.
type Instance struct {
	At
	Module string
	Params []*ParamAssign
	Insts  []*InstanceName
}

// InstanceName is one instance of an Instance item.
type InstanceName struct {
	At
	Name     string
	Unpacked []*Range // instance arrays
	Conns    []*PortConn
}

// ParamAssign is a parameter override: Name "" for positional. Exactly one of
// Value and Type is set (Type for type parameters given a data type), except
// for `.W()`, which sets neither (keep the default). A type parameter given
// a typedef name (`#(my_t)`) arrives as a Value Ident.
type ParamAssign struct {
	At
	Name  string
	Value Expr
	Type  *DataType
}

// PortConn is a port connection: positional (Name ""), named `.n(e)` (Expr nil
// for `.n()`), implicit `.n` (Implicit), or the wildcard `.*`.
type PortConn struct {
	At
	Name     string
	Expr     Expr
	Implicit bool
	Wildcard bool
}

// GenBlock is a generate block: `begin : label ... end`, or a single item.
type GenBlock struct {
	At
	Label string
	Items []Item
}

// GenFor is `for (genvar i = 0; i < N; i++) begin : label ... end`.
type GenFor struct {
	At
	DeclaresGenvar bool
	Var            string
	Init           Expr
	Cond           Expr
	// Step is the update: an AssignStmt (`i = i + 1`, `i += 2`) or IncDecStmt.
	Step Stmt
	Body *GenBlock
}

// GenIf is a generate if; Else may be nil or hold a GenIf in a single-item block.
type GenIf struct {
	At
	Cond       Expr
	Then, Else *GenBlock
}

// GenCase is a generate case.
type GenCase struct {
	At
	Expr  Expr
	Items []*GenCaseItem
}

// GenCaseItem is one arm; Exprs nil means default.
type GenCaseItem struct {
	At
	Exprs []Expr
	Body  *GenBlock
}

// GenRegion is `generate ... endgenerate`; its items behave as if written bare.
type GenRegion struct {
	At
	Items []Item
}

// Function is `function automatic type name(ports); decls stmts endfunction`.
type Function struct {
	At
	Automatic  bool
	ReturnType *DataType // TypeVoid for void functions; implicit means 1-bit logic
	Name       string
	Ports      []*TFPort
	Decls      []Item
	Body       []Stmt
}

// Task is `task name(ports); decls stmts endtask`.
type Task struct {
	At
	Automatic bool
	Name      string
	Ports     []*TFPort
	Decls     []Item
	Body      []Stmt
}

// TFPort is one function or task argument; Type is never nil (TypeImplicit
// when not written). Old-style declarations in the body (`input [7:0] a;`)
// are appended to Ports in order.
type TFPort struct {
	At
	Dir      Direction // DirInput when not written
	Type     *DataType
	Name     string
	Unpacked []*Range
	Default  Expr
}

// Unsupported records a construct the parser recognised but weft does not
// support yet (interfaces, classes, ...). Elaboration reports it when it is
// actually used, so unused unsupported code in a library file does not fail.
type Unsupported struct {
	At
	What string // "interface", "class", "program", ...
	// Name is the construct's name when it has one (`interface bus_if`), so
	// elaboration can say "interface 'bus_if' is not supported yet" when a
	// module instantiates it.
	Name string
}

// Assertion is an assertion, cover, assume or restrict, as an item or a
// statement. Text is the source text of the whole assertion, action blocks
// included. A simple immediate assertion (`assert (x) else $error(...)`,
// `cover (c) n++;`) keeps its condition and action statements (Immediate
// set; Pass and Fail may be nil); for the others (concurrent and deferred
// assertions, `default clocking`) the parser skips the property and
// elaboration ignores them with a warning.
type Assertion struct {
	At
	Text string
	// Kind is "assert", "assume", "cover" or "restrict".
	Kind       string
	Immediate  bool
	Cond       Expr
	Pass, Fail Stmt
}

// Modport is one modport of an interface: `modport name (input a, output b,
// import f)`.
type Modport struct {
	At
	Name  string
	Ports []*ModportPort
}

// ModportPort is one name a modport lists: a signal with its direction, or
// an imported function or task (Import set, Dir DirNone).
type ModportPort struct {
	At
	Dir    Direction
	Name   string
	Import bool
}

// ElabTask is an elaboration-time system task written as a module or
// generate item, typically `if (W < 1) $error("W must be positive");`
// (IEEE 1800-2017 §20.11). Call is the $error/$fatal/$warning/$info call.
type ElabTask struct {
	At
	Call *CallExpr
}

func (*VarDecl) itemNode()     {}
func (*PortDecl) itemNode()    {}
func (*ParamDecl) itemNode()   {}
func (*Typedef) itemNode()     {}
func (*Import) itemNode()      {}
func (*Genvar) itemNode()      {}
func (*ContAssign) itemNode()  {}
func (*AlwaysBlock) itemNode() {}
func (*Instance) itemNode()    {}
func (*GenBlock) itemNode()    {}
func (*GenFor) itemNode()      {}
func (*GenIf) itemNode()       {}
func (*GenCase) itemNode()     {}
func (*GenRegion) itemNode()   {}
func (*Function) itemNode()    {}
func (*Task) itemNode()        {}
func (*Unsupported) itemNode() {}
func (*Assertion) itemNode()   {}
func (*Modport) itemNode()     {}
func (*ElabTask) itemNode()    {}

// ---- Statements ----

// Stmt is a procedural statement.
type Stmt interface {
	Node
	stmtNode()
}

// BlockStmt is `begin : label decls stmts end`.
type BlockStmt struct {
	At
	Label string
	Decls []Item // VarDecl, ParamDecl (localparam), Typedef
	Stmts []Stmt
}

// AssignStmt is `lhs = rhs`, `lhs <= rhs`, or a compound `lhs op= rhs`
// (Op "+=", "<<=", ...; "=" or "<=" otherwise).
type AssignStmt struct {
	At
	LHS, RHS    Expr
	Op          string
	NonBlocking bool
	// Delay is an intra-assignment delay (`q <= #1 d;`), nil without one.
	Delay Expr
}

// IncDecStmt is `x++`, `++x`, `x--`, `--x` (Op "++" or "--").
type IncDecStmt struct {
	At
	LHS Expr
	Op  string
}

// Qualifier is unique/unique0/priority on if and case.
type Qualifier int

const (
	QualNone Qualifier = iota
	QualUnique
	QualUnique0
	QualPriority
)

// IfStmt is `if (c) a else b`; Else may be nil.
type IfStmt struct {
	At
	Qual       Qualifier
	Cond       Expr
	Then, Else Stmt
}

// CaseKind is case, casez or casex.
type CaseKind int

const (
	Case CaseKind = iota
	CaseZ
	CaseX
)

// CaseStmt is `unique case (e) inside? items endcase`.
type CaseStmt struct {
	At
	Qual   Qualifier
	Kind   CaseKind
	Inside bool
	Expr   Expr
	Items  []*CaseItem
}

// CaseItem is one arm; Exprs nil means default. With `inside`, an Expr may
// be a RangeExpr.
type CaseItem struct {
	At
	Exprs []Expr
	Body  Stmt
}

// ForStmt is `for (init; cond; step) body`. Init may declare loop variables
// (VarDecl items in InitDecls) or assign existing ones (Init).
type ForStmt struct {
	At
	InitDecls []*VarDecl
	Init      []Stmt
	Cond      Expr
	Step      []Stmt
	Body      Stmt
}

// ForeachStmt is `foreach (arr[i, j]) body`: one loop variable per
// dimension of Array, leftmost first; a skipped dimension (`arr[, j]`)
// has an empty name.
type ForeachStmt struct {
	At
	Array Expr
	Vars  []string
	Body  Stmt
}

// WhileStmt is `while (c) body` or `do body while (c);`.
type WhileStmt struct {
	At
	DoWhile bool
	Cond    Expr
	Body    Stmt
}

// RepeatStmt is `repeat (n) body`.
type RepeatStmt struct {
	At
	Count Expr
	Body  Stmt
}

// ForeverStmt is `forever body` (only meaningful in test code; elaboration
// rejects it in synthesizable processes).
type ForeverStmt struct {
	At
	Body Stmt
}

// EdgeKind is the edge of an event expression.
type EdgeKind int

const (
	EdgeNone EdgeKind = iota // level: `@(a or b)`
	EdgePos
	EdgeNeg
	EdgeBoth
)

// EventExpr is one term of an event control: `posedge clk`, `negedge rst_n`, `a`.
type EventExpr struct {
	At
	Edge EdgeKind
	Expr Expr
	// Iff is the optional `iff` guard.
	Iff Expr
}

// EventStmt is `@(events) body` or `@* body` / `@(*) body` (Star).
type EventStmt struct {
	At
	Star   bool
	Events []*EventExpr
	Body   Stmt
}

// DelayStmt is `#delay body`; parsed so elaboration can reject delays in RTL
// with a clear message (and ignore them in initial blocks of test code).
type DelayStmt struct {
	At
	Delay Expr
	Body  Stmt
}

// WaitStmt is `wait (cond) body`; not supported in RTL.
type WaitStmt struct {
	At
	Cond Expr
	Body Stmt
}

// ExprStmt is a call used as a statement: a task call, a system task
// (`$display(...)`), or a function call whose result is discarded
// (`void'(f(x))`).
type ExprStmt struct {
	At
	X Expr
}

// ReturnStmt is `return [value];`.
type ReturnStmt struct {
	At
	Value Expr
}

// BreakStmt is `break;`.
type BreakStmt struct{ At }

// ContinueStmt is `continue;`.
type ContinueStmt struct{ At }

// NullStmt is a lone `;`.
type NullStmt struct{ At }

// DeclStmt is a variable declaration inside a statement list where the
// language allows it after statements (the parser normally files
// declarations into BlockStmt.Decls).
type DeclStmt struct {
	At
	Decl *VarDecl
}

// UnsupportedStmt is a recognised statement weft does not support yet
// (fork/join, disable, assertions in procedural code, ...).
type UnsupportedStmt struct {
	At
	What string
}

func (*BlockStmt) stmtNode()       {}
func (*AssignStmt) stmtNode()      {}
func (*IncDecStmt) stmtNode()      {}
func (*IfStmt) stmtNode()          {}
func (*CaseStmt) stmtNode()        {}
func (*ForStmt) stmtNode()         {}
func (*WhileStmt) stmtNode()       {}
func (*RepeatStmt) stmtNode()      {}
func (*ForeverStmt) stmtNode()     {}
func (*EventStmt) stmtNode()       {}
func (*DelayStmt) stmtNode()       {}
func (*WaitStmt) stmtNode()        {}
func (*ExprStmt) stmtNode()        {}
func (*ReturnStmt) stmtNode()      {}
func (*BreakStmt) stmtNode()       {}
func (*ContinueStmt) stmtNode()    {}
func (*NullStmt) stmtNode()        {}
func (*DeclStmt) stmtNode()        {}
func (*ForeachStmt) stmtNode()     {}
func (*UnsupportedStmt) stmtNode() {}
func (*Assertion) stmtNode()       {}

// ---- Expressions ----

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// Ident is a simple name.
type Ident struct {
	At
	Name string
}

// ScopedIdent is `pkg::name` (also `$unit::name`).
type ScopedIdent struct {
	At
	Package, Name string
}

// MemberExpr is `x.name`: a struct member or a hierarchical reference; which
// one is decided by elaboration.
type MemberExpr struct {
	At
	X    Expr
	Name string
}

// Number is a literal such as 8'hFF, 'b1, 12, 4'sd3, 'x, '0, '1, 1.5.
type Number struct {
	At
	Text string // as written, for messages
	// Width is the explicit size, 0 when unsized.
	Width  int
	Signed bool
	// Base is 'b', 'o', 'd' or 'h'; 0 for a plain decimal (which is signed).
	Base byte
	// Value holds the value bits; XZ marks bits that were x or z (2-state
	// simulation reads them as 0, but casez/casex treat z/? as wildcards).
	Value *big.Int
	XZ    *big.Int
	Z     *big.Int // bits written as z or ? (subset of XZ)
	// Fill is set for the unbased unsized literals '0, '1, 'x, 'z: the byte
	// '0', '1', 'x' or 'z'. Their width is context-determined.
	Fill byte
	// Real literals are recorded so elaboration can reject them.
	Real bool
}

// StringLit is "text" (escapes already decoded).
type StringLit struct {
	At
	Value string
}

// UnaryExpr is a prefix operator: + - ! ~ & ~& | ~| ^ ~^ ^~ (reductions share
// the spelling of the binary operators; unary context decides).
type UnaryExpr struct {
	At
	Op string
	X  Expr
}

// BinaryExpr is a binary operator: arithmetic, shifts (<< >> <<< >>>), compare
// (< <= > >= == != === !== ==? !=?), logical (&& || -> <->), bitwise, **.
type BinaryExpr struct {
	At
	Op   string
	X, Y Expr
}

// CondExpr is `c ? a : b`.
type CondExpr struct {
	At
	Cond, Then, Else Expr
}

// IndexExpr is `x[i]`: a bit select or an array element.
type IndexExpr struct {
	At
	X     Expr
	Index Expr
}

// RangeSelKind is the flavour of a part select.
type RangeSelKind int

const (
	SelConst RangeSelKind = iota // [msb:lsb]
	SelPlus                      // [base +: width]
	SelMinus                     // [base -: width]
)

// RangeExpr is `x[l:r]`, `x[b +: w]`, `x[b -: w]`. With X nil it is a
// value range `[lo:hi]` inside an `inside` set or a case-inside item.
type RangeExpr struct {
	At
	X           Expr
	Kind        RangeSelKind
	Left, Right Expr
}

// ConcatExpr is `{a, b, c}`.
type ConcatExpr struct {
	At
	Items []Expr
}

// ReplicateExpr is `{n{a, b}}`.
type ReplicateExpr struct {
	At
	Count Expr
	Items []Expr
}

// StreamExpr is `{<<{x}}` / `{>>8{x}}`, recorded so elaboration can reject it.
type StreamExpr struct {
	At
	Left  bool
	Slice Expr
	Items []Expr
}

// CallExpr is a function or system function call: `f(a, b)`, `pkg::f(a)`,
// `$clog2(N)`, `$bits(T)` (a type argument is a TypeExpr). System is true for
// `$name` calls; Name then includes the dollar.
type CallExpr struct {
	At
	Package string
	// Scope is the hierarchical prefix of a call through an interface
	// (`bus.write(a)`: Scope is bus); nil for a plain call.
	Scope  Expr
	Name   string
	System bool
	Args   []Expr
	// NamedArgs holds `.name(expr)` arguments, rare but legal.
	NamedArgs map[string]Expr
	// An empty argument (`$display(a,,b)`) is a nil entry in Args.
}

// CastExpr is `N'(x)` (Width), `signed'(x)`/`unsigned'(x)` (Signing),
// `T'(x)` (Type), or `type'(x)`.
//
// The parser makes `name'(x)` a Type cast only when name is a typedef or
// type parameter declared earlier in the source; otherwise Width holds the
// Ident/ScopedIdent, which elaboration must still accept as a type name.
// A typed assignment pattern `T'{...}` is a CastExpr whose X is the
// PatternExpr; `void'(f(x))` has Type TypeVoid.
type CastExpr struct {
	At
	Width   Expr
	Signing Signing
	Type    *DataType
	X       Expr
}

// InsideExpr is `x inside {a, [lo:hi], c}`.
type InsideExpr struct {
	At
	X   Expr
	Set []Expr
}

// PatternExpr is an assignment pattern `'{a, b}`, `'{default: 0}`,
// `'{x: 1, y: 2}`. Keys[i] is nil for positional items; Default may be set.
type PatternExpr struct {
	At
	Keys    []Expr
	Items   []Expr
	Default Expr
	// Repeat is set for `'{n{a}}`.
	Repeat Expr
}

// TypeExpr is a data type in expression position: `$bits(logic [3:0])`,
// `$bits(my_t)` when my_t names a type is parsed as Ident and resolved later.
type TypeExpr struct {
	At
	Type *DataType
}

// ParenExpr keeps parentheses only where they matter to a diagnostic; the
// parser may drop them.
type ParenExpr struct {
	At
	X Expr
}

func (*Ident) exprNode()         {}
func (*ScopedIdent) exprNode()   {}
func (*MemberExpr) exprNode()    {}
func (*Number) exprNode()        {}
func (*StringLit) exprNode()     {}
func (*UnaryExpr) exprNode()     {}
func (*BinaryExpr) exprNode()    {}
func (*CondExpr) exprNode()      {}
func (*IndexExpr) exprNode()     {}
func (*RangeExpr) exprNode()     {}
func (*ConcatExpr) exprNode()    {}
func (*ReplicateExpr) exprNode() {}
func (*StreamExpr) exprNode()    {}
func (*CallExpr) exprNode()      {}
func (*CastExpr) exprNode()      {}
func (*InsideExpr) exprNode()    {}
func (*PatternExpr) exprNode()   {}
func (*TypeExpr) exprNode()      {}
func (*ParenExpr) exprNode()     {}
