package bench

import (
	"strconv"
)

// Time is simulated time in picoseconds. The bench starts at 0 and only
// moves forward; the simulator's $time reads the same number.
type Time int64

// Units of Time: 10*bench.NS is ten nanoseconds.
const (
	PS Time = 1
	NS      = 1000 * PS
	US      = 1000 * NS
	MS      = 1000 * US
	S       = 1000 * MS
)

// String formats t in the largest unit that keeps it at least 1 ("1.5ns",
// "20us", "0s").
func (t Time) String() string {
	if t == 0 {
		return "0s"
	}
	abs := t
	if abs < 0 {
		abs = -abs
	}
	for _, u := range [...]struct {
		d    Time
		name string
	}{{S, "s"}, {MS, "ms"}, {US, "us"}, {NS, "ns"}} {
		if abs >= u.d {
			return strconv.FormatFloat(float64(t)/float64(u.d), 'f', -1, 64) + u.name
		}
	}
	return strconv.FormatInt(int64(t), 10) + "ps"
}
