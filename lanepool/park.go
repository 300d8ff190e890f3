package lanepool

import (
	"sync/atomic"
	"unsafe"
)

// parkKind selects how a lane sleeps once it has spun long enough.
type parkKind uint8

const (
	// parkFutex sleeps in the futex syscall on the lane's own word and is woken
	// by one futex wake: one thread wake-up, no trip through the Go scheduler.
	// The goroutine keeps its P while blocked in the syscall until sysmon
	// retakes it (after about 20µs, and only when other goroutines need it).
	parkFutex parkKind = iota
	// parkChan blocks on a channel. The P is released at once, but a locked
	// goroutine's wake-up needs a scheduler hand-off to its own thread, which
	// costs more (see BenchmarkParkWake).
	parkChan
)

func (k parkKind) String() string {
	if k == parkFutex {
		return "futex"
	}
	return "chan"
}

// spot is where one lane sleeps. Any number of lanes may post to it; only its
// owner waits on it. Tokens do not accumulate and wake-ups may be spurious:
// every caller re-checks its condition after wait returns.
type spot struct {
	ch chan struct{}
	// state is 0 (empty), 1 (token posted) or 2 (owner asleep in futex).
	state atomic.Uint32
	_     [128 - unsafe.Sizeof((chan struct{})(nil)) - unsafe.Sizeof(atomic.Uint32{})]byte
}

func (s *spot) wait(kind parkKind) {
	if kind == parkChan {
		<-s.ch
		return
	}
	for {
		switch s.state.Load() {
		case 1:
			if s.state.CompareAndSwap(1, 0) {
				return
			}
		case 0:
			if s.state.CompareAndSwap(0, 2) {
				futexSleep(&s.state, 2)
			}
		case 2:
			futexSleep(&s.state, 2) // spurious futex return
		}
	}
}

func (s *spot) post(kind parkKind) {
	if kind == parkChan {
		select {
		case s.ch <- struct{}{}:
		default: // a token is already pending
		}
		return
	}
	if s.state.Swap(1) == 2 {
		futexWake(&s.state)
	}
}
