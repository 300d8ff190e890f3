//go:build !linux

package lanepool

import (
	"runtime"
	"sync/atomic"
)

// Without futexes every spot parks on its channel.
const defaultPark = parkChan

func futexSleep(*atomic.Uint32, uint32) { panic("lanepool: futex parking needs Linux") }
func futexWake(*atomic.Uint32)          { panic("lanepool: futex parking needs Linux") }

func osYield() { runtime.Gosched() }
