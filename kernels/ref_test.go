package kernels

import (
	"math/big"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/slt"
)

// refSim is an independent reference: design.Machine (the semantics
// elaboration uses for constant evaluation) running the design as
// elaborated (before design.ShareCopies) and stepped the same way as the
// driver — settle in slt's order, evaluate every fired process on a copy
// of the pre-edge state, then apply what each copy changed.
type refSim struct {
	t testing.TB
	d *design.Design
	s *slt.Schedule
	m *design.Machine
	// events are the trigger events: their edge, trigger index and the
	// indexes of the groups (in s.FF) they fire.
	events []refEvent
	out    strings.Builder
	prev   []byte
	done   bool
}

func newMachine() *design.Machine {
	m := design.NewMachine()
	m.MaxSteps = 1 << 62
	return m
}

type refEvent struct {
	edge    design.Edge
	trigger int
	groups  []int
}

// newRefSim makes the reference for d, the design as elaborated (what p
// was built from).
func newRefSim(t testing.TB, d *design.Design) *refSim {
	s, err := slt.Analyze(d, slt.Options{})
	if err != nil {
		t.Fatalf("ref: %v", err)
	}
	r := &refSim{t: t, d: d, s: s, m: newMachine()}
	for ti, tr := range s.Triggers {
		byEdge := map[design.Edge]int{}
		for _, u := range tr.Uses {
			i, ok := byEdge[u.Edge]
			if !ok {
				i = len(r.events)
				byEdge[u.Edge] = i
				r.events = append(r.events, refEvent{edge: u.Edge, trigger: ti})
			}
			r.events[i].groups = append(r.events[i].groups, u.Group)
		}
	}
	for _, h := range d.Homes {
		for e := 0; e < h.Elems(); e++ {
			r.m.Set(h, e, h.Init.Elem(e))
		}
	}
	r.m.SysTask = r.sysTask
	for _, ip := range d.Initial {
		if err := r.m.Run(ip.Body); err != nil {
			t.Fatalf("ref initial: %v", err)
		}
	}
	r.settle()
	r.prev = make([]byte, len(s.Triggers))
	for i, tr := range s.Triggers {
		r.prev[i] = r.bit(tr.Home, tr.Elem, tr.Bit)
	}
	return r
}

func (r *refSim) sysTask(s *design.SysTask) error {
	switch s.Kind {
	case design.TaskReadmemh, design.TaskReadmemb:
		return nil
	}
	var args []sir.Value
	for _, a := range s.Args {
		v, err := r.m.Eval(a)
		if err != nil {
			return err
		}
		t := a.Type()
		val := sir.Value{Width: t.Width, Signed: t.Signed}
		for i := 0; i < nwords(t.Width); i++ {
			val.Words = append(val.Words, new(big.Int).Rsh(v, uint(64*i)).Uint64())
		}
		args = append(args, val)
	}
	switch s.Kind {
	case design.TaskFinish, design.TaskStop, design.TaskFatal:
		r.done = true
		if s.Kind != design.TaskFatal {
			return nil
		}
	}
	r.out.WriteString(program.FormatArgs(s.Format, s.HasFormat, "", args))
	if s.Kind != design.TaskWrite {
		r.out.WriteByte('\n')
	}
	return nil
}

func (r *refSim) get(h *design.Home, e int) *big.Int {
	v, err := r.m.Get(h, e)
	if err != nil {
		r.t.Fatalf("ref get %s: %v", h.Path, err)
	}
	return v
}

func (r *refSim) bit(h *design.Home, elem, bit int) byte {
	return byte(r.get(h, elem).Bit(bit))
}

func (r *refSim) set(name string, v *big.Int) {
	h, ok := r.d.Lookup(name)
	if !ok {
		r.t.Fatalf("no signal %q", name)
	}
	r.m.Set(h, 0, design.Mask(v, h.Width))
}

