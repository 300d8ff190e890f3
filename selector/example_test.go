package selector_test

import (
	"fmt"
	"time"

	"github.com/weft-hdl/weft/selector"
)

// A fake clock makes the example deterministic; the simulator passes nil for
// the monotonic clock.
type ticks struct{ now time.Duration }

func (t *ticks) Now() time.Duration { return t.now }

func Example() {
	clk := &ticks{}
	s, err := selector.New(selector.DefaultPolicy(), clk, 2)
	if err != nil {
		panic(err)
	}
	kernels := []func(){
		func() { clk.now += 100 }, // sequential
		func() { clk.now += 60 },  // partitioned
	}
	for range 1000 {
		s.Run(func(cand int) { kernels[cand]() })
	}
	fmt.Println(s)
	// Output: candidate 1 of 2, decided (medians 100ns 60ns), 1 check, 0 flips, re-check in 536 of 1024 calls
}
