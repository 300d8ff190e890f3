// Package ordering computes the happens-before of a partitioned kernel: the
// waits of a lane task table.
//
// The package owns one decision: which (lane, completed task count) waits
// make a partitioned kernel equal to its sequential kernel. It computes them
// from the FINAL units' effects over the FINISHED layout — after optimization,
// identity aliasing and state layout, so aliased objects compare by storage —
// and from nothing else. Partitioning (which unit goes to which lane) belongs
// to the partitioner; running the table belongs to lanepool, whose Wait has
// the same fields as Wait.
//
// # Effects
//
// FromUnits reports what a task may touch, in absolute state bytes:
//
//   - Reads and Writes are exact byte ranges (sir.Effects): a bit field covers
//     the bytes holding it, a dynamically indexed access covers its whole
//     object, and a runtime-event ring is read and written as a whole
//     resource by every task that emits an event (each lane has its own
//     ring: the layout a lane's tasks are ordered against places it).
//   - Footprint is every byte the code generator may store, for write/write
//     ordering: a static store is written in parts of at most 8 bytes and the
//     last part is rounded up to 1, 2, 4 or 8 bytes (StoreFootprint); a bit
//     field store covers the bytes holding the field, rounded the same way; a
//     dynamically addressed store covers its whole object and DynamicSlack
//     bytes past it. Footprint always includes Writes.
//
// # Waits
//
// Two tasks on different lanes conflict when the earlier one's Writes meet
// the later one's Reads, its Reads meet the later one's Writes, or their
// Footprints meet. Waits makes every task wait (directly, through lane order
// or transitively) for every earlier conflicting task on another lane, and
// records only non-redundant waits: a wait (L, c) implies everything task c-1
// of lane L and its lane predecessors waited for. Vector clocks — per task,
// the number of tasks of every lane known complete when it ends — decide
// redundancy in O(lanes) per wait.
//
// A backend that rewrites a task before instruction selection (coalescing
// stores, redirecting staged writes) changes the bytes it may store; it
// reports the footprint of the code it really generated through Recompute,
// which recomputes the waits of the fixed task list.
package ordering
