package lanepool

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

func benchPool(b *testing.B, lanes int, opts ...Option) *Pool {
	b.Helper()
	p, err := New(lanes, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

func benchKernel(b *testing.B, p *Pool, lanes [][]Task) *Kernel {
	b.Helper()
	k, err := p.NewKernel(lanes)
	if err != nil {
		b.Fatal(err)
	}
	return k
}

// runN runs k in the benchmark loop and reports the pool's Stats per Run.
func runN(b *testing.B, p *Pool, k *Kernel, state unsafe.Pointer) {
	s0 := p.Stats()
	for b.Loop() {
		if res, err := p.Run(k, state); err != nil || !res.OK() {
			b.Fatal(res, err)
		}
	}
	reportStats(b, p.Stats().Sub(s0))
}

// reportStats reports s per benchmark op.
func reportStats(b *testing.B, s Stats) {
	n := float64(b.N)
	b.ReportMetric(float64(s.Waits)/n, "waits/op")
	b.ReportMetric(float64(s.Spins)/n, "spins/op")
	b.ReportMetric(float64(s.Yields)/n, "yields/op")
	b.ReportMetric(float64(s.Parks)/n, "parks/op")
	b.ReportMetric(float64(s.Wakes)/n, "wakes/op")
}

func emptyKernel(b *testing.B, p *Pool, lanes int) *Kernel {
	tbl := make([][]Task, lanes)
	for l := range tbl {
		tbl[l] = []Task{{Fn: nop, Index: l}}
	}
	return benchKernel(b, p, tbl)
}

// BenchmarkDispatchEmpty2Lanes is the pool's fixed cost per Run: start one
// worker, run a no-op on each lane, wait for the worker's done marker.
func BenchmarkDispatchEmpty2Lanes(b *testing.B) {
	p := benchPool(b, 2)
	runN(b, p, emptyKernel(b, p, 2), nil)
}

// BenchmarkCrossLaneWait is a ping-pong chain: each task waits for the
// previous one, which ran on the other lane. ns/wait is the latency of one
// cross-lane hand-off (publish, the waiter's poll seeing it, a task call).
func BenchmarkCrossLaneWait(b *testing.B) {
	const rounds = 256
	p := benchPool(b, 2)
	tbl := make([][]Task, 2)
	for i := range 2 * rounds {
		l, c := i%2, i/2
		t := Task{Fn: nop, Index: i}
		if i > 0 {
			t.Waits = []Wait{{Lane: 1 - l, Count: c + l}}
		}
		tbl[l] = append(tbl[l], t)
	}
	k := benchKernel(b, p, tbl)
	runN(b, p, k, nil)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(2*rounds-1), "ns/wait")
}

// spinsPerMicro calibrates busy: loop iterations per microsecond (the best
// of a few tries, since a loaded machine only ever makes a try slower).
var spinsPerMicro = sync.OnceValue(func() float64 {
	const n = 1 << 20
	best := time.Duration(1 << 62)
	for range 5 {
		t0 := time.Now()
		busy(n)
		best = min(best, time.Since(t0))
	}
	return n / (float64(best) / float64(time.Microsecond))
})

var sink atomic.Uint64

// busy spins n iterations of dependent arithmetic the compiler cannot remove.
func busy(n int) {
	x := uint64(n)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink.Store(x)
}

// BenchmarkBalanced runs a 2-lane kernel with the same busy work on both
// lanes, and reports its speedup over calling the same two tasks one after the
// other on the benchmark goroutine. Each iteration times both, so a change in
// machine load affects both sides alike; ns/op covers both.
func BenchmarkBalanced(b *testing.B) {
	for _, work := range []time.Duration{200 * time.Nanosecond, time.Microsecond, 5 * time.Microsecond, 25 * time.Microsecond} {
		b.Run(fmt.Sprintf("work=%v", work), func(b *testing.B) {
			n := int(spinsPerMicro() * float64(work) / float64(time.Microsecond))
			fn := func(unsafe.Pointer) Status { busy(n); return OK }
			p := benchPool(b, 2)
			k := benchKernel(b, p, [][]Task{{{Fn: fn, Index: 0}}, {{Fn: fn, Index: 1}}})
			var seq, par time.Duration
			s0 := p.Stats()
			for b.Loop() {
				t0 := time.Now()
				fn(nil)
				fn(nil)
				t1 := time.Now()
				p.Run(k, nil)
				seq += t1.Sub(t0)
				par += time.Since(t1)
			}
			b.ReportMetric(float64(seq)/float64(par), "x-speedup")
			b.ReportMetric(float64(par.Nanoseconds())/float64(b.N), "ns/run")
			reportStats(b, p.Stats().Sub(s0))
		})
	}
}

// BenchmarkPingPong is the floor for the dispatch benchmarks: one round trip
// of a cache line between the benchmark goroutine and a goroutine locked to
// its thread, both spinning as the pool does (DefaultWaitSpin's polls and
// yields, over and over, never parking), with no pool involved. A 2-lane
// dispatch needs one such round trip; on a loaded machine both are mostly OS
// scheduling latency.
func BenchmarkPingPong(b *testing.B) {
	var ping, pong line
	wait := func(ln *line, want uint64, st *laneStats) {
		for ln.v.Load() < want && !spin(ln, want, DefaultWaitSpin, st) {
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		var st laneStats
		for i := uint64(1); ; i++ {
			wait(&ping, i, &st)
			if ping.v.Load() == stopRun {
				return
			}
			pong.v.Store(i)
		}
	}()
	var st laneStats
	var i uint64
	for b.Loop() {
		i++
		ping.v.Store(i)
		wait(&pong, i, &st)
	}
	ping.v.Store(stopRun)
	<-done
	b.ReportMetric(float64(st.yields.load())/float64(b.N), "yields/op")
}

// BenchmarkDispatchBusyCore is BenchmarkDispatchEmpty2Lanes while another
// goroutine burns a core: with 2 cores the worker's P and thread compete with
// it, so the worker parks and must be woken and rescheduled.
func BenchmarkDispatchBusyCore(b *testing.B) {
	for _, kind := range []parkKind{parkFutex, parkChan} {
		b.Run(kind.String(), func(b *testing.B) {
			var stop atomic.Bool
			done := make(chan struct{})
			go func() {
				for !stop.Load() {
					busy(1000)
				}
				close(done)
			}()
			p := benchPool(b, 2, withPark(kind))
			runN(b, p, emptyKernel(b, p, 2), nil)
			stop.Store(true)
			<-done
		})
	}
}

// BenchmarkParkWake forces every hand-off through parking (no spinning): the
// cost of waking a parked worker and of the caller being woken by it.
func BenchmarkParkWake(b *testing.B) {
	for _, kind := range []parkKind{parkFutex, parkChan} {
		b.Run(kind.String(), func(b *testing.B) {
			p := benchPool(b, 2, withPark(kind), WithSpin(Spin{}, Spin{}))
			runN(b, p, emptyKernel(b, p, 2), nil)
		})
	}
}

// BenchmarkDispatchEmpty is the fixed cost at every lane count, including
// more lanes than cores.
func BenchmarkDispatchEmpty(b *testing.B) {
	for _, lanes := range []int{1, 2, 4, 8, 16} {
		b.Run(fmt.Sprintf("lanes=%d", lanes), func(b *testing.B) {
			p := benchPool(b, lanes)
			runN(b, p, emptyKernel(b, p, lanes), nil)
		})
	}
}
