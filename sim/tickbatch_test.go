package sim

import (
	"testing"
	"time"

	"github.com/weft-hdl/weft/program"
)

// TestTickBatchAdapts: a tick loop's batch doubles after a full call much
// shorter than tickCallTime, halves after one much longer, stays after a
// call cut short (the count asked for, an event, $finish), and keeps
// within [the program's Batch, maxTickCallEdges].
func TestTickBatchAdapts(t *testing.T) {
	tl := &tickLoop{tk: &program.Tick{Batch: 25}, batch: 50}
	steps := []struct {
		ran     int
		elapsed time.Duration
		want    int
	}{
		{50, 10 * time.Microsecond, 100},
		{100, 20 * time.Microsecond, 200},
		{150, time.Microsecond, 200},               // cut short: no evidence
		{200, tickCallTime, 200},                   // on target
		{200, 3 * tickCallTime, 100},               // too long
		{100, 10 * time.Millisecond, 50},           // descheduled or costly edges
		{50, tickCallTime/2 + time.Nanosecond, 50}, // near enough
	}
	for i, s := range steps {
		tl.adaptBatch(&tl.batch, s.ran, s.elapsed)
		if tl.batch != s.want {
			t.Fatalf("step %d: batch %d, want %d", i, tl.batch, s.want)
		}
	}
	tl.batch = maxTickCallEdges
	tl.adaptBatch(&tl.batch, maxTickCallEdges, time.Nanosecond)
	if tl.batch != maxTickCallEdges {
		t.Errorf("batch grew past its bound: %d", tl.batch)
	}
}
