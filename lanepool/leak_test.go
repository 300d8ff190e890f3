package lanepool

import (
	"os"
	"runtime"
	"testing"
	"time"
	"unsafe"
)

// threads counts this process's OS threads.
func threads(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip("no /proc/self/task")
	}
	return len(ents)
}

// settle polls f until it reports at most want, for up to a few seconds.
func settle(f func() int, want int) int {
	n := f()
	for deadline := time.Now().Add(5 * time.Second); n > want && time.Now().Before(deadline); n = f() {
		time.Sleep(5 * time.Millisecond)
	}
	return n
}

func TestCloseReleasesGoroutinesAndThreads(t *testing.T) {
	const lanes = 16
	baseG := runtime.NumGoroutine()
	baseT := threads(t)
	for range 3 {
		p, err := New(lanes)
		if err != nil {
			t.Fatal(err)
		}
		tbl := make([][]Task, lanes)
		for l := range tbl {
			tbl[l] = []Task{{Index: l, Fn: func(unsafe.Pointer) Status { return OK }}}
		}
		k, err := p.NewKernel(tbl)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			if _, err := p.Run(k, nil); err != nil {
				t.Fatal(err)
			}
		}
		if n := threads(t); n < lanes-1 {
			t.Fatalf("only %d threads with %d locked workers", n, lanes-1)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := settle(runtime.NumGoroutine, baseG); n > baseG {
		t.Errorf("%d goroutines after Close, %d before New", n, baseG)
	}
	// The runtime may start a few threads of its own meanwhile; 48 locked
	// threads that never exited would show far above that slack.
	if n := settle(func() int { return threads(t) }, baseT+4); n > baseT+4 {
		t.Errorf("%d threads after Close, %d before New", n, baseT)
	}
}
