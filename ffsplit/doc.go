// Package ffsplit partitions the sequential update (the evaluate/apply work
// of every fired trigger group, slt.Schedule.FF) into parts and places them
// on the lanes of a partitioned event kernel.
//
// It is a pure algorithm over an abstract description: the caller (the lead
// that builds partitioned kernels) describes each always_ff process of
// each trigger group as a Proc — its cost, the bytes it may store, the
// state it touches, whether it stores the shared system block, the instance it
// belongs to — in sequential order, together with the bytes each lane
// accesses in the partitioned comb settle and, optionally, an instance
// tree (Input.InstParent: any tree of ids, parents before children) with
// the instances whose comb logic each lane holds (Input.LaneInst, with
// costs). Split returns a Plan: which contiguous runs of each group's
// processes form a part, which parts must stay together, and on which lane
// each part runs. Lowering the parts to SIR units (an evaluate and an
// apply for the part's processes) and ordering them is the caller's work.
//
// # What the package owns
//
//   - Instance preferences: an instance's subtree prefers the lane that
//     holds a strict majority of the comb cost (Input.LaneInst) of that
//     subtree; an instance without one inherits its nearest ancestor's.
//     Processes of unknown instance (Proc.Inst -1) have none.
//   - Cutting: every group contributes parts. A group whose total cost
//     exceeds total/(Lanes×PartsPerLane) is cut into k contiguous runs of
//     its processes, k = ceil(groupCost×Lanes×PartsPerLane/total) (at most
//     one per process), with boundaries at the prefix costs nearest to
//     j×groupCost/k; a process is never split. Smaller groups are one part
//     each. So even a design that is one large module yields independent
//     work. With an instance tree, each boundary then moves to the nearest
//     place (in cost; the lower on ties) where the subtree one level below
//     the common ancestor of the group's processes changes, if one lies
//     within CutSlack × groupCost/k of the ideal prefix cost: in a group
//     holding many cores, a cut falls between two cores rather than inside
//     one. Finally every run is cut again wherever the preferred lane of
//     its processes' instances changes (processes without a preference
//     join the run they are in), so that no part mixes processes whose
//     comb logic lives on different lanes. These affinity cuts are not
//     bounded by Lanes×PartsPerLane and apply to small groups too; they
//     cost no waits, as each lane's parts run as one task.
//   - Clustering: parts whose processes may store overlapping bytes (same
//     Home, intersecting [Lo,Hi) in Proc.Writes) are joined into one
//     cluster by union-find, across groups too. A cluster is placed as a
//     unit, so no two lanes ever store the same byte during the sequential
//     update (in particular two parts of one group sharing a staging copy
//     or a sparse slot stay on one lane).
//   - Placement: clusters holding a Lane0 process (one that stores the
//     shared system block: $random's seed) go to lane 0 first. Runtime
//     events ($display, $finish) pin nothing: each lane writes its own
//     event ring. The rest are placed
//     largest first (longest processing time; ties by first part), each to
//     the first of these lanes whose load plus the cluster's cost stays
//     within Balance × total/Lanes: the preferred lane of the deepest
//     common ancestor of its processes' instances (an ancestor's when that
//     one has none of its own); the lane with the most byte affinity —
//     bytes of its processes' Accesses (merged per home) intersecting
//     LaneAccess[l]; and otherwise (or with neither) the least loaded lane,
//     the lower lane on ties. A core's registers then live on the lane
//     running the core's comb logic, or else the one whose comb settle
//     reads them most, while the loads stay within a balanced share.
//
// Split is deterministic and validates its input instead of panicking.
//
// # Why parts are independent
//
// Evaluate reads only pre-edge state: every non-blocking assignment writes
// the staging copy (or sparse slot) of its target, never the home, and
// blocking assignments act on process-local variables (module-level
// blocking writes, slt.FFGroup.Immediate, are racy by construction and are
// reported in Writes like any other store). Apply publishes staging copies
// after every evaluate, and elaboration rejects two processes writing
// overlapping bits of a home. So once parts that store overlapping bytes
// share a cluster, the evaluates of different clusters may run in any
// order or concurrently, and so may their applies.
//
// The plan is a placement, not a proof of ordering: the lead's ordering
// step still computes the happens-before waits between tasks (evaluate
// before apply, apply before the settle reading its homes, event-ring and
// other whole resources) from the final effects of the lowered SIR and the
// finished layout, so a plan that misjudged a footprint costs speed, never
// correctness.
package ffsplit
