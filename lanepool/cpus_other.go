//go:build !linux

package lanepool

import "runtime"

func usableCPUs() (int, string) { return max(runtime.NumCPU(), 1), "runtime.NumCPU" }

// AllowedCPUs lists the CPUs in the calling thread's affinity mask on Linux;
// here it returns nil.
func AllowedCPUs() []int { return nil }

// pinThread does nothing: WithPinning only pins on Linux.
func pinThread(int) error { return nil }
