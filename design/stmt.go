package design

import (
	"math/big"
)

// Stmt is a procedural statement.
type Stmt interface{ isStmt() }

// Block is a sequence of statements. Locals are the variables declared in
// the block (homes of kind KindBlockLocal inside processes, KindFuncLocal
// inside functions); a local with an initializer gets an explicit Assign at
// the start of Stmts.
type Block struct {
	Locals []*Home
	Stmts  []Stmt
}

// Assign is LHS = RHS (blocking) or LHS <= RHS (NonBlocking). RHS has the
// width of LHS (elab inserted the extension/truncation). Compound
// assignments (+=, ++) are desugared. A whole-array copy has HomeRef
// operands of array homes with equal shape and element width.
type Assign struct {
	LHS         LValue
	RHS         Expr
	NonBlocking bool
	Pos         Pos
}

// If executes Then when the 1-bit Cond is 1, otherwise Else (may be nil).
type If struct {
	Cond       Expr
	Then, Else Stmt
	Pos        Pos
}

// CaseKind is the flavour of a case statement.
type CaseKind int

const (
	CaseEq     CaseKind = iota // case
	CaseZ                      // casez
	CaseX                      // casex
	CaseInside                 // case ... inside
)

func (k CaseKind) String() string { return [...]string{"case", "casez", "casex", "case-inside"}[k] }

// Case selects the first item one of whose labels matches Subject; Default
// (may be nil) runs when none does. Subject and every label's Value (and Hi)
// have the same type: the common comparison type of the statement.
type Case struct {
	Kind    CaseKind
	Subject Expr
	Items   []*CaseItem
	Default Stmt
	Pos     Pos
}

// CaseItem is one arm.
type CaseItem struct {
	Labels []*CaseLabel
	Body   Stmt // may be nil (empty arm)
}

// CaseLabel matches when (Subject & Mask) == (Value & Mask); Mask nil means
// every bit is compared. casez/casex wildcards (z, ?, and x for casex) and
// `inside` wildcard bits are the 0 bits of Mask. When Hi is set the label is
// an `inside` range: Value <= Subject <= Hi (signed compare when the type is
// signed).
type CaseLabel struct {
	Value Expr
	Mask  *big.Int
	Hi    Expr
}

// Loop is a loop that elaboration could not unroll: while (Cond) { Body;
// Step } (DoWhile: the body runs once before Cond is tested). Cond nil means
// true (repeat is lowered to a counter). Init statements are emitted before
// the Loop. MaxIter bounds the iterations: a run that reaches it is a
// runtime error, never a hang.
type Loop struct {
	Cond    Expr
	Body    Stmt
	Step    Stmt // may be nil; runs after Body and after a Continue
	DoWhile bool
	MaxIter int
	Pos     Pos
}

// Break leaves the innermost Loop; Continue jumps to its Step.
type Break struct{ Pos Pos }
type Continue struct{ Pos Pos }

// Return leaves the current function (the result, if any, was assigned to
// Function.Result before it).
type Return struct{ Pos Pos }

// SysTaskKind names a runtime system task.
type SysTaskKind int

const (
	TaskDisplay SysTaskKind = iota
	TaskWrite
	TaskFinish
	TaskStop
	TaskError
	TaskFatal
	TaskWarning
	TaskInfo
	TaskReadmemh
	TaskReadmemb
)

var sysTaskNames = [...]string{"$display", "$write", "$finish", "$stop", "$error", "$fatal", "$warning", "$info", "$readmemh", "$readmemb"}

func (k SysTaskKind) String() string { return sysTaskNames[k] }

// SysTask is a system task call.
//
//   - $display/$write/$error/$warning/$info/$fatal: Format is the leading
//     string literal (HasFormat), Args the values (self-determined). For
//     $fatal, Level is the finish number.
//   - $finish/$stop: Level is the argument (default 1).
//   - $readmemh/$readmemb: File is the path resolved relative to the source
//     file that names it; Target is the array home; Args holds the optional
//     start and end addresses (as written indexes, not normalized).
//
// Scope is the hierarchical name of the scope that calls the task, what %m
// prints (IEEE 1800-2017 21.2.1.6): the module instance path followed by
// the generate blocks, named blocks and the task or function that enclose
// the call ("t.g[0]", "t.show", "t.named.inner"); "pkg.f" for a package
// function. Empty when unknown (the instance path is used then).
type SysTask struct {
	Kind      SysTaskKind
	Format    string
	HasFormat bool
	Args      []Expr
	Level     int
	File      string
	Target    *Home
	Scope     string
	Pos       Pos
}

// TaskCall calls a task or a void function (or a function whose result is
// discarded). For argument i, Args[i] is the input value (nil for an
// output-only argument) and Outs[i] where the output is copied back (nil for
// an input-only argument).
type TaskCall struct {
	Func *Function
	Args []Expr
	Outs []LValue
	Pos  Pos
}

