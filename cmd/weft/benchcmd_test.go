package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestBench(t *testing.T) {
	f := writeSV(t, planCores)
	code, out, errs := weft("bench", f, "--cycles", "300", "--runs", "3", "--lanes", "1,2", "--partition", "always", "--backend", "interp")
	if code != 0 {
		t.Fatalf("exit %d stderr:\n%s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// The table, then what the 2-lane row measured: per partitioned
	// kernel, the lane pool's account and the sync cost.
	details := regexp.MustCompile(`(?m)^# lanes=2: kernel fused posedge top\.clk: estimated [\d.]+x, ran partitioned \d+ of \d+ calls\n` +
		`# lanes=2: lane pool per cycle: 1 runs, [\d.e+-]+ waits, [\d.e+-]+ yields, [\d.e+-]+ parks, [\d.e+-]+ wake-ups; [\d.e+-]+ context switches per cycle\n` +
		`# lanes=2: sync cost 300 units \(set, not measured\)$`)
	if !details.MatchString(out) {
		t.Errorf("no kernel, pool and sync lines:\n%s", out)
	}
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "# top, interp backend, 300 cycles x 3 runs") || !strings.HasPrefix(lines[1], "lanes") {
		t.Fatalf("output:\n%s", out)
	}
	// lanes, ran on, compile_ms, rate, range, ratio, estimate, share.
	row := regexp.MustCompile(`^(\d+)\s+(\d+)\s+\d+\s+[\d.]+[kM]?\s+[\d.]+[kM]?\.\.[\d.]+[kM]?\s+([\d.]+)x\s+(\S+)\s+(\S+)$`)
	m1, m2 := row.FindStringSubmatch(lines[2]), row.FindStringSubmatch(lines[3])
	if m1 == nil || m2 == nil {
		t.Fatalf("rows do not parse:\n%s", out)
	}
	if m1[1] != "1" || m1[2] != "1" || m1[3] != "1.00" || m1[4] != "-" || m1[5] != "-" {
		t.Errorf("first row %q", m1[0])
	}
	// Partition(always) on two lanes: partitioned, every call.
	if m2[1] != "2" || m2[2] != "2" || !strings.HasSuffix(m2[4], "x") || m2[5] != "100%" {
		t.Errorf("second row %q", m2[0])
	}
}

func TestBenchErrors(t *testing.T) {
	f := writeSV(t, planCores)
	fin := writeSV(t, "module m(input logic clk, output logic [3:0] n);\n  always_ff @(posedge clk) begin n <= n + 1; if (n == 9) $finish; end\nendmodule\n")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bench"}, 2, "no input files"},
		{[]string{"bench", f, "--lanes", "0"}, 2, "--lanes \"0\""},
		{[]string{"bench", f, "--lanes", "1,x"}, 2, "comma list"},
		{[]string{"bench", f, "--cycles", "0"}, 2, "--cycles 0"},
		{[]string{"bench", f, "--runs", "0"}, 2, "--runs 0"},
		{[]string{"bench", f, "--partition", "never"}, 2, "want auto or always"},
		{[]string{"bench", f, "--backend", "gpu"}, 2, `--backend "gpu"`},
		{[]string{"bench", f, "--reset", ":3"}, 2, "missing the signal name"},
		{[]string{"bench", f, "--clock", "clock"}, 1, `no clock: top has no 1-bit input "clock"`},
		{[]string{"bench", fin, "--cycles", "100", "--backend", "interp"}, 1, "the design ended the run after"},
		{[]string{"bench", "/nonexistent.sv"}, 1, "nonexistent.sv"},
	} {
		code, _, errs := weft(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d (want %d), stderr:\n%s\nwant it to contain %q", tc.args[1:], code, tc.code, errs, tc.want)
		}
	}
}