func (r *refSim) settle() {
	for _, n := range r.s.Nodes {
		if n.Loop == nil {
			if err := r.m.Run(n.Items[0].Body); err != nil {
				r.t.Fatalf("ref settle: %v", err)
			}
			continue
		}
		for pass := 0; ; pass++ {
			if pass == n.Loop.MaxIter {
				r.t.Fatalf("ref: loop did not settle")
			}
			before := r.snapshot(n.Loop.Homes)
			for _, it := range n.Items {
				if err := r.m.Run(it.Body); err != nil {
					r.t.Fatalf("ref settle: %v", err)
				}
			}
			if r.same(n.Loop.Homes, before) {
				break
			}
		}
	}
}

func (r *refSim) snapshot(hs []*design.Home) [][]*big.Int {
	out := make([][]*big.Int, len(hs))
	for i, h := range hs {
		for e := 0; e < h.Elems(); e++ {
			out[i] = append(out[i], r.get(h, e))
		}
	}
	return out
}

func (r *refSim) same(hs []*design.Home, s [][]*big.Int) bool {
	for i, h := range hs {
		for e := 0; e < h.Elems(); e++ {
			if r.get(h, e).Cmp(s[i][e]) != 0 {
				return false
			}
		}
	}
	return true
}

// clone copies the machine's store (values are immutable).
func (r *refSim) clone() *design.Machine {
	m := newMachine()
	m.SysTask = r.sysTask
	for _, h := range r.d.Homes {
		for e := 0; e < h.Elems(); e++ {
			m.Set(h, e, r.get(h, e))
		}
	}
	return m
}

func (r *refSim) step() {
	settled := false
	for round := 0; round < 100; round++ {
		fired := map[int]bool{}
		any := false
		for _, ev := range r.events {
			tr := r.s.Triggers[ev.trigger]
			cur := r.bit(tr.Home, tr.Elem, tr.Bit)
			old := r.prev[ev.trigger]
			if cur != old && (ev.edge == design.AnyEdge || (ev.edge == design.Posedge) == (cur == 1)) {
				for _, g := range ev.groups {
					fired[g] = true
				}
				any = true
			}
		}
		for i, tr := range r.s.Triggers {
			r.prev[i] = r.bit(tr.Home, tr.Elem, tr.Bit)
		}
		if !any {
			if settled {
				return
			}
			r.settle()
			settled = true
			continue
		}
		// A change is the bits a process flipped: processes own disjoint
		// bits, and two of them may write halves of one element.
		type change struct {
			h       *design.Home
			e       int
			mask, v *big.Int
		}
		var changes []change
		main := r.m
		for gi := range r.s.FF {
			if !fired[gi] {
				continue
			}
			for _, fp := range r.s.FF[gi].Evaluate {
				c := r.clone()
				r.m = c
				if err := c.Run(fp.Proc.Body); err != nil {
					r.t.Fatalf("ref evaluate: %v", err)
				}
				r.m = main
				for _, h := range r.d.Homes {
					for e := 0; e < h.Elems(); e++ {
						nv, _ := c.Get(h, e)
						if old := r.get(h, e); nv.Cmp(old) != 0 {
							changes = append(changes, change{h, e, new(big.Int).Xor(nv, old), nv})
						}
					}
				}
			}
		}
		for _, ch := range changes {
			cur := r.get(ch.h, ch.e)
			keep := new(big.Int).AndNot(cur, ch.mask)
			r.m.Set(ch.h, ch.e, keep.Or(keep, new(big.Int).And(ch.v, ch.mask)))
		}
		r.settle()
		settled = true
	}
	r.t.Fatalf("ref: trigger bits keep changing")
}

// compareState checks every element of every home of the driver against
// the reference (homes without storage of their own read where they share
// it).
func compareState(t testing.TB, d *driver, r *refSim, when string) bool {
	t.Helper()
	bad := 0
	for _, h := range r.d.Homes {
		for e := 0; e < h.Elems(); e++ {
			got := d.lay.Get(d.state, h, e)
			want := r.get(h, e)
			if got.Cmp(want) != 0 {
				if bad < 10 {
					t.Errorf("%s: %s[%d] = %#x, reference %#x", when, h.Path, e, got, want)
				}
				bad++
			}
		}
	}
	return bad == 0
}
