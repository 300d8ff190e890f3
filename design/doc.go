// Package design is weft's elaborated model of a SystemVerilog design: what
// package elab produces and every later stage (comb scheduling, FF
// splitting, lane partitioning, state layout, lowering, dut handles) reads.
// It imports no parser types.
//
// # Model
//
//   - Instances form a tree (Design.Top, Design.Instances in preorder).
//     Generate scopes are not instances: they only prefix names
//     ("top.g_lane[2].u_alu.x"; unnamed generate blocks are genblkN as in
//     IEEE 1800 §27.6).
//   - A Home is one storage object (variable, net, port, process-local
//     variable): Width bits per element, Elems() elements. Design.Lookup finds
//     a home by hierarchical name, with or without the top prefix.
//   - Port collapsing: a child port connected to a whole parent signal of the
//     same width, signedness and unpacked shape shares the parent's home (one
//     storage object, what fast simulators do); the child name is listed in
//     Home.Aliases and Lookup finds either name. Home.Inst, Kind and Packed
//     are the parent's. Other connections become ProcContAssign processes
//     (child input = parent expression; parent lvalue = child output), named
//     "top:port u_tx.din@12".
//   - Processes: Design.Comb (continuous assignments, connection assignments,
//     always_comb, always @*, always @(a or b) — simulated like @* —, and
//     always_latch), TriggerGroups (always_ff and always @(edges), grouped by
//     instance and event set), Design.Initial (initial blocks that could not
//     be folded into Home.Init).
//   - Functions and tasks are specialized per declaring instance or package.
//     Their argument, result and local homes (KindFuncLocal) are templates,
//     not in Design.Homes: a backend inlining a call gives each call its own
//     copies (automatic lifetime). Static variables of functions and tasks
//     (§13.3.1: locals of a subroutine declared without automatic, and
//     locals declared static) that keep a value from one call to the next
//     are KindStatic homes in Design.Homes ("top.u.f.acc", initializer in
//     Init, run once): every call, from any process, shares them. Processes
//     calling the function read and write them like module state; two
//     processes doing so race, as the standard allows (elab warns).
//
// # Expressions
//
// Expressions are fully typed: elab applied SystemVerilog's
// context-determined width and signedness rules (§11.6, §11.8) by inserting
// Extend and Trunc nodes, so each node's operands have exactly the widths
// the node documents (Check verifies it). Selects of every kind (bit, part,
// indexed part, packed multi-dimensional, struct member) are Slices with an
// lsb offset; unpacked array elements are ElemRefs with 0-based per-dimension
// indexes. Run-time semantics are 2-state: a constant's x/z bits (marked
// in Const.U, which logic.go folds exactly in four states while elab
// decides what it can) read as 0 (casez/casex wildcards become CaseLabel
// masks); out-of-range reads give 0 and
// out-of-range writes do nothing; division and modulo by zero give 0;
// shifts by the width or more give 0 (or sign bits for OpAShr). eval.go
// implements these semantics exactly (Machine is the reference interpreter
// elab uses for constant functions and initial blocks).
//
// # Statements and loops
//
// Loops whose control depends only on their own variables and constants are
// unrolled by elab when they run at most 4096 iterations (so read/write sets
// are exact); others are kept as Loop with MaxIter (1<<20): reaching it is a
// run-time error, never a hang. Compound assignments and ++/-- are
// desugared. Non-blocking assignments in comb processes are made blocking
// (with a warning).
//
// # Read and write sets
//
// Process.Reads/Writes (computed by Analyze) are exact bit and element
// ranges where indexes are constant and conservative (whole array, and the
// bits the select can reach, Dynamic set) otherwise; calls contribute the
// module state their functions touch. Reads are upward-exposed: bits the
// process wrote earlier on every path with a blocking assignment are not
// reads (`tmp = a; y = tmp;` reads a, not tmp). Bits a process does not
// write on some path keep their value (latches); that is not a read.
// Process-local homes (KindBlockLocal: variables declared in a process's
// blocks, and module variables used as for-loop indexes, which each process
// gets a private copy of) never appear: they are private to the process.
//
// # Continuous copies
//
// ShareCopies returns a design without the continuous assignments that
// only copy one storage location to another (`assign out = out_q;`, a
// register file's `assign regs[k] = q;`): one side is renamed to the other
// in every process, the removed home keeps its name but uses the other's
// storage (Design.Shares), and Design.Shared lists the removed copies for
// what a test bench may ask of them (reading, Force, Deposit). kernels.Build
// and compile run it before scheduling; lint's driver checks see the design
// as written.
//
// # Flops
//
// Summary counts flops both as homes written by sequential processes
// (FlopHomes) and as the bits those processes write (FlopBits).
package design
