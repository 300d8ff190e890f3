package selector

import "time"

// Clock reads a monotonic time, as a duration since an arbitrary origin. Only
// differences between two readings are used, so the origin does not matter.
// Tests inject a fake clock to make decisions deterministic.
type Clock interface {
	Now() time.Duration
}

// ClockFunc adapts a function to Clock.
type ClockFunc func() time.Duration

// Now calls f.
func (f ClockFunc) Now() time.Duration { return f() }

// MonotonicClock returns a Clock backed by the runtime's monotonic clock, so
// wall-clock adjustments never produce negative or inflated timings.
func MonotonicClock() Clock {
	return monotonic{origin: time.Now()}
}

type monotonic struct{ origin time.Time }

func (m monotonic) Now() time.Duration { return time.Since(m.origin) }
