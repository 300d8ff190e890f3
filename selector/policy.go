package selector

import (
	"errors"
	"fmt"
	"math"
	"time"
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
	// BlockCalls is the most consecutive calls of one candidate in a
	// measuring block, warm-up included; without BlockTime every block has
	// exactly this many. At least 1.
	BlockCalls int
	// WarmupCalls is the most calls at the start of every block that are
	// run but not recorded (exactly this many without BlockTime). At least 0
	// and below BlockCalls.
	WarmupCalls int
	// BlockTime, when positive, sizes blocks by time as well: the warm-up
	// ends once its calls took BlockTime together (after at least one
	// call), and the block once its recorded calls took BlockTime and there
	// are at least MinCalls of them, each at the latest at the call counts
	// above. 0 counts blocks in calls only. Not negative.
	BlockTime time.Duration
	// MinCalls is the fewest recorded calls a block ends with when BlockTime
	// ends it early, so that even a slow kernel's block has a median. With
	// BlockTime it must be in [1, BlockCalls−WarmupCalls], so that a block
	// whose warm-up ran in full can still reach it; without BlockTime it is
	// ignored.
	MinCalls int
	// Rounds is the number of blocks each candidate runs per measurement
	// (fewer for an abandoned candidate). At least 1.
	Rounds int
	// KeepRatio is the margin a non-reference candidate must beat: its median
	// must be below KeepRatio × the reference median. In (0, 1].
	KeepRatio float64
	// AbandonRatio, when not 0, abandons a non-reference candidate for the
	// rest of a measurement as soon as one of its blocks has a median above
	// AbandonRatio × the reference's median so far; a measurement whose
	// alternatives are all abandoned ends at once and keeps the reference.
	// 0 never abandons; otherwise above 1 and finite.
	AbandonRatio float64
	// FirstRecheck is the number of decided calls between the first decision
	// and the first re-check, and after a decision that changed the choice.
	// At least 1.
	FirstRecheck int64
	// MaxRecheck caps the doubling re-check interval. At least FirstRecheck.
	MaxRecheck int64
}

// DefaultPolicy returns the policy the simulator uses: 8 rounds of blocks of
// at most 32 calls with at most 4 warm-up calls (224 samples per candidate,
// 512 calls for two candidates when no block ends early), a 5 % margin,
// re-checks after 1024 calls doubling up to about a million calls (seconds of
// simulation for typical kernel sizes).
//
// A block lasts about 50 µs, and at least 3 recorded calls: long enough that
// the two clock reads around each call (tens of nanoseconds) and a stray
// interrupt are a small part of it, and that lane workers woken by the first
// calls are running for the rest; no longer, because every call of a losing
// candidate while measuring is time lost, and a 1 ms kernel needs no 28
// samples per block to show which candidate is faster. Three calls are the
// fewest with a median that one odd call cannot move. Kernels under about
// 1.8 µs fill all 32 calls, so small kernels keep their full sample count.
//
// A partitioned kernel that loses does so clearly — lane hand-off and
// synchronisation cost more than the kernel saves — so a block 1.3× slower
// than the reference is abandoned after one block: a re-check of a losing
// partition then costs one block of each instead of eight, which is what
// keeps frequent re-checks affordable. 1.3 is far above the block-to-block
// noise of a median and far from KeepRatio, so a candidate that could win
// (below 0.95×) is never abandoned by noise.
func DefaultPolicy() Policy {
	return Policy{
		BlockCalls:   32,
		WarmupCalls:  4,
		BlockTime:    50 * time.Microsecond,
		MinCalls:     3,
		Rounds:       8,
		KeepRatio:    0.95,
		AbandonRatio: 1.3,
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
	case p.BlockTime < 0:
		return fmt.Errorf("%w: BlockTime %v must not be negative", ErrInvalidPolicy, p.BlockTime)
	case p.BlockTime > 0 && (p.MinCalls < 1 || p.MinCalls > p.BlockCalls-p.WarmupCalls):
		// Without a floor a single slow call would make a block of one sample;
		// above the cap the floor could never be reached.
		return fmt.Errorf("%w: MinCalls %d must be in [1, BlockCalls %d − WarmupCalls %d] when BlockTime is set",
			ErrInvalidPolicy, p.MinCalls, p.BlockCalls, p.WarmupCalls)
	case p.Rounds < 1 || p.Rounds > maxBlockOrRounds:
		return fmt.Errorf("%w: Rounds %d must be in [1, %d]", ErrInvalidPolicy, p.Rounds, maxBlockOrRounds)
	case math.IsNaN(p.KeepRatio) || p.KeepRatio <= 0 || p.KeepRatio > 1:
		// A ratio above 1 would let a slower partitioned kernel win.
		return fmt.Errorf("%w: KeepRatio %v must be in (0, 1]", ErrInvalidPolicy, p.KeepRatio)
	case math.IsNaN(p.AbandonRatio) || p.AbandonRatio < 0 || p.AbandonRatio != 0 && p.AbandonRatio <= 1 || math.IsInf(p.AbandonRatio, 1):
		// At or below 1 a candidate as fast as the reference, or one that
		// would win, could be abandoned; infinity is 0 spelled obscurely.
		return fmt.Errorf("%w: AbandonRatio %v must be 0 (never abandon) or finite and above 1", ErrInvalidPolicy, p.AbandonRatio)
	case p.FirstRecheck < 1:
		return fmt.Errorf("%w: FirstRecheck %d must be at least 1", ErrInvalidPolicy, p.FirstRecheck)
	case p.MaxRecheck < p.FirstRecheck:
		return fmt.Errorf("%w: MaxRecheck %d must be at least FirstRecheck %d", ErrInvalidPolicy, p.MaxRecheck, p.FirstRecheck)
	}
	return nil
}

// maxRecorded is the most calls one block can record: all but the warm-up,
// which with BlockTime can end after its first call.
func (p *Policy) maxRecorded() int {
	if p.BlockTime > 0 {
		return p.BlockCalls - min(p.WarmupCalls, 1)
	}
	return p.BlockCalls - p.WarmupCalls
}
