// Package kernels lowers an elaborated design and its comb schedule (slt)
// to SIR units over a state layout (statelayout): the sequential kernels
// every backend runs and every partitioned kernel is checked against.
//
// # Units
//
//   - Settle: every comb item in slt's sequential order. A loop node runs
//     its items, compares the bytes holding its feedback bits with their
//     values before the pass, and repeats until a pass changes nothing, at
//     most Loop.MaxIter passes; then it stores the loop index in the diag
//     word and returns sir.StatusNoSettle (Program.Error names the signals).
//   - Event: every trigger group whose trigger byte(s) are set evaluates
//     (reads pre-edge state; non-blocking targets go to staging; blocking
//     assignments to locals act at once), then every fired group applies
//     (publishes its staged bits).
//   - Fused(e) (EventKernel.Fused): the same for the groups event e fires,
//     without checking trigger bytes, followed by Settle: lowered in one
//     piece, or in a large program (Options.LargeMinInsts) assembled from
//     the optimized evaluate-and-apply unit of e and the optimized Settle
//     (see fuse.go), and a single-event design's Event then is a guarded
//     copy of the former.
//   - Tick loops (TickKernel): a clock's edges in a loop, each a copy of
//     the optimized Fused unit of the edge's event.
//   - Lane ticks (program.LaneTick, lanetick.go; with Options.Partition
//     for several lanes): a tick loop split into lanes that never touch
//     what another lane writes, so that each runs a whole batch of edges
//     alone. The comb nodes no flop, trigger or runtime event needs,
//     directly or through other comb nodes (outputs such as a checksum of
//     every core: sinks), are left out and settled after the batch. The
//     flop processes of the clock's event and the needed comb nodes that
//     share a written cache line form islands; the islands go to the lanes
//     the partitioned kernels give them, or, in order, are cut into runs
//     of about equal cost. A clock gets lane ticks when exactly one of its
//     edges fires an event, no comb logic reads it, the design has no
//     derived triggers, nothing emits runtime events, there are islands
//     for every lane, and the busiest lane's edge, with its share of a
//     batch's three hand-offs, beats the sequential one by the margin; the
//     lanes' code is checked to read and write neither the clock, $time,
//     a ring, a status word nor a sink, and, over the finished layout,
//     not to share a byte (Parallel.TickReasons says why a clock got
//     none).
//   - Initial: the initial processes, once, before the first settle.
//
// Non-blocking targets: slt's Staged bits have a staging copy (same
// encoding as the home); evaluate first copies the staged bits home →
// staging, so bits a conditional assignment leaves alone publish
// unchanged, and apply copies them back. slt's InPlace targets (read by
// nobody between the write and apply) have no staging copy: evaluate
// stores to the home. Dynamically indexed memories
// (slt Sparse) use one slot per assignment site instead of a whole copy:
// the site stores (valid, element index, value) and apply replays the
// slots in program order; a sparse memory written inside a procedural loop
// falls back to a whole staging copy.
//
// # Values
//
// Values of at most 64 bits live in one register; wider ones are word
// tuples (sir's wide idioms: carry chains, schoolbook multiply, algorithm
// D division, funnel shifts, barrel word shifts). Wide multiplies, divides
// and shifts past a few words loop in a scratch object ("$wide" for the
// sequential kernels, "$wide.laneN" for lane N's tasks, each measured unit
// its own), so code stays linear in the width. Process-local scalar
// variables live in registers for one activation (loaded at the start,
// stored back at the end); function arguments, results and locals are
// registers of the inlined call (zeroed: automatic lifetime), function
// arrays a scratch object. Functions and tasks are inlined at every call;
// a recursive function called at run time is a build error.
//
// # Status
//
// $finish/$stop/$fatal record their event and the first such status; the
// unit completes (apply and settle included) and returns it. A procedural
// loop reaching its bound returns sir.StatusLoopLimit at once (diag word =
// Program.LoopSites index). Runtime events go to the ring in program
// order; the tasks of a partitioned kernel write the ring of their lane
// (Parallel.Rings, lane 0's being the sequential kernels' ring), each
// record keyed (sir.Event.Seq) by where its process runs in the
// sequential kernel: evaluate keys in trigger-group then process order,
// settle keys from 1<<31 in node order. A merged run of processes
// (merge.go) carries its first process's key, so in a task it stops at a
// part boundary when it prints. Program.Formats describes each event site and Program.Message
// formats a record. $readmemh/$readmemb in initial processes are not
// lowered: Program.Readmems lists them for the simulator to perform after
// Layout.Init and before Initial.
//
// # Limits
//
// A build fails, with a message saying how to raise the limit, when the
// state needs more than Options.MaxStateBytes, when the units would hold
// more than Options.MaxInsts SIR instructions (checked as they are built,
// in bounded memory), or when a system task's one record could never fit
// in the event ring (Options.RingCap; a PosError naming the call).
package kernels
