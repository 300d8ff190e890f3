package selector

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalidPolicy is wrapped by every error New returns for a bad Policy or
// candidate count, so callers can tell configuration mistakes apart.
var ErrInvalidPolicy = errors.New("selector: invalid policy")

// maxBlockOrRounds bounds BlockCalls and Rounds so the per-candidate sample
// buffer, allocated once in New, stays a sane size and sizes cannot overflow.
const maxBlockOrRounds = 1 << 16

// Policy holds the constants of measuring and deciding. Call counts are
// counted per selector, i.e. per kernel slot.
type Policy struct {
	// BlockCalls is the number of consecutive calls of one candidate in a
	// measuring block, warm-up included. At least 1.
	BlockCalls int
	// WarmupCalls is the number of calls at the start of every block that are
	// run but not recorded. At least 0 and below BlockCalls.
	WarmupCalls int
	// Rounds is the number of blocks each candidate runs per measurement.
	// At least 1.
	Rounds int
	// KeepRatio is the margin a non-reference candidate must beat: its median
	// must be below KeepRatio × the reference median. In (0, 1].
	KeepRatio float64
	// FirstRecheck is the number of decided calls between the first decision
	// and the first re-check. At least 1.
	FirstRecheck int64
	// MaxRecheck caps the doubling re-check interval. At least FirstRecheck.
	MaxRecheck int64
}

// DefaultPolicy returns the policy the simulator uses: 8 rounds of 32-call
// blocks with 4 warm-up calls (224 samples per candidate, 512 calls for two
// candidates), a 5 % margin, re-checks after 1024 calls doubling up to about
// a million calls (seconds of simulation for typical kernel sizes).
func DefaultPolicy() Policy {
	return Policy{
		BlockCalls:   32,
		WarmupCalls:  4,
		Rounds:       8,
		KeepRatio:    0.95,
		FirstRecheck: 1024,
		MaxRecheck:   1 << 20,
	}
}

// Validate reports the first field that makes p unusable.
func (p Policy) Validate() error {
	switch {
	case p.BlockCalls < 1 || p.BlockCalls > maxBlockOrRounds:
		return fmt.Errorf("%w: BlockCalls %d must be in [1, %d]", ErrInvalidPolicy, p.BlockCalls, maxBlockOrRounds)
	case p.WarmupCalls < 0 || p.WarmupCalls >= p.BlockCalls:
		// At least one call per block must be recorded, or there is no median.
		return fmt.Errorf("%w: WarmupCalls %d must be in [0, BlockCalls %d)", ErrInvalidPolicy, p.WarmupCalls, p.BlockCalls)
	case p.Rounds < 1 || p.Rounds > maxBlockOrRounds:
		return fmt.Errorf("%w: Rounds %d must be in [1, %d]", ErrInvalidPolicy, p.Rounds, maxBlockOrRounds)
	case math.IsNaN(p.KeepRatio) || p.KeepRatio <= 0 || p.KeepRatio > 1:
		// A ratio above 1 would let a slower partitioned kernel win.
		return fmt.Errorf("%w: KeepRatio %v must be in (0, 1]", ErrInvalidPolicy, p.KeepRatio)
	case p.FirstRecheck < 1:
		return fmt.Errorf("%w: FirstRecheck %d must be at least 1", ErrInvalidPolicy, p.FirstRecheck)
	case p.MaxRecheck < p.FirstRecheck:
		return fmt.Errorf("%w: MaxRecheck %d must be at least FirstRecheck %d", ErrInvalidPolicy, p.MaxRecheck, p.FirstRecheck)
	}
	return nil
}
