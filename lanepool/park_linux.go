package lanepool

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// x/sys/unix does not name the futex operations.
const (
	futexWaitOp  = 0
	futexWakeOp  = 1
	futexPrivate = 128 // the word is never shared with another process
)

const defaultPark = parkFutex

// futexSleep blocks while *addr == val. It goes through unix.Syscall so the
// runtime knows the thread is blocked and can hand its P to other goroutines.
func futexSleep(addr *atomic.Uint32, val uint32) {
	unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWaitOp|futexPrivate, uintptr(val), 0, 0, 0)
}

// futexWake wakes the single sleeper of addr. Waking never blocks, so the raw
// syscall avoids the runtime's syscall bookkeeping.
func futexWake(addr *atomic.Uint32) {
	unix.RawSyscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWakeOp|futexPrivate, 1, 0, 0, 0)
}

// osYield lets the kernel run another thread on this CPU. It does not release
// the goroutine's P; it only helps when threads outnumber CPUs.
func osYield() {
	unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
}
