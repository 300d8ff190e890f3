// Package slt is weft's comb analysis and scheduling: it turns the comb
// processes of a design.Design into work items with bit- and byte-exact
// read and write sets, builds their dependency graph, condenses its
// strongly connected components, and gives the sequential order a settle
// runs; it also lowers trigger groups into FF evaluate/apply work and lists
// the trigger bits.
//
// # Items
//
// Every comb process (continuous and port-connection assignments,
// always_comb, always @*, always @(a or b), always_latch) is one Item, or
// several when split.go can cut it safely: independent groups of top-level
// statements, and the parts of an assignment to a concatenation
// ({a, b} = rhs). Items are numbered in design order.
//
// # Graph and order
//
// An edge W → R means W writes a bit R reads (element and bit ranges both
// intersect), so bit-disjoint false loops such as `assign a[0] = a[1];`
// are not cycles. Writers are indexed per home by interval, so building the
// graph costs O(accesses × log + edges). Strongly connected components are
// found with an iterative Tarjan (no recursion, any design size), and
// Schedule.Nodes is a topological order of the condensation with ties
// broken by design order, so the output is deterministic. A component of
// several items, or an item reading bits it writes, is a Loop node: it
// iterates to a fixpoint, at most Loop.MaxIter times, and Loop.Error names
// its signals when it does not settle. lanes/ reuses Graph, Nodes and the
// node adjacency (NodeSucc/NodePred) as they are.
//
// # Sequential logic
//
// FFGroup lists, per trigger group, the processes to evaluate (reading
// pre-edge state, non-blocking targets redirected to staging), the targets
// needing staging (Staged, or Sparse queues for dynamically indexed
// memories), those evaluate updates in place because nobody can read them
// before apply (InPlace: no other process reads those bits and the writer
// does not read them after writing; inplace.go), and what apply publishes. Trigger lists every event bit, the
// groups it fires and who writes it, so the simulator can detect derived
// clocks after a settle or an apply.
//
// Schedule.Dump prints all of it.
package slt
