package lanepool

import (
	"errors"
	"flag"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
	"unsafe"
)

var (
	stress     = flag.Bool("lanepool.stress", false, "run the long random-graph stress test")
	stressTime = flag.Duration("lanepool.stresstime", 2*time.Minute, "how long -lanepool.stress runs")
)

func newPool(t testing.TB, lanes int, opts ...Option) *Pool {
	t.Helper()
	p, err := New(lanes, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// runGraph builds g's kernel on p and runs it runs times in each checking mode.
func runGraph(t *testing.T, p *Pool, g *graph, runs int) {
	t.Helper()
	pr := newProbe(g)
	for _, atomicCheck := range []bool{true, false} {
		k, err := p.NewKernel(g.table(pr, atomicCheck))
		if err != nil {
			t.Fatalf("random graph rejected: %v", err)
		}
		for range runs {
			pr.stamp++
			res, err := p.Run(k, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.check(pr, res); err != nil {
				t.Fatalf("%d lanes, %d tasks, run %d: %v", g.lanes, len(g.lane), pr.stamp, err)
			}
		}
	}
}

// TestRandomGraphs runs random tables on 1 to 16 lanes, half of them with
// jitter, and checks every task saw every task it waits for, transitively.
func TestRandomGraphs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for lanes := 1; lanes <= 16; lanes++ {
		for _, jitter := range []bool{false, true} {
			var opts []Option
			// Beyond GOMAXPROCS every lane's wake-up is a hand-off between
			// threads through the Go scheduler, tens of microseconds each.
			runs := max(20, 300/lanes)
			if jitter {
				opts = append(opts, WithJitter(20*time.Microsecond, uint64(lanes)))
				runs = 10
			}
			p := newPool(t, lanes, opts...)
			for range 3 {
				runGraph(t, p, randomGraph(r, lanes, 1+r.IntN(4*lanes+4)), runs)
			}
		}
	}
}

// TestParkKinds runs random graphs with both parking mechanisms and with no
// spinning, so every wait and every start goes through parking.
func TestParkKinds(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	for _, kind := range []parkKind{parkFutex, parkChan} {
		for _, lanes := range []int{2, 3, 5} {
			p := newPool(t, lanes, withPark(kind), WithSpin(Spin{}, Spin{}))
			for range 3 {
				runGraph(t, p, randomGraph(r, lanes, 1+r.IntN(4*lanes)), 40)
			}
		}
	}
}

// TestManyDispatches is the bulk of the dispatch count: small kernels, where
// the pool's own synchronization is most of the work.
func TestManyDispatches(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	total := 0
	for _, lanes := range []int{2, 3} {
		t0 := time.Now()
		p := newPool(t, lanes)
		for range 10 {
			g := randomGraph(r, lanes, 2+r.IntN(6))
			runGraph(t, p, g, 2500)
			total += 2 * 2500
		}
		t.Logf("%d lanes: %v per dispatch", lanes, time.Since(t0)/50000)
	}
	t.Logf("%d dispatches", total)
}

func TestStress(t *testing.T) {
	if !*stress {
		t.Skip("long test: run with -lanepool.stress")
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
	deadline := time.Now().Add(*stressTime)
	n := 0
	defer func() { t.Logf("%d pools, %d dispatches", n, 2*200*n) }()
	for ; time.Now().Before(deadline); n++ {
		lanes := 1 + r.IntN(16)
		var opts []Option
		if n%2 == 1 {
			opts = append(opts, WithJitter(time.Duration(1+r.IntN(50))*time.Microsecond, r.Uint64()))
		}
		if r.IntN(4) == 0 {
			us := func(n int) time.Duration { return time.Duration(r.IntN(n)) * time.Microsecond }
			opts = append(opts, WithSpin(Spin{us(20), us(20)}, Spin{us(50), us(50)}))
		}
		if r.IntN(2) == 0 {
			opts = append(opts, withPark(parkChan))
		}
		p, err := New(lanes, opts...)
		if err != nil {
			t.Fatal(err)
		}
		g := randomGraph(r, lanes, 1+r.IntN(64))
		if r.IntN(3) == 0 {
			g.withFailures(r, 1+r.IntN(20))
		}
		runGraph(t, p, g, 200)
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRandomFailures: with random failing tasks, the lowest-indexed task that
// ran and failed is reported, no task runs after a required task failed or was
// skipped, nothing hangs, and the pool keeps working.
func TestRandomFailures(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	for lanes := 1; lanes <= 8; lanes++ {
		p := newPool(t, lanes, WithJitter(10*time.Microsecond, 9))
		for range 4 {
			g := randomGraph(r, lanes, 1+r.IntN(6*lanes))
			g.withFailures(r, 1+r.IntN(8))
			runGraph(t, p, g, 25)
		}
		g := randomGraph(r, lanes, 1+r.IntN(6*lanes))
		runGraph(t, p, g, 25)
	}
}

// TestLowestIndexWins makes the higher-indexed task fail first in wall time;
// the lower-indexed one, already running, must still be reported.
func TestLowestIndexWins(t *testing.T) {
	p := newPool(t, 2)
	started := make(chan struct{})
	highFailed := make(chan struct{})
	k, err := p.NewKernel([][]Task{
		{{Index: 1, Fn: func(unsafe.Pointer) Status {
			close(started)
			<-highFailed
			time.Sleep(2 * time.Millisecond) // let lane 1 record its failure first
			return 7
		}}},
		{{Index: 2, Fn: func(unsafe.Pointer) Status {
			<-started
			close(highFailed)
			return 9
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(k, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Status: 7, Task: 1, Lane: 0}); res != want {
		t.Fatalf("got %+v, want %+v", res, want)
	}
	var te *TaskError
	if err := res.Err(); !errors.As(err, &te) || te.Task != 1 || te.Status != 7 {
		t.Fatalf("Err() = %v", err)
	}
	expectReusable(t, p)
}

// TestSequentialFailureWins: a higher-indexed task fails at once on lane 0,
// while lane 1 is still busy before its lower-indexed failing task. The
// sequential kernel would report the lower one, so the pool must still run it
// and report it, not skip it.
func TestSequentialFailureWins(t *testing.T) {
	p := newPool(t, 2)
	ran := make([]bool, 4)
	k, err := p.NewKernel([][]Task{
		{{Index: 2, Fn: func(unsafe.Pointer) Status { ran[2] = true; return 9 }}},
		{
			{Index: 0, Fn: func(unsafe.Pointer) Status { time.Sleep(time.Millisecond); ran[0] = true; return OK }},
			{Index: 1, Fn: func(unsafe.Pointer) Status { ran[1] = true; return 5 }},
			{Index: 3, Fn: func(unsafe.Pointer) Status { ran[3] = true; return OK }},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		clear(ran)
		res, err := p.Run(k, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := (Result{Status: 5, Task: 1, Lane: 1}); res != want {
			t.Fatalf("got %+v, want %+v", res, want)
		}
		if !ran[0] || !ran[1] || ran[3] {
			t.Fatalf("ran = %v: tasks 0 and 1 must run, task 3 must be skipped", ran)
		}
	}
	expectReusable(t, p)
}

// TestSkippedTasksReleaseWaiters: lane 1 waits for lane 0's second task, which
// never runs because the first fails; Run must still return.
func TestSkippedTasksReleaseWaiters(t *testing.T) {
	p := newPool(t, 3)
	ran := make([]bool, 4)
	task := func(i int, st Status) TaskFunc {
		return func(unsafe.Pointer) Status { ran[i] = true; return st }
	}
	k, err := p.NewKernel([][]Task{
		{{Index: 0, Fn: task(0, 3)}, {Index: 1, Fn: task(1, OK)}},
		{{Index: 2, Fn: task(2, OK), Waits: []Wait{{Lane: 0, Count: 2}}}},
		{{Index: 3, Fn: task(3, OK), Waits: []Wait{{Lane: 1, Count: 1}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		clear(ran)
		res, err := p.Run(k, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res != (Result{Status: 3, Task: 0, Lane: 0}) {
			t.Fatalf("got %+v", res)
		}
		if !ran[0] || ran[1] || ran[2] || ran[3] {
			t.Fatalf("ran = %v, want only task 0", ran)
		}
	}
	expectReusable(t, p)
}

func TestPanicReachesCaller(t *testing.T) {
	p := newPool(t, 2)
	k, err := p.NewKernel([][]Task{
		{{Index: 0, Fn: func(unsafe.Pointer) Status { return OK }}},
		{{Index: 1, Fn: func(unsafe.Pointer) Status { panic("boom") }}},
	})
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			pe, ok := recover().(*PanicError)
			if !ok || pe.Task != 1 || pe.Lane != 1 || pe.Value != "boom" || len(pe.Stack) == 0 {
				t.Fatalf("recovered %#v, want a *PanicError for task 1", pe)
			}
		}()
		p.Run(k, nil)
	}()
	expectReusable(t, p)
}

// expectReusable runs a small kernel on every lane of p and expects success.
func expectReusable(t *testing.T, p *Pool) {
	t.Helper()
	lanes := make([][]Task, p.Lanes())
	ran := make([]bool, p.Lanes())
	for l := range lanes {
		lanes[l] = []Task{{Index: l, Fn: func(unsafe.Pointer) Status { ran[l] = true; return OK }}}
	}
	k, err := p.NewKernel(lanes)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := p.Run(k, nil); err != nil || !res.OK() {
		t.Fatalf("pool not reusable: %+v, %v", res, err)
	}
	for l, ok := range ran {
		if !ok {
			t.Fatalf("lane %d did not run", l)
		}
	}
}

func TestStateReachesTasks(t *testing.T) {
	p := newPool(t, 4)
	state := make([]uint64, 4)
	lanes := make([][]Task, 4)
	for l := range lanes {
		lanes[l] = []Task{{Index: l, Fn: func(s unsafe.Pointer) Status {
			(*[4]uint64)(s)[l] = uint64(l + 1)
			return OK
		}}}
	}
	k, err := p.NewKernel(lanes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(k, unsafe.Pointer(&state[0])); err != nil {
		t.Fatal(err)
	}
	for l, v := range state {
		if v != uint64(l+1) {
			t.Fatalf("state = %v", state)
		}
	}
}

func TestRunWhileRunningIsBusy(t *testing.T) {
	p := newPool(t, 2)
	var inner error
	var k *Kernel
	k, err := p.NewKernel([][]Task{
		{{Index: 0, Fn: func(unsafe.Pointer) Status { _, inner = p.Run(k, nil); return OK }}},
		{{Index: 1, Fn: func(unsafe.Pointer) Status {
			if err := p.Close(); err != ErrBusy {
				t.Errorf("Close during Run = %v, want ErrBusy", err)
			}
			return OK
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(k, nil); err != nil {
		t.Fatal(err)
	}
	if inner != ErrBusy {
		t.Fatalf("nested Run = %v, want ErrBusy", inner)
	}
}

func TestClose(t *testing.T) {
	p, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	k, err := p.NewKernel([][]Task{{{Index: 0, Fn: func(unsafe.Pointer) Status { return OK }}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	if _, err := p.Run(k, nil); err != ErrClosed {
		t.Fatalf("Run after Close = %v, want ErrClosed", err)
	}
}

func TestNewRejectsLaneCounts(t *testing.T) {
	for _, n := range []int{0, -1, MaxLanes + 1} {
		if _, err := New(n); err == nil {
			t.Errorf("New(%d) succeeded", n)
		}
	}
}

// TestEpochRestart makes progress epochs wrap every few runs, with failures,
// so words and failure records of an earlier epoch cycle are around.
func TestEpochRestart(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, lanes := range []int{2, 4} {
		p := newPool(t, lanes)
		p.epochLimit = 3
		for range 6 {
			g := randomGraph(r, lanes, 1+r.IntN(4*lanes))
			if r.IntN(2) == 0 {
				g.withFailures(r, 4)
			}
			runGraph(t, p, g, 20)
		}
	}
}

// TestLayout pins the padding the progress words rely on.
func TestLayout(t *testing.T) {
	if s := unsafe.Sizeof(line{}); s != 128 {
		t.Errorf("line is %d bytes", s)
	}
	if s := unsafe.Sizeof(spot{}); s != 128 {
		t.Errorf("spot is %d bytes", s)
	}
	if s := unsafe.Sizeof(laneState{}); s%128 != 0 {
		t.Errorf("laneState is %d bytes", s)
	}
	var p Pool
	if unsafe.Offsetof(p.failed)%128 != 0 || unsafe.Offsetof(p.state)%128 != 0 || unsafe.Offsetof(p.wg)%128 != 0 {
		t.Errorf("Pool lines at offsets %d, %d, %d", unsafe.Offsetof(p.failed), unsafe.Offsetof(p.state), unsafe.Offsetof(p.wg))
	}
}

// TestGoexitOnCaller: t.FailNow inside a task on lane 0 ends the calling
// goroutine, and leaves the pool idle and usable.
func TestGoexitOnCaller(t *testing.T) {
	p := newPool(t, 2)
	k, err := p.NewKernel([][]Task{
		{{Index: 0, Fn: func(unsafe.Pointer) Status { runtime.Goexit(); return OK }}},
		{{Index: 1, Fn: nop}},
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(k, nil)
		t.Error("Run returned after runtime.Goexit")
	}()
	<-done
	expectReusable(t, p)
}
