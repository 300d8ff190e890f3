package design

import "fmt"

// Timescale is the time unit and precision a `timescale directive of the
// sources declares, as powers of ten of a second (-9 is 1ns, -10 is 100ps).
// weft has no delays and its test bench keeps its own time base (sim time is
// a counter the bench sets, in picoseconds), so nothing in the simulation
// depends on it; tools that write time for other tools (a VCD dump) use the
// precision.
type Timescale struct {
	Unit, Precision int
	Pos             Pos
}

func (ts Timescale) String() string {
	return fmt.Sprintf("%s/%s", TimeString(ts.Unit), TimeString(ts.Precision))
}

// TimeString spells a power of ten of a second as a time literal: -9 is
// "1ns", -8 "10ns", -13 "100fs"; exponents no `timescale can write come
// out as "1e<exp>s".
func TimeString(exp int) string {
	if exp > 2 || exp < -15 {
		return fmt.Sprintf("1e%ds", exp)
	}
	units := []string{"fs", "ps", "ns", "us", "ms", "s"}
	k := (exp + 15) / 3
	return []string{"1", "10", "100"}[exp+15-3*k] + units[k]
}
