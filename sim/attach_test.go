package sim_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/selector"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

// TestBackgroundAttach: in auto mode the partitioned kernels are compiled
// while the simulation runs on the sequential kernels and attached at a
// later step; the run equals a sequential one, before and after.
func TestBackgroundAttach(t *testing.T) {
	d := lanesDesigns[0]
	for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		auto, err := d.build().Backend(be).Lanes(2).SyncCost(lanes.SyncCostNative).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Fatal(err)
		}
		defer auto.Close()
		if len(auto.Program.Parallel.Kernels()) == 0 {
			t.Fatal("nothing partitioned")
		}
		if auto.Sim.Lanes() != 2 {
			t.Errorf("%v: Lanes() = %d while the partitioned kernels compile, want 2", be, auto.Sim.Lanes())
		}
		seq, err := d.build().Backend(be).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Fatal(err)
		}
		defer seq.Close()
		for _, p := range []*compile.Program{auto, seq} {
			d.setup(&bench{t: t, p: p, s: p.Sim})
		}
		for round := range 2 {
			for _, p := range []*compile.Program{auto, seq} {
				if _, err := p.Sim.Tick(p.DUT().MustSignal("clk").Home(), 2000); err != nil {
					t.Fatal(err)
				}
			}
			if err := sim.Compare(auto.Sim, seq.Sim); err != nil {
				t.Fatalf("%v, round %d: %v", be, round, err)
			}
			if round == 0 {
				if err := auto.Sim.WaitParallel(); err != nil {
					t.Fatalf("%v: %v", be, err)
				}
			}
		}
		var calls uint64
		for _, st := range auto.Sim.ParallelStats() {
			calls += st.Calls
		}
		if calls < 2000 {
			t.Errorf("%v: the attached slots saw %d calls in 2000 cycles: %v", be, calls, auto.Sim.ParallelStats())
		}
	}
}

// TestBackgroundAttachClose: closing a simulator whose partitioned kernels
// are still compiling waits for them and releases them (the race detector
// and the leak checks of the package watch this).
func TestBackgroundAttachClose(t *testing.T) {
	for range 3 {
		p, err := lanesDesigns[0].build().Backend(compile.BackendNative).Lanes(2).SyncCost(lanes.SyncCostNative).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		if err := p.Sim.WaitParallel(); err != nil {
			t.Fatalf("WaitParallel after Close: %v", err)
		}
	}
}

// failTasks compiles sequential units and fails every task unit (the
// units compiled at a lane's arena).
type failTasks struct{ sim.Interp }

var errInjected = errors.New("injected task compile failure")

func (failTasks) CompileAt(*sir.Unit, sir.Layout, int) (sim.Kernel, error) { return nil, errInjected }

// TestBackgroundAttachFailure: a background build that fails leaves the
// sequential kernels running and says why; the same failure is New's error
// when the partitioned kernels are compiled first.
func TestBackgroundAttachFailure(t *testing.T) {
	d := lanesDesigns[0]
	auto, err := d.build().Lanes(2).SyncCost(lanes.SyncCostNative).SimOptions(sim.Options{Backend: failTasks{}}).Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer auto.Close()
	seq, err := d.build().Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	for _, p := range []*compile.Program{auto, seq} {
		d.setup(&bench{t: t, p: p, s: p.Sim})
	}
	if err := auto.Sim.WaitParallel(); !errors.Is(err, errInjected) {
		t.Fatalf("WaitParallel = %v, want the injected failure", err)
	}
	if !errors.Is(auto.Sim.ParallelErr(), errInjected) || len(auto.Sim.ParallelStats()) != 0 || auto.Sim.Lanes() != 1 {
		t.Fatalf("after a failed build: ParallelErr %v, stats %v, %d lanes", auto.Sim.ParallelErr(), auto.Sim.ParallelStats(), auto.Sim.Lanes())
	}
	for _, p := range []*compile.Program{auto, seq} {
		if _, err := p.Sim.Tick(p.DUT().MustSignal("clk").Home(), 500); err != nil {
			t.Fatal(err)
		}
	}
	if err := sim.Compare(auto.Sim, seq.Sim); err != nil {
		t.Fatal(err)
	}
	_, err = d.build().Lanes(2).Partition(compile.PartitionAlways).SimOptions(sim.Options{Backend: failTasks{}}).Output(&bytes.Buffer{}).Build()
	if err == nil || !strings.Contains(err.Error(), errInjected.Error()) {
		t.Fatalf("always mode: Build error %v, want the injected failure", err)
	}
}

