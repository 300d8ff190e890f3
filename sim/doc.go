// Package sim is weft's simulator runtime: it owns the state memory of one
// simulated design, writes inputs, detects edges, runs the kernels of a
// program.Program in the order the step semantics require, and turns the
// runtime events the kernels record ($display, $write, $error, $finish, ...)
// into output and outcomes.
//
// sim depends on the program and the runtime packages (sir and its
// interpreter, ordering for waits, lanepool, selector) and on nothing of the
// compiler: a program decoded from an image runs exactly like one just
// compiled. New never changes the program; what a simulator derives from it
// (compiled code, waits recomputed from the code's store footprints, the
// lane pool's task tables) is its own, so several simulators may share one
// program.
//
// # State memory
//
// The state is one pointer-free byte buffer laid out by the program's
// Layout, mapped
// with mmap (anonymous, read-write) so that the garbage collector never scans
// or moves it and native kernels may address it directly. A Simulator has no
// finalizer: Close unmaps the memory and must be called (defer s.Close()).
// Every method of a closed Simulator returns ErrClosed (or, for the few that
// return no error, a zero value); none crashes.
//
// # Kernels and backends
//
// New compiles every unit of the program once through a Backend (Interp, the
// sir/interp reference interpreter, is the default; the native JIT plugs in
// behind the same interface). Optional interfaces say what a backend's
// kernels offer beyond Run: Footprinter (the bytes the generated code may
// store: partitioned kernels' waits are recomputed from it), ArenaBackend
// and ArenaUser (per-lane register arenas, checked to fit the room
// reserved for each lane), BufferSizer and PtrRunner; the compile package
// asserts at build time that the native kernels implement them.
//
// # Partitioned kernels
//
// A program built for several lanes carries, per kernel slot, a
// partitioned alternative (program.Parallel). PartitionAlways runs it on
// every call; PartitionAuto gives the slot a selector that times both and
// keeps the faster. In auto mode New does not wait for the alternatives:
// it compiles their task units in the background (on one goroutine fewer
// than GOMAXPROCS, at least one, so the run keeps a core) while the
// simulation starts on the sequential kernels, and the first step or Tick
// batch after the build is ready attaches them and starts the lane pool
// (Options.AttachWait makes New wait; WaitParallel waits later). The
// selector times a call through the step loop from the end of the slot's
// previous measured call, so the step loop's own work counts for both
// candidates, as it does for the sequential kernel timed in tick-loop
// batches. A background build that fails
// leaves the sequential kernels, which compute the same, and ParallelErr
// says why; Close waits for a pending build and releases it. The lane
// arenas are part of the state mapping from the start, since their size
// follows from the program alone. PoolStats is the lane pool's account
// (runs, waits, yields, parks, wake-ups) and Options.PinLanes pins its
// worker threads.
//
// A tick loop with free-running lanes (program.LaneTick) runs a whole
// batch of edges in one lane-pool call, each lane its own part of every
// edge; then the simulator does what the sequential loop does on the
// way (the clock's level, $time, the trigger's previous value) and runs
// the sequential settle once, which computes the comb logic the lanes
// leave out. The lanes are attached with the partitioned kernels, after
// checking that the compiled code's stores (Footprinter) keep them apart,
// and compete with the sequential tick loop through a selector of their
// own, in calls of 64 edges (LaneTickStats); under PartitionAlways they
// run every batch. While they are attached they, not the per-edge
// partitioned kernel, stand for the clock's slot in Tick.
//
// # A step
//
// Step (Eval is the same call) is what happens after the test bench has
// written inputs:
//
//  1. Input settle: when a home written since the last step is read by comb
//     logic, Settle runs first, so that flops see the new inputs with their
//     comb consequences (what Verilator's input-combo region does; a clock
//     gated by an input fires together with its source clock).
//  2. Edge detection: every trigger bit (program.Trigger) is compared with the
//     value seen at the previous detection (kept in the layout's previous-
//     value bytes). A change fires the events listening to that edge
//     (posedge 0→1, negedge 1→0, edge either); several clocks and
//     asynchronous resets are just more trigger bits.
//  3. When exactly one event fired, its specialised Fused kernel runs
//     (evaluate + apply of its groups, then settle) in one call. Otherwise
//     the fired events' trigger bytes are set, Event runs (every fired
//     group evaluates from pre-edge state, then every fired group applies),
//     the trigger bytes are cleared, and Settle runs.
//  4. If the kernels changed a trigger bit (a derived clock such as
//     `div <= ~div` clocking another flop, or an internal reset), detection
//     runs again, round after round, until no edge fires. Only bits the
//     design writes can change in these rounds. Options.MaxRounds bounds
//     the loop; a derived-clock oscillation is an error naming the bits.
//
// A step in which no trigger bit changed only settles (when needed). Tick
// toggles a clock input through both edges n times with the same semantics
// and almost no overhead per edge. When the program has a fused tick loop
// for the clock (program.Tick: no derived clocks, one event per
// edge) and it runs as native code, Tick hands it whole batches of edges
// while nothing but the clock is pending (no input written since the last
// settle, no other trigger changed, no shadow; where the clock's kernels
// have partitioned alternatives, while their selectors have chosen, or are
// measuring, the sequential kernel, which thus competes as the tick loop
// runs it): the loop returns to Go after a batch of about
// 100 µs, at a $finish or error, and after any edge that emitted runtime
// events, which the simulator then prints as usual. The results are those
// of the step loop, which Options.NoTick and DisableTick force.
//
// # Runtime events
//
// After every kernel call the simulator decodes the event ring
// (sir.DecodeRing) and writes the records in order to Options.Output; after
// a partitioned call, the rings of all lanes merged by each record's
// sequential key (program.MergeRecords), which is the order the sequential
// kernel writes them in:
// $display and $write formatted with the program's format table
// (program.Program.Message: %d %h %x %b %o %s %c %t %m, widths, %0d,
// signedness), $error/$warning/$info as "ERROR: file:line: message" (and
// WARNING/INFO) lines. $error continues (Errors counts them); $finish,
// $stop and $fatal end the run: the call returns a *FinishError
// (errors.Is(err, ErrFinished)) carrying the task and its code, Finished
// reports true, and every later step returns the same error. A ring that
// overflowed within one kernel call is drained and reported as a
// *RingOverflowError naming how many events were lost (each lane's ring
// has the whole capacity, so a partitioned call that overflows keeps other
// records than the sequential one would; both report the error); a comb
// loop that
// does not settle is an error naming the loop's signals. Every error is a
// *Error naming the kernel and the step.
//
// # Time zero
//
// New writes the time-zero state: Layout.InitState (zeroes, declaration
// initialisers, constant initial blocks folded by elaboration), then the
// program's $readmemh/$readmemb calls (parsed here: @addr, comments,
// underscores, x/z digits as 0; errors name file:line; only regular files
// of at most Options.MaxMemFileBytes are read, and a file with more words
// than the memory stops at the first extra one), then the Initial
// kernel, then Settle. Trigger values after that are the "previous" values
// of the first step: time-zero values do not fire edges.
//
// # Time
//
// Time is a counter the simulator stores where $time reads it. Tick
// advances it by one per clock edge; SetTime sets it (bench/ keeps its own
// time base). Steps counts evaluations (for error messages).
//
// A Simulator is not safe for concurrent use.
package sim
