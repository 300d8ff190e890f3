// Package plan owns the partitioning plan users see: what `weft plan`
// prints and what compile.Program.Plan holds. It is pure data plus two
// debugging views of it, a text printer (Fprint) and a lane-plan SVG (SVG);
// it computes nothing about a design. compile.NewPlan fills a Plan from the
// partitioner (lanes/, ffsplit/) and the state layout (statelayout/).
//
// # Contents
//
// A Plan has one Kernel per phase the partitioner considered: the
// combinational settle and, per clock or reset event, the fused kernel
// (event update followed by the settle). Each Kernel lists the candidate
// partitions with their estimates (makespan, charged cost, tasks, waits),
// names the chosen one, or none when only the sequential kernel is kept,
// says why in one line, and holds the chosen partition as per-lane task
// lists. A Task may wait for another lane to have completed a number of
// its tasks (Wait{Lane, Count}: task Count-1 of that lane has ended). The
// Segments describe the lane-segmented state layout.
//
// # Estimated times
//
// (*Kernel).Estimate fills every task's Start and End the way the lane
// pool runs them, in cost units: a task starts when the previous task of
// its lane has ended and, for every wait on another lane, the producer task
// has ended plus the plan's sync cost; it ends Cost later. A wait on the
// task's own lane is already implied by the lane order and is charged
// nothing. Estimate rejects a bad table (a wait on a lane or task that does
// not exist, a negative cost, waits that form a cycle) with an error
// instead of looping. The views print the stored Start and End; call
// Estimate first.
//
// # Views
//
// Fprint writes a plain-text report, aligned in columns and stable enough
// for golden files: a header, then per kernel its candidates (the chosen
// one marked with '*'), the reason and every lane's tasks with estimated
// start and end times and waits ("waits L1:3" means lane 1 must have
// completed 3 tasks), then the layout's segments.
//
// SVG writes a self-contained, deterministic SVG image: one band per
// partitioned kernel, one row per lane, each task a rectangle on a time
// axis in cost units (with a tooltip naming it) and each cross-task wait an
// arrow from the producer task's end to the waiting task's start. Tasks
// are coloured by lane, or, when tasks name the part of the design they
// work for (Task.Inst: the top-level child instance holding most of what
// the task writes, or MixedInst; `weft plan --svg` fills it from the
// layout), by that instance, with a legend of the colours; the lane rows
// stay labelled. Kernels that keep only their sequential version get a
// one-line note. Open it in a browser.
package plan
