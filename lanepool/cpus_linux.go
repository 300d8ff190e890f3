package lanepool

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

func usableCPUs() (int, string) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil || set.Count() == 0 {
		n := runtime.NumCPU()
		return limitByCgroup(n, fmt.Sprintf("runtime.NumCPU (sched_getaffinity: %v)", err), os.ReadFile)
	}
	n := set.Count()
	return limitByCgroup(n, "sched_getaffinity allows "+cpusWord(n), os.ReadFile)
}

// AllowedCPUs lists the CPUs in the calling thread's affinity mask (which
// threads inherit, so normally the process's), in increasing order, for
// WithPinning. It returns nil if the mask cannot be read, and off Linux.
func AllowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for c := range maxPinCPU {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}

// maxPinCPU is one past the highest CPU a unix.CPUSet holds.
const maxPinCPU = len(unix.CPUSet{}) * 64

// pinThread restricts the calling thread, which the caller has locked, to
// cpu.
func pinThread(cpu int) error {
	if cpu < 0 || cpu >= maxPinCPU {
		return fmt.Errorf("CPU %d is outside 0..%d", cpu, maxPinCPU-1)
	}
	var set unix.CPUSet
	set.Set(cpu)
	return unix.SchedSetaffinity(0, &set)
}
