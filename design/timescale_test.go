package design

import "testing"

func TestTimeString(t *testing.T) {
	for exp, want := range map[int]string{0: "1s", 1: "10s", 2: "100s", -1: "100ms", -3: "1ms", -6: "1us", -9: "1ns", -8: "10ns", -10: "100ps", -12: "1ps", -14: "10fs", -15: "1fs", -16: "1e-16s", 3: "1e3s"} {
		if got := TimeString(exp); got != want {
			t.Errorf("TimeString(%d) = %q, want %q", exp, got, want)
		}
	}
	if got := (Timescale{Unit: -9, Precision: -12}).String(); got != "1ns/1ps" {
		t.Errorf("Timescale.String() = %q, want 1ns/1ps", got)
	}
}
