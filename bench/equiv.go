package bench

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/onsi/gomega/types"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/sim"
)

// Equivalent builds the design of b several ways from the same source: a
// sequential program (Lanes(1)), which it returns for the bench to
// drive, and one partitioned program per lane count (Lanes(n),
// Partition(always)) attached to it with sim.Shadow. Every step the bench
// takes then runs on all of them, and the first step at which any home,
// the output text or the outcome differs fails the spec with an
// *sim.EquivalenceError naming the home, the step and both values. Each
// partitioned plan is first checked by an independent checker (no two
// tasks that may run at once touch overlapping bytes, one writing). With
// no lane counts it checks 2 and 4 lanes. Close the returned program; it
// closes the others.
//
//	p, err := bench.Equivalent(compile.NewBuilder().Files("uart.sv"), 2, 3)
//	Expect(err).NotTo(HaveOccurred())
//	DeferCleanup(p.Close)
//	tb := bench.New(p, bench.Options{})
func Equivalent(b *compile.Builder, lanes ...int) (*compile.Program, error) {
	if b == nil {
		return nil, errors.New("bench: Equivalent: nil builder")
	}
	if len(lanes) == 0 {
		lanes = []int{2, 4}
	}
	p, err := b.Clone().Lanes(1).Build()
	if err != nil {
		return nil, err
	}
	if err := shadowPartitioned(p, lanes); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// shadowPartitioned attaches a partitioned rebuild of p per lane count.
func shadowPartitioned(p *compile.Program, lanes []int) error {
	for _, n := range lanes {
		if n < 1 {
			return fmt.Errorf("bench: Equivalent: %d lanes", n)
		}
		q, err := p.Rebuild(func(b *compile.Builder) {
			b.Lanes(n).Partition(compile.PartitionAlways)
		})
		if err != nil {
			return fmt.Errorf("bench: Equivalent: building for %d lanes: %w", n, err)
		}
		// The independent plan checker: no two tasks that may run at once
		// touch the same bytes (one writing).
		if err := plancheck.CheckSimulator(q.Sim); err != nil {
			q.Close()
			return fmt.Errorf("bench: Equivalent: %d lanes: %w", n, err)
		}
		if err := p.Sim.Shadow(q.Sim); err != nil {
			q.Close()
			return fmt.Errorf("bench: Equivalent: %d lanes: %w", n, err)
		}
	}
	return nil
}

// EquivEnv is the environment variable that makes every bench built on a
// *compile.Program also check equivalence: WEFT_EQUIV=1 attaches
// partitioned rebuilds at 2 and 4 lanes (as Equivalent does), and a comma
// list such as WEFT_EQUIV=2,3,8 chooses the lane counts.
const EquivEnv = "WEFT_EQUIV"

// equivLanes parses EquivEnv: nil when unset or "0".
func equivLanes() ([]int, error) {
	v := strings.TrimSpace(os.Getenv(EquivEnv))
	switch v {
	case "", "0":
		return nil, nil
	case "1":
		return []int{2, 4}, nil
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("bench: %s=%q: want 1 or a comma list of lane counts (2..64)", EquivEnv, v)
		}
		out = append(out, n)
	}
	return out, nil
}

// MatchState succeeds when two simulators of one design (a
// *sim.Simulator or any Target, such as a *compile.Program) hold the same
// value in every home. The failure names the first differing home and
// both values:
//
//	Expect(partitioned).To(bench.MatchState(sequential))
func MatchState(ref any) types.GomegaMatcher { return &stateMatcher{ref: ref} }

type stateMatcher struct {
	ref any
	err error
}

func simOf(x any) (*sim.Simulator, error) {
	switch v := x.(type) {
	case *sim.Simulator:
		if v != nil {
			return v, nil
		}
	case Target:
		if v != nil {
			return v.DUT().Sim(), nil
		}
	}
	return nil, fmt.Errorf("MatchState expects a *sim.Simulator or a bench.Target, got %T", x)
}

func (m *stateMatcher) Match(actual any) (bool, error) {
	a, err := simOf(actual)
	if err != nil {
		return false, err
	}
	b, err := simOf(m.ref)
	if err != nil {
		return false, err
	}
	m.err = sim.Compare(a, b)
	var ee *sim.EquivalenceError
	if m.err != nil && !errors.As(m.err, &ee) {
		return false, m.err
	}
	return m.err == nil, nil
}

func (m *stateMatcher) FailureMessage(any) string {
	return fmt.Sprintf("Expected the same state in both simulators, but %v", m.err)
}

func (m *stateMatcher) NegatedFailureMessage(any) string {
	return "Expected the simulators' states to differ, but every home holds the same value"
}
