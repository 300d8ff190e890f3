package selector

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestDefaultPolicyValid(t *testing.T) {
	if err := DefaultPolicy().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestNewRejectsBadPolicy(t *testing.T) {
	for _, tc := range []struct {
		field  string
		modify func(*Policy)
	}{
		{"BlockCalls", func(p *Policy) { p.BlockCalls = 0 }},
		{"BlockCalls", func(p *Policy) { p.BlockCalls = -4 }},
		{"BlockCalls", func(p *Policy) { p.BlockCalls = 1 << 20 }},
		{"WarmupCalls", func(p *Policy) { p.WarmupCalls = -1 }},
		{"WarmupCalls", func(p *Policy) { p.WarmupCalls = p.BlockCalls }},
		{"Rounds", func(p *Policy) { p.Rounds = 0 }},
		{"Rounds", func(p *Policy) { p.Rounds = -1 }},
		{"KeepRatio", func(p *Policy) { p.KeepRatio = 0 }},
		{"KeepRatio", func(p *Policy) { p.KeepRatio = -0.5 }},
		{"KeepRatio", func(p *Policy) { p.KeepRatio = 1.01 }},
		{"KeepRatio", func(p *Policy) { p.KeepRatio = math.NaN() }},
		{"FirstRecheck", func(p *Policy) { p.FirstRecheck = 0 }},
		{"FirstRecheck", func(p *Policy) { p.FirstRecheck = -10 }},
		{"MaxRecheck", func(p *Policy) { p.MaxRecheck = p.FirstRecheck - 1 }},
		{"MaxRecheck", func(p *Policy) { p.MaxRecheck = 0 }},
		{"BlockTime", func(p *Policy) { p.BlockTime = -1 }},
		{"MinCalls", func(p *Policy) { p.MinCalls = 0 }},
		{"MinCalls", func(p *Policy) { p.MinCalls = -1 }},
		{"MinCalls", func(p *Policy) { p.MinCalls = p.BlockCalls - p.WarmupCalls + 1 }},
		{"AbandonRatio", func(p *Policy) { p.AbandonRatio = 1 }},
		{"AbandonRatio", func(p *Policy) { p.AbandonRatio = 0.5 }},
		{"AbandonRatio", func(p *Policy) { p.AbandonRatio = 1e-9 }},
		{"AbandonRatio", func(p *Policy) { p.AbandonRatio = -1.5 }},
		{"AbandonRatio", func(p *Policy) { p.AbandonRatio = math.NaN() }},
		{"AbandonRatio", func(p *Policy) { p.AbandonRatio = math.Inf(1) }},
	} {
		p := DefaultPolicy()
		tc.modify(&p)
		s, err := New(p, &fakeClock{}, 2)
		if err == nil || s != nil {
			t.Errorf("%+v: want error naming %s", p, tc.field)
			continue
		}
		if !errors.Is(err, ErrInvalidPolicy) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%+v: error %q should wrap ErrInvalidPolicy and name %s", p, err, tc.field)
		}
	}
}

func TestNewRejectsTooFewCandidates(t *testing.T) {
	for _, n := range []int{-1, 0, 1} {
		if _, err := New(DefaultPolicy(), &fakeClock{}, n); !errors.Is(err, ErrInvalidPolicy) {
			t.Errorf("n=%d: err = %v, want ErrInvalidPolicy", n, err)
		}
	}
}

func TestZeroWarmupAndMaxCapAllowed(t *testing.T) {
	p := DefaultPolicy()
	p.WarmupCalls = 0
	p.MaxRecheck = math.MaxInt64 // doubling must saturate, not overflow
	s, err := New(p, &fakeClock{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	s.wait = math.MaxInt64/2 + 1
	s.startMeasuring()
	if s.wait != math.MaxInt64 {
		t.Fatalf("wait = %d, want saturated at MaxInt64", s.wait)
	}
}

// TestTimeAndAbandonBounds: the edges of the new fields' ranges are
// accepted, and MinCalls is ignored while blocks are counted in calls.
func TestTimeAndAbandonBounds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		modify func(*Policy)
	}{
		{"MinCalls at BlockCalls−WarmupCalls", func(p *Policy) { p.MinCalls = p.BlockCalls - p.WarmupCalls }},
		{"MinCalls 1", func(p *Policy) { p.MinCalls = 1 }},
		{"AbandonRatio just above 1", func(p *Policy) { p.AbandonRatio = math.Nextafter(1, 2) }},
		{"AbandonRatio 0", func(p *Policy) { p.AbandonRatio = 0 }},
		{"no BlockTime, MinCalls 0", func(p *Policy) { p.BlockTime, p.MinCalls = 0, 0 }},
		{"no BlockTime, MinCalls out of range", func(p *Policy) { p.BlockTime, p.MinCalls = 0, 1000 }},
		{"1 ns BlockTime", func(p *Policy) { p.BlockTime = 1 }},
	} {
		p := DefaultPolicy()
		tc.modify(&p)
		if _, err := New(p, &fakeClock{}, 2); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if err := smallPolicy().Validate(); err != nil {
		t.Errorf("smallPolicy: %v", err)
	}
}