func (*Block) isStmt()    {}
func (*Assign) isStmt()   {}
func (*If) isStmt()       {}
func (*Case) isStmt()     {}
func (*Loop) isStmt()     {}
func (*Break) isStmt()    {}
func (*Continue) isStmt() {}
func (*Return) isStmt()   {}
func (*SysTask) isStmt()  {}
func (*TaskCall) isStmt() {}

// Dir is the direction of a function or task argument.
type Dir int

const (
	DirIn Dir = iota
	DirOut
	DirInOut
)

// Function is a function or task, specialized for the instance (or package)
// that declares it. Args, Result and Locals are homes of kind
// KindFuncLocal: templates that are not in Design.Homes; a backend inlining
// a call gives each call its own copies (automatic lifetime, which is what
// RTL functions need). Static variables whose value can be observed from
// one call to the next (see LiveIn) are KindStatic homes instead: ordinary
// storage, referenced directly by the body and not listed in Block.Locals.
// Reads and Writes list the other homes (module state, KindStatic homes
// included) the function touches itself or through the functions it calls.
type Function struct {
	Name    string // "top.u_alu.f" or "pkg::f"
	Inst    *Instance
	Args    []*Home
	ArgDirs []Dir
	Result  *Home // nil for tasks and void functions
	Task    bool
	Body    *Block
	Pos     Pos

	Reads, Writes []Access
	// Recursive is set when the function calls itself (directly or not);
	// such functions can only be evaluated at elaboration time.
	Recursive bool

	analyzed, analyzing bool
}

// ProcKind is the flavour of a process.
type ProcKind int

const (
	ProcContAssign  ProcKind = iota // assign, and port connections that are not collapsed
	ProcAlwaysComb                  // always_comb
	ProcAlwaysStar                  // always @* / @(*)
	ProcAlwaysLevel                 // always @(a or b): simulated like always @*
	ProcAlwaysLatch                 // always_latch: a comb process that may keep its value
	ProcAlwaysFF                    // always_ff @(edges)
	ProcAlwaysEdge                  // always @(posedge/negedge ...)
	ProcInitial                     // initial
)

var procKindNames = [...]string{"assign", "always_comb", "always_star", "always_level", "always_latch", "always_ff", "always_edge", "initial"}

func (k ProcKind) String() string { return procKindNames[k] }

// Sequential reports whether the kind runs on events of a trigger group.
func (k ProcKind) Sequential() bool { return k == ProcAlwaysFF || k == ProcAlwaysEdge }

// Comb reports whether the kind belongs to the comb settle.
func (k ProcKind) Comb() bool { return k <= ProcAlwaysLatch }

// Process is one unit of procedural or continuous behaviour.
type Process struct {
	ID   int
	Kind ProcKind
	Inst *Instance
	// Name is unique and readable: "top.u_tx:assign@12", "top:always_ff@30".
	Name string
	Pos  Pos
	Body Stmt
	// Reads and Writes are the home bit ranges the process reads and
	// writes, calls included (see Access). Reads are upward-exposed: bits the
	// process reads only after it has written them with a blocking assignment
	// on every path are not listed. Block-local homes (KindBlockLocal) and
	// function templates (KindFuncLocal) never appear: they are private to
	// the process. Static function variables (KindStatic) do.
	Reads, Writes []Access
	// Group is the trigger group of a sequential process.
	Group *TriggerGroup
	// Sensitivity is the written event list of an always @(a or b) process
	// (informational: weft evaluates it like always @*).
	Sensitivity []*Home
}

// Access is a bit range of one or more elements of a home: bits Lo..Hi
// (inclusive, offset 0 = lsb of an element) of elements ElemLo..ElemHi
// (inclusive, flattened; 0..0 for a scalar home). Dynamic is set when an
// index or bit offset is not constant: the range is then the conservative
// envelope (whole array, and the bits the select can reach).
type Access struct {
	Home           *Home
	Lo, Hi         int
	ElemLo, ElemHi int
	Dynamic        bool
}

// Whole reports whether the access covers every bit of every element.
func (a Access) Whole() bool {
	return a.Lo == 0 && a.Hi == a.Home.Width-1 && a.ElemLo == 0 && a.ElemHi == a.Home.Elems()-1
}

// Overlaps reports whether two accesses of the same home share a bit.
func (a Access) Overlaps(b Access) bool {
	return a.Home == b.Home && a.Lo <= b.Hi && b.Lo <= a.Hi && a.ElemLo <= b.ElemHi && b.ElemLo <= a.ElemHi
}

// Edge is the edge of an event.
type Edge int

const (
	Posedge Edge = iota
	Negedge
	AnyEdge // `edge x` or @(x) mixed into... (only from `edge`)
)

func (e Edge) String() string { return [...]string{"posedge", "negedge", "edge"}[e] }

// Event is an edge of one bit of a home (element Elem of an array home).
type Event struct {
	Home *Home
	Elem int
	Bit  int
	Edge Edge
}

// TriggerGroup is the set of sequential processes of one instance that run
// on the same event set (e.g. posedge clk or negedge rst_n). Events are
// sorted by home ID, element, bit, edge.
type TriggerGroup struct {
	ID     int
	Inst   *Instance
	Events []Event
	Procs  []*Process
}
