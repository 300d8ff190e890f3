package lanepool

import (
	"runtime"
	"testing"
	"time"
	"unsafe"
)

// busyFor spins on the clock for d, so a task is late without sleeping (a
// sleep's wake-up adds tens of microseconds of its own).
func busyFor(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// delayedProducer is a kernel in which lane 0 waits for lane 1's only task,
// which takes *delay (set before each Run). Lane 0's own counters then tell
// how that wait (and the wait for lane 1's done marker, right after) ended;
// lane 1's hold its idle waits between Runs.
func delayedProducer(t *testing.T, p *Pool, delay *time.Duration) *Kernel {
	t.Helper()
	k, err := p.NewKernel([][]Task{
		{{Index: 1, Fn: nop, Waits: []Wait{{Lane: 1, Count: 1}}}},
		{{Index: 0, Fn: func(unsafe.Pointer) Status { busyFor(*delay); return OK }}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustRun(t *testing.T, p *Pool, k *Kernel) {
	t.Helper()
	if res, err := p.Run(k, nil); err != nil || !res.OK() {
		t.Fatal(res, err)
	}
}

// TestSpinByTime: a budget is a time, whatever a poll costs. A waiter whose
// producer is 200µs late parks with a 1µs+1µs budget, and does not with a
// 10ms one.
func TestSpinByTime(t *testing.T) {
	lane0Parks := func(p *Pool) uint64 { return p.lanes[0].rec.stats.parks.load() }
	t.Run("short", func(t *testing.T) {
		p := newPool(t, 2, WithSpin(Spin{Poll: time.Microsecond, Yield: time.Microsecond}, DefaultIdleSpin))
		var delay time.Duration
		k := delayedProducer(t, p, &delay)
		// Lane 0 misses the park only if it is off its CPU for all of
		// the delay. Its first yield may well last that long: when both
		// lanes share a CPU, the yield is what runs the producer, which
		// then has 200µs of work. No yield outlasts a time slice,
		// though, so if 200µs never catches lane 0 spinning, 20ms must.
		for i := range 13 {
			delay = 200 * time.Microsecond
			if i >= 10 {
				delay = 20 * time.Millisecond
			}
			mustRun(t, p, k)
			if lane0Parks(p) > 0 {
				t.Logf("parked waiting %v", delay)
				break
			}
		}
		if lane0Parks(p) == 0 {
			t.Errorf("lane 0 never parked with Spin{1µs, 1µs}, waiting 200µs 10 times and 20ms 3 times: %v", p.Stats())
		}
		if p.lanes[0].rec.stats.yields.load() == 0 {
			t.Errorf("lane 0 never yielded with Yield: 1µs")
		}
	})
	t.Run("long", func(t *testing.T) {
		p := newPool(t, 2, WithSpin(Spin{Poll: 10 * time.Millisecond}, Spin{Poll: 10 * time.Millisecond}))
		delay := 200 * time.Microsecond
		k := delayedProducer(t, p, &delay)
		// The worker needs a CPU within 10ms; on a loaded machine, under
		// the race detector, it may not get one every time, nor for many
		// tries in a row at a load of 15 a CPU (each try costs at most
		// 10ms of polling).
		for range 200 {
			before := lane0Parks(p)
			mustRun(t, p, k)
			if lane0Parks(p) == before {
				if p.lanes[0].rec.stats.yields.load() != 0 {
					t.Errorf("lane 0 yielded with Yield: 0")
				}
				return
			}
		}
		t.Errorf("lane 0 parked in each of 200 waits of %v with Poll: 10ms: %v", delay, p.Stats())
	})
}

// settledStats returns p's Stats once they stop changing: after a Run, each
// idle worker goes on to wait for the next one, spinning and then parking,
// and its counters are final only once it sleeps.
func settledStats(p *Pool) Stats {
	s := p.Stats()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		next := p.Stats()
		if next == s {
			break
		}
		s = next
	}
	return s
}

// checkStats checks what holds between the counters of K Runs, whatever the
// timing, once every lane is idle.
func checkStats(t *testing.T, d Stats, runs uint64, s Spin) {
	t.Helper()
	if d.Runs != runs {
		t.Errorf("Runs = %d after %d Runs", d.Runs, runs)
	}
	if d.Wakes > d.Parks {
		t.Errorf("%d wake-ups for %d parks", d.Wakes, d.Parks)
	}
	if d.Parks > d.Waits+d.Wakes {
		t.Errorf("%d parks, more than %d waits plus %d wake-ups", d.Parks, d.Waits, d.Wakes)
	}
	if s.Poll <= 0 && d.Spins != 0 {
		t.Errorf("%d spins with Poll %v", d.Spins, s.Poll)
	}
	if s.Yield <= 0 && d.Yields != 0 {
		t.Errorf("%d yields with Yield %v", d.Yields, s.Yield)
	}
	if s == (Spin{}) && d.Parks < d.Waits {
		t.Errorf("%d parks for %d waits without spinning", d.Parks, d.Waits)
	}
}

// TestStatsCounts runs a 3-lane kernel with cross-lane waits K times under
// several spin and park settings and checks the counts agree.
func TestStatsCounts(t *testing.T) {
	const K = 300
	tbl := [][]Task{
		{{Index: 0, Fn: nop}, {Index: 3, Fn: nop, Waits: []Wait{{Lane: 2, Count: 1}}}},
		{{Index: 1, Fn: nop, Waits: []Wait{{Lane: 0, Count: 1}}}},
		{{Index: 2, Fn: nop, Waits: []Wait{{Lane: 1, Count: 1}}}},
	}
	for _, c := range []struct {
		name string
		spin Spin
		kind parkKind
	}{
		{"default", DefaultWaitSpin, defaultPark},
		{"tiny", Spin{Poll: time.Microsecond, Yield: time.Microsecond}, parkFutex},
		{"futex", Spin{}, parkFutex},
		{"chan", Spin{}, parkChan},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPool(t, 3, WithSpin(c.spin, c.spin), withPark(c.kind))
			k, err := p.NewKernel(tbl)
			if err != nil {
				t.Fatal(err)
			}
			s0 := settledStats(p)
			for range K {
				mustRun(t, p, k)
			}
			// Calls that run nothing are not Runs.
			if _, err := p.Run(nil, nil); err == nil {
				t.Fatal("Run(nil) succeeded")
			}
			d := settledStats(p).Sub(s0)
			checkStats(t, d, K, c.spin)
			if c.spin == (Spin{}) && (d.Waits == 0 || d.Parks == 0 || d.Wakes == 0) {
				t.Errorf("no waits, parks or wake-ups without spinning: %+v", d)
			}
			t.Log(d)
		})
	}
}

// TestStatsFastPath: waits that find their word cost no count, and a 1-lane
// pool never waits.
func TestStatsFastPath(t *testing.T) {
	p := newPool(t, 1)
	k, err := p.NewKernel([][]Task{{{Index: 0, Fn: nop}, {Index: 1, Fn: nop}}})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		mustRun(t, p, k)
	}
	if got, want := p.Stats(), (Stats{Runs: 100}); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

func TestStatsString(t *testing.T) {
	s := Stats{Runs: 1000, Waits: 500, Spins: 812000, Yields: 10, Parks: 2, Wakes: 2}
	if got, want := s.String(), "runs=1000 waits/run=0.5 spins/run=812 yields/run=0.01 parks/run=0.002 wakes/run=0.002"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := (Stats{Waits: 3, Parks: 1}).String(), "runs=0 waits=3 spins=0 yields=0 parks=1 wakes=0"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	a := Stats{Runs: 5, Waits: 6, Spins: 7, Yields: 8, Parks: 9, Wakes: 10}
	if got, want := a.Sub(Stats{1, 2, 3, 4, 5, 6}), (Stats{4, 4, 4, 4, 4, 4}); got != want {
		t.Errorf("Sub = %+v, want %+v", got, want)
	}
	if got, want := a.Add(Stats{1, 2, 3, 4, 5, 6}), (Stats{6, 8, 10, 12, 14, 16}); got != want {
		t.Errorf("Add = %+v, want %+v", got, want)
	}
}

// TestOversubscribedChain: 8 lanes on 2 Ps, with the policy New picks for
// that, hand a value along a chain of cross-lane waits, 1000 times. The
// chain's data is written without atomics, so the race detector checks the
// hand-offs too.
func TestOversubscribedChain(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	const lanes, tasks, runs = 8, 2 * 8, 1000
	p := newPool(t, lanes)
	if p.cfg.wait != OversubscribedWaitSpin || p.cfg.done != OversubscribedWaitSpin || p.cfg.idle != (Spin{}) || p.cfg.park != parkChan {
		t.Fatalf("8 lanes on 2 Ps: wait %+v, done %+v, idle %+v, park %v", p.cfg.wait, p.cfg.done, p.cfg.idle, p.cfg.park)
	}
	data := make([]uint64, tasks)
	tbl := make([][]Task, lanes)
	for i := range tasks {
		l := i % lanes
		tk := Task{Index: i, Fn: func(unsafe.Pointer) Status {
			if i == 0 {
				data[0]++
			} else {
				data[i] = data[i-1]
			}
			return OK
		}}
		if i > 0 {
			prev := (i - 1) % lanes
			tk.Waits = []Wait{{Lane: prev, Count: len(tbl[prev])}}
		}
		tbl[l] = append(tbl[l], tk)
	}
	k, err := p.NewKernel(tbl)
	if err != nil {
		t.Fatal(err)
	}
	s0 := settledStats(p)
	for r := uint64(1); r <= runs; r++ {
		mustRun(t, p, k)
		if data[tasks-1] != r {
			t.Fatalf("run %d: the chain's end holds %d", r, data[tasks-1])
		}
	}
	d := settledStats(p).Sub(s0)
	checkStats(t, d, runs, OversubscribedWaitSpin)
	t.Log(d)
}

// TestDoneSpin: the caller of Run waits for the workers with
// DefaultDoneSpin while each lane has a P, and with WithSpin's wait budget
// when one is given: with a budget of polls only and idle workers parking
// at once, a worker 20µs behind the caller makes the caller park, never
// yield.
func TestDoneSpin(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	if p := newPool(t, 2); p.cfg.done != DefaultDoneSpin || p.cfg.wait != DefaultWaitSpin {
		t.Errorf("2 lanes on 2 Ps: done %+v, wait %+v", p.cfg.done, p.cfg.wait)
	}
	tiny := Spin{Poll: time.Microsecond}
	p := newPool(t, 2, WithSpin(tiny, Spin{}))
	if p.cfg.done != tiny {
		t.Errorf("WithSpin(%+v, Spin{}): done %+v", tiny, p.cfg.done)
	}
	slow := func(unsafe.Pointer) Status {
		for t0 := time.Now(); time.Since(t0) < 20*time.Microsecond; {
		}
		return OK
	}
	k, err := p.NewKernel([][]Task{{{Index: 0, Fn: nop}}, {{Index: 1, Fn: slow}}})
	if err != nil {
		t.Fatal(err)
	}
	s0 := settledStats(p)
	const runs = 20
	for range runs {
		mustRun(t, p, k)
	}
	d := settledStats(p).Sub(s0)
	checkStats(t, d, runs, tiny)
	if d.Yields != 0 {
		t.Errorf("%d yields with a done budget of polls only", d.Yields)
	}
}
