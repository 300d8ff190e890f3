package slt

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/elab"
	"github.com/weft-hdl/weft/hdl"
)

// elabSV parses and elaborates src (file "t.sv") and fails the test on any
// error or malformed design.
func elabSV(t testing.TB, src string) *design.Design {
	t.Helper()
	st, fs, err := hdl.ParseString("t.sv", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	diags := hdl.NewDiagnostics(fs)
	d := elab.Elaborate(st, fs, elab.Options{}, diags)
	if d == nil || diags.ErrorCount() > 0 {
		var msgs []string
		for _, dg := range diags.List {
			msgs = append(msgs, dg.Error())
		}
		t.Fatalf("elaboration failed:\n%s", strings.Join(msgs, "\n"))
	}
	for _, err := range design.Check(d) {
		t.Fatalf("check: %v", err)
	}
	return d
}

// analyzeSV elaborates src, analyzes it, and checks the schedule's
// invariants (checkSchedule).
func analyzeSV(t testing.TB, src string, opts Options) *Schedule {
	t.Helper()
	d := elabSV(t, src)
	s, err := Analyze(d, opts)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	checkSchedule(t, s)
	return s
}

// checkSchedule verifies what every schedule must satisfy, by brute force:
// split item bodies are well typed and their sets are what design.Analyze
// computes; the graph's edges are exactly the overlapping (writer, reader)
// pairs; every edge between nodes goes forward; node adjacency matches.
func checkSchedule(t testing.TB, s *Schedule) {
	t.Helper()
	// Item bodies pass design.Check.
	var procs []*design.Process
	for _, it := range s.Items {
		if it.Split == SplitNone {
			continue
		}
		procs = append(procs, &design.Process{ID: len(procs), Kind: design.ProcAlwaysComb, Name: it.Name, Body: it.Body})
		r, w := analyzeStmt(it.Body)
		if !sameBits(r, it.Reads) || !sameBits(w, it.Writes) {
			t.Errorf("%s: sets differ from design.Analyze: reads %s / %s, writes %s / %s", it.Name,
				design.AccessList(r), design.AccessList(it.Reads), design.AccessList(w), design.AccessList(it.Writes))
		}
	}
	if len(procs) > 0 {
		for _, err := range design.Check(&design.Design{Homes: s.Design.Homes, Comb: procs}) {
			t.Errorf("split item: %v", err)
		}
	}
	n := len(s.Items)
	if n > 3000 {
		return // quadratic checks below
	}
	for r := 0; r < n; r++ {
		if s.Items[r].ID != r {
			t.Fatalf("item %d has ID %d", r, s.Items[r].ID)
		}
		for w := 0; w < n; w++ {
			want := false
			if w != r {
				for _, a := range s.Items[w].Writes {
					if overlapsAny(a, s.Items[r].Reads) || (w < r && overlapsAny(a, s.Items[r].Writes)) {
						want = true
					}
				}
			}
			if got := s.Graph.HasEdge(w, r); got != want {
				t.Errorf("edge %s → %s: got %v, want %v", s.Items[w], s.Items[r], got, want)
			}
		}
		self := false
		for _, a := range s.Items[r].Writes {
			self = self || overlapsAny(a, s.Items[r].Reads)
		}
		if self != s.Graph.SelfLoop(r) {
			t.Errorf("%s: self loop %v", s.Items[r], s.Graph.SelfLoop(r))
		}
	}
	seen := make([]bool, n)
	for k, nd := range s.Nodes {
		if nd.Index != k {
			t.Fatalf("node %d has index %d", k, nd.Index)
		}
		for _, it := range nd.Items {
			if seen[it.ID] {
				t.Fatalf("%s in two nodes", it)
			}
			seen[it.ID] = true
			if s.NodeOf(it.ID) != k {
				t.Fatalf("NodeOf(%d) = %d, want %d", it.ID, s.NodeOf(it.ID), k)
			}
		}
		if (nd.Loop != nil) != (len(nd.Items) > 1 || s.Graph.SelfLoop(nd.Items[0].ID)) {
			t.Errorf("node %d: loop %v with %d items", k, nd.Loop != nil, len(nd.Items))
		}
		for _, p := range s.NodePred(k) {
			if int(p) >= k {
				t.Errorf("node %d depends on later node %d", k, p)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("item %d in no node", i)
		}
	}
	for w := 0; w < n; w++ {
		for _, r := range s.Graph.Succ(w) {
			a, b := s.NodeOf(w), s.NodeOf(int(r))
			if a > b {
				t.Errorf("edge %s → %s goes backwards (node %d → %d)", s.Items[w], s.Items[r], a, b)
			}
		}
	}
}

func homeOf(t testing.TB, d *design.Design, path string) *design.Home {
	t.Helper()
	h, ok := d.Lookup(path)
	if !ok {
		t.Fatalf("no home %s", path)
	}
	return h
}

// writer returns the item writing some bit of path (the first one).
func writer(t testing.TB, s *Schedule, path string) *Item {
	t.Helper()
	h := homeOf(t, s.Design, path)
	for _, it := range s.Items {
		for _, w := range it.Writes {
			if w.Home == h {
				return it
			}
		}
	}
	t.Fatalf("no item writes %s\n%s", path, s.Dump())
	return nil
}

// pos returns the node index of the item writing path.
func pos(t testing.TB, s *Schedule, path string) int {
	t.Helper()
	return s.NodeOf(writer(t, s, path).ID)
}

// sameBits reports whether two access lists cover the same bits (and the
// same dynamic envelopes).
func sameBits(a, b []design.Access) bool {
	type bit struct {
		h         *design.Home
		elem, bit int
		dyn       bool
	}
	set := func(list []design.Access) map[bit]bool {
		m := map[bit]bool{}
		for _, x := range list {
			for e := x.ElemLo; e <= x.ElemHi; e++ {
				for i := x.Lo; i <= x.Hi; i++ {
					m[bit{x.Home, e, i, false}] = true
				}
			}
			if x.Dynamic {
				m[bit{x.Home, x.ElemLo, x.Lo, true}] = true
			}
		}
		return m
	}
	sa, sb := set(a), set(b)
	if len(sa) != len(sb) {
		return false
	}
	for k := range sa {
		if !sb[k] {
			return false
		}
	}
	return true
}
