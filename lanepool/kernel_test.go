package lanepool

import (
	"strings"
	"testing"
	"unsafe"
)

func nop(unsafe.Pointer) Status { return OK }

func TestNewKernelRejects(t *testing.T) {
	p := newPool(t, 3)
	tk := func(index int, waits ...Wait) Task { return Task{Fn: nop, Index: index, Waits: waits} }
	cases := []struct {
		name  string
		lanes [][]Task
		want  string
	}{
		{"no lanes", nil, "no lanes"},
		{"more lanes than the pool", make([][]Task, 4), "kernel has 4 lanes, the pool only 3"},
		{"own lane", [][]Task{{tk(0), tk(1, Wait{0, 1})}}, "task 1 on lane 0 waits on its own lane"},
		{"lane out of range", [][]Task{{tk(0)}, {tk(1, Wait{2, 1})}}, "task 1 on lane 1 waits on lane 2, out of range [0,2)"},
		{"negative lane", [][]Task{{tk(0, Wait{-1, 1})}}, "waits on lane -1"},
		{"count beyond lane", [][]Task{{tk(0)}, {tk(1, Wait{0, 2})}}, "task 1 on lane 1 waits for 2 tasks of lane 0, which has 1"},
		{"negative count", [][]Task{{tk(0)}, {tk(1, Wait{0, -1})}}, "waits for -1 tasks"},
		{"cycle", [][]Task{{tk(0, Wait{1, 1})}, {tk(1, Wait{0, 1})}}, "waits form a cycle: task 0 on lane 0 waits for 1 tasks of lane 1, task 1 on lane 1 waits for 1 tasks of lane 0"},
		{"three-lane cycle", [][]Task{{tk(0), tk(3, Wait{2, 1})}, {tk(1, Wait{0, 2})}, {tk(2, Wait{1, 1})}}, "waits form a cycle"},
		{"later producer", [][]Task{{tk(5)}, {tk(1, Wait{0, 1})}}, "task 1 on lane 1 waits for task 5 on lane 0, which comes later"},
		{"duplicate index", [][]Task{{tk(0)}, {tk(0)}}, "task index 0 used twice"},
		{"falling index", [][]Task{{tk(2), tk(1)}}, "lane 0 runs task 2 before task 1"},
		{"negative index", [][]Task{{tk(-1)}}, "negative index"},
		{"nil func", [][]Task{{{Index: 0}}}, "has no function"},
	}
	for _, c := range cases {
		_, err := p.NewKernel(c.lanes)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestNewKernelAccepts(t *testing.T) {
	p := newPool(t, 4)
	k, err := p.NewKernel([][]Task{
		{{Fn: nop, Index: 0}, {Fn: nop, Index: 3, Waits: []Wait{{1, 1}, {1, 0}, {2, 0}}}},
		{{Fn: nop, Index: 1, Waits: []Wait{{0, 1}}}},
		nil, // an empty lane is never woken
	})
	if err != nil {
		t.Fatal(err)
	}
	if k.Lanes() != 3 || len(k.active) != 1 {
		t.Fatalf("lanes %d, active %v", k.Lanes(), k.active)
	}
	if !k.lanes[0][0].publish || k.lanes[0][1].publish || !k.lanes[1][0].publish {
		t.Fatal("publish flags do not match the waits")
	}
	for range 10 {
		if res, err := p.Run(k, nil); err != nil || !res.OK() {
			t.Fatal(res, err)
		}
	}
}

// TestRunAllocatesNothing covers the dispatcher and the workers: AllocsPerRun
// counts every goroutine's allocations.
func TestRunAllocatesNothing(t *testing.T) {
	p := newPool(t, 4)
	k, err := p.NewKernel([][]Task{
		{{Fn: nop, Index: 0}, {Fn: nop, Index: 4, Waits: []Wait{{3, 1}}}},
		{{Fn: nop, Index: 1, Waits: []Wait{{0, 1}}}},
		{{Fn: nop, Index: 2}},
		{{Fn: nop, Index: 3, Waits: []Wait{{1, 1}, {2, 1}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	fail, err := p.NewKernel([][]Task{{{Fn: func(unsafe.Pointer) Status { return 1 }, Index: 0}}, {{Fn: nop, Index: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		k    *Kernel
	}{{"ok", k}, {"failing", fail}} {
		if n := testing.AllocsPerRun(2000, func() { p.Run(c.k, nil) }); n != 0 {
			t.Errorf("%s kernel: %v allocations per Run", c.name, n)
		}
	}
}
