// Package lanes partitions the combinational settle onto lanes: the seed's
// "Partitioning the combinational settle" (scheduler::sort_lanes). It is a
// pure algorithm over an abstract description of slt's nodes (Work, one per
// slt.Schedule.Nodes entry, with NodePred as Preds); kernels/ fills it in
// and lowers the chosen tasks. It knows nothing of SIR beyond byte ranges.
//
// # Costs
//
// Cost units are weighted SIR instructions: the caller counts 64-bit words
// per value, capped at a few dozen (wider values are arrays and memories,
// which lowering accesses element by element). Units are counted before
// optimization, so what one takes depends on the backend and the design
// (on native code from about 0.02 to 0.15 ns on a 2-core VM).
// SyncCostNative and SyncCostInterp are the fixed defaults of one
// cross-lane wait; auto-mode builds charge instead the hand-off the
// compiler measures on the machine, divided by the measured time of a
// unit (compile.CalibrateSync).
// DefaultTaskCost = 20 is charged
// per task boundary, DefaultSlack = 50 and DefaultCheapValue = 8.
// Input.Cost gives the cost of nodes lowered together through one builder
// (shared values once); an item's cost thus counts every value it reaches
// once, cheap shared values included, since its builder recomputes them,
// and Input.SingleCost counts every value once.
//
// # Atomic items (items.go)
//
// Every node starts as its own item. An Observer with exactly one producer
// joins it (the observer and the write materializing its arguments run
// together), and nodes sharing a value of cost >= CheapValue join (cheaper
// shared values are recomputed, so a common input does not serialize its
// readers). Joined work that depends on itself through other work absorbs
// that work: the strongly connected components of the graph of joined
// groups are merged, which is the fixpoint of "absorb every node on a path
// X → v → Y with X, Y in one item", so the item graph is acyclic. Items are
// numbered by their smallest node and run their nodes in ascending order.
//
// Consecutive Ordered nodes are chained: each depends on the previous one,
// everywhere (items, placement, tasks, verification).
//
// Items writing overlapping bytes of one home (Work.Writes) form a
// lane-affinity cluster (Item.Cluster): they stay separate items but run on
// one lane. An item with a Lane0 node (an event signal or system-block
// store; runtime events pin nothing, each lane having its own event
// ring), and every item of its cluster, is
// Lane0 and runs on lane 0.
//
// # Candidates (schedule.go)
//
// "items": a list scheduler takes the ready item with the longest
// cost-weighted remaining path and places it on the lane where it can start
// earliest, a dependency on another lane adding SyncCost; but it stays in
// its latest producer's lane (without producers, the lane of the previous
// item in sequential order) while that lane is at most Slack behind the
// earliest. Lane0 items go to lane 0, and an affinity cluster's items to
// the lane of its first placed item.
//
// "instances": walking the instance tree from Top, every subtree whose
// cost fits one lane's share (total/Lanes) is a cluster; otherwise the
// instance's own logic is one cluster and its children are considered.
// Clusters, merged with the affinity clusters they touch, go largest first
// to the least loaded lane; Lane0 items are preloaded on lane 0. Each lane
// then runs its items in dependency order, the lane able to start earliest
// taking its ready item with the longest remaining path, with the same
// SyncCost model.
//
// # Tasks and charging (tasks.go)
//
// Each lane's items are cut into tasks: maximal runs that need no new wait.
// An item depending on an item of another lane that the current task does
// not wait for already (directly, or through what its waits waited for, or
// through its lane's earlier tasks) starts a new task. A task another task
// waits for is closed, since lanepool waits for whole tasks: otherwise a
// wait would also cover work placed after the waiting item. Task.After
// keeps only waits no other wait implies.
//
// Tasks are timed (a wait adds SyncCost after the producer's end, a lane's
// next task starts TaskCost after its previous one) and numbered (Index) by
// a topological order of lane order and all node dependencies, Ordered
// chain included, earliest estimated start first, ties by smallest node.
// Every candidate is verified independently (every node in exactly one
// task, dependencies respected by Index and by the waits, lanes ascending,
// Lane0 and affinity); a failure is an error, never a bad plan. A candidate
// is charged Makespan + TaskCost×(tasks − lanes used) + SyncCost×waits, and
// the cheaper one is kept.
//
// # Choice
//
// The kept candidate is chosen (Plan.Chosen) only if Worth says so (its
// makespan plus one SyncCost is at most Margin × SingleCost), or
// Options.Always is set;
// otherwise Chosen is -1 and only the sequential kernel is built.
// Plan.Reason says why, with the numbers.
//
// Edge cases: empty Work gives a plan without items or candidates and
// Chosen -1 (not an error). Lanes < 1, negative options and predecessors
// that are not before their node are errors. Lanes == 1 builds both
// candidates (on lane 0) but never chooses one. The output is deterministic
// for a given input. Partition never panics on well-formed slices; Input.Cost
// is trusted.
package lanes