// gateTasks compiles task units only once gate is closed.
type gateTasks struct {
	sim.Interp
	gate chan struct{}
}

func (g gateTasks) CompileAt(u *sir.Unit, l sir.Layout, _ int) (sim.Kernel, error) {
	<-g.gate
	return g.Compile(u, l)
}

// TestBackgroundAttachDoesNotWait: New returns and the design runs while
// the task units cannot compile; they attach once they can.
func TestBackgroundAttachDoesNotWait(t *testing.T) {
	d := lanesDesigns[0]
	gate := make(chan struct{})
	auto, err := d.build().Lanes(2).SyncCost(lanes.SyncCostNative).SimOptions(sim.Options{Backend: gateTasks{gate: gate}}).Output(&bytes.Buffer{}).Build()
	if err != nil {
		close(gate)
		t.Fatal(err)
	}
	defer auto.Close()
	d.setup(&bench{t: t, p: auto, s: auto.Sim})
	if _, err := auto.Sim.Tick(auto.DUT().MustSignal("clk").Home(), 100); err != nil {
		t.Fatal(err)
	}
	if st := auto.Sim.ParallelStats(); len(st) != 0 {
		t.Fatalf("partitioned kernels attached before they could compile: %v", st)
	}
	close(gate)
	if err := auto.Sim.WaitParallel(); err != nil {
		t.Fatal(err)
	}
	if _, err := auto.Sim.Tick(auto.DUT().MustSignal("clk").Home(), 100); err != nil {
		t.Fatal(err)
	}
	var calls uint64
	for _, st := range auto.Sim.ParallelStats() {
		calls += st.Calls
	}
	if calls < 100 {
		t.Fatalf("after WaitParallel, 100 cycles made %d calls of attached slots: %v", calls, auto.Sim.ParallelStats())
	}
}

// TestSelectorTimesWholeSteps: a measured call through the step loop
// counts from the end of the slot's previous measured call, so the step
// loop's own work is part of the candidate's time as it is for the
// sequential kernel timed in tick-loop batches. The clock advances 75 ns
// per reading: a call alone would measure 75 ns, a whole step 150 ns.
func TestSelectorTimesWholeSteps(t *testing.T) {
	pol := selector.Policy{BlockCalls: 8, WarmupCalls: 2, Rounds: 2, KeepRatio: 0.95, FirstRecheck: 100, MaxRecheck: 400}
	d := lanesDesigns[0]
	p, err := d.build().Lanes(2).SyncCost(lanes.SyncCostNative).
		SimOptions(sim.Options{SelectorPolicy: &pol, AttachWait: true, NoTick: true}).Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d.setup(&bench{t: t, p: p, s: p.Sim})
	now := time.Unix(0, 0)
	sim.SetClock(p.Sim, func() time.Time { now = now.Add(75); return now })
	if _, err := p.Sim.Tick(p.DUT().MustSignal("clk").Home(), 40); err != nil {
		t.Fatal(err)
	}
	for _, st := range p.Sim.ParallelStats() {
		if st.Kernel != "fused posedge cores.clk" {
			continue
		}
		if len(st.Medians) != 2 || st.Medians[0] != 150 || st.Medians[1] != 150 {
			t.Fatalf("medians %v, want 150ns for both candidates: %s", st.Medians, st.Selector)
		}
		return
	}
	t.Fatalf("no posedge slot: %v", p.Sim.ParallelStats())
}
