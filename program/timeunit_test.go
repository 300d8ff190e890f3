package program

import "testing"

func TestParseTimeUnit(t *testing.T) {
	for text, want := range map[string]int{"1s": 0, "100s": 2, "100ms": -1, "1ns": -9, "10 ns": -8, " 100ps ": -10, "1ps": -12, "1fs": -15} {
		if got, err := ParseTimeUnit(text); err != nil || got != want {
			t.Errorf("ParseTimeUnit(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "ns", "2ns", "1 xs", "1000ps", "1e-9s"} {
		if _, err := ParseTimeUnit(bad); err == nil {
			t.Errorf("ParseTimeUnit(%q) succeeded", bad)
		}
	}
}
