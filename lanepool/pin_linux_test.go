package lanepool

import (
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestPinning: with WithPinning(AllowedCPUs()), each worker's thread, read
// back from inside a task on that lane, has exactly its CPU.
func TestPinning(t *testing.T) {
	cpus := AllowedCPUs()
	if len(cpus) < 2 {
		t.Skipf("affinity mask %v: pinning cannot be told from no pinning", cpus)
	}
	const lanes = 3
	p := newPool(t, lanes, WithPinning(cpus))
	if err := p.PinErr(); err != nil {
		t.Fatalf("PinErr() = %v", err)
	}
	sets := make([]unix.CPUSet, lanes)
	errs := make([]error, lanes)
	tbl := make([][]Task, lanes)
	for l := 1; l < lanes; l++ {
		tbl[l] = []Task{{Index: l, Fn: func(unsafe.Pointer) Status {
			errs[l] = unix.SchedGetaffinity(0, &sets[l])
			return OK
		}}}
	}
	k, err := p.NewKernel(tbl)
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, p, k)
	for l := 1; l < lanes; l++ {
		want := cpus[l%len(cpus)]
		if errs[l] != nil {
			t.Fatalf("lane %d: sched_getaffinity: %v", l, errs[l])
		}
		if sets[l].Count() != 1 || !sets[l].IsSet(want) {
			t.Errorf("lane %d runs on %d CPUs (CPU %d among them: %v), want only CPU %d", l, sets[l].Count(), want, sets[l].IsSet(want), want)
		}
	}
}

// TestPinningInvalidCPU: CPUs the thread cannot have are reported by PinErr,
// lane by lane, and the pool runs regardless.
func TestPinningInvalidCPU(t *testing.T) {
	const absent = 1023 // representable in a CPU set, but no such CPU here
	for _, c := range AllowedCPUs() {
		if c == absent {
			t.Skip("this machine has CPU 1023")
		}
	}
	p := newPool(t, 3, WithPinning([]int{0, 100000, absent}))
	err := p.PinErr()
	if err == nil {
		t.Fatal("PinErr() = nil after pinning to CPUs 100000 and 1023")
	}
	t.Log(err)
	for _, want := range []string{"lane 1 to CPU 100000", "lane 2 to CPU 1023"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("PinErr() = %v, want it to mention %q", err, want)
		}
	}
	for range 10 {
		expectReusable(t, p)
	}
}

// TestAllowedCPUs: the list matches the affinity mask, and UsableCPUs never
// exceeds it.
func TestAllowedCPUs(t *testing.T) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Skip(err)
	}
	cpus := AllowedCPUs()
	if len(cpus) != set.Count() {
		t.Fatalf("AllowedCPUs() = %v, mask has %d CPUs", cpus, set.Count())
	}
	for i, c := range cpus {
		if !set.IsSet(c) || i > 0 && cpus[i-1] >= c {
			t.Fatalf("AllowedCPUs() = %v", cpus)
		}
	}
	if n, why := UsableCPUs(); n < 1 || n > len(cpus) || why == "" {
		t.Errorf("UsableCPUs() = %d, %q with %d CPUs in the mask", n, why, len(cpus))
	}
}
