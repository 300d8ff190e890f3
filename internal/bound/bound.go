// Package bound is what tests measure instead of wall time: work (heap
// allocations), CPU time compared between two sizes in one run, and a
// hang guard of minutes. A loaded machine slows wall time, not these, so a
// test that uses them passes on a busy laptop as on a quiet one.
package bound

import (
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Allocs is the heap allocations f makes, in number and in bytes.
func Allocs(f func()) (count, bytes uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// CPUTime is the CPU time the process has used (user and system, GC
// workers included).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// CPUPerRun is the CPU time of one call of f: the least of three
// measures, each over enough calls to take 20 ms, so that neither the
// clock's grain nor a collection that falls into one measure decides it.
// Compare two sizes measured back to back, never a number of seconds.
func CPUPerRun(f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		n, start := 0, CPUTime()
		el := time.Duration(0)
		for el < 20*time.Millisecond {
			f()
			n++
			el = CPUTime() - start
		}
		best = min(best, el/time.Duration(n))
	}
	return best
}

// HangLimit is how long a bounded computation may run before a test calls
// it hung: minutes, far beyond what it needs on any machine, loaded or
// not, so that slowness alone never fails a test.
const HangLimit = 5 * time.Minute

// HangGuard ends the test binary with every goroutine's stack, naming t
// and what, unless stop (which it returns, and runs when t ends) is called
// within HangLimit. It guards against a hang; it does not measure speed.
func HangGuard(t testing.TB, what string) (stop func()) {
	name := t.Name()
	done := make(chan struct{})
	go func() {
		timer := time.NewTimer(HangLimit)
		defer timer.Stop()
		select {
		case <-done:
		case <-timer.C:
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			panic(fmt.Sprintf("%s: %s still running after %v: a hang?\n\n%s", name, what, HangLimit, buf))
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { close(done) }) }
	t.Cleanup(stop) // a test that fails on the way stops it too
	return stop
}
