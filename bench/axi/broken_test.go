package axi_test

import (
	"os"
	"strings"
	"testing"
)

// TestBrokenCopies keeps the mutation copies of the traffic master honest:
// each differs from testdata/axi_traffic.sv in exactly one line, marked
// "BUG:", so the mutation specs test that bug and nothing else, and the
// copies follow changes to the good master.
func TestBrokenCopies(t *testing.T) {
	good := readLines(t, "testdata/axi_traffic.sv")
	for _, name := range []string{"testdata/axi_traffic_wrap_broken.sv", "testdata/axi_traffic_wlast_broken.sv"} {
		bad := readLines(t, name)
		if len(bad) != len(good) {
			t.Errorf("%s has %d lines, axi_traffic.sv %d: copy the good master and change one line", name, len(bad), len(good))
			continue
		}
		var diff []int
		for i := range good {
			if good[i] != bad[i] {
				diff = append(diff, i+1)
			}
		}
		if len(diff) != 1 || !strings.Contains(bad[diff[0]-1], "BUG:") {
			t.Errorf("%s differs from axi_traffic.sv on lines %v; want one line, marked BUG:", name, diff)
		}
	}
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}
