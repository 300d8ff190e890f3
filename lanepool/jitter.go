package lanepool

import (
	"runtime"
	"time"
)

// pause is the WithJitter delay: nothing, a yield, a busy wait or a sleep of up
// to the configured maximum, so lanes drift against each other in every way a
// loaded machine could make them.
func (p *Pool) pause(r *record) {
	x := r.rng.Uint64()
	d := time.Duration(x>>8) % p.cfg.jitter
	switch x % 8 {
	case 0, 1, 2:
	case 3:
		runtime.Gosched()
	case 4:
		time.Sleep(d)
	default:
		for t0 := time.Now(); time.Since(t0) < d; {
		}
	}
}
