package design

import (
	"fmt"

	"github.com/weft-hdl/weft/program"
)

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
// "1ns", -8 "10ns", -13 "100fs" (program.TimeString).
func TimeString(exp int) string { return program.TimeString(exp) }
