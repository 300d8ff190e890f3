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
