package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/jit"
)

// planCores has two independent cores and a comb observer of both.
const planCores = `
module core(input logic clk, input logic [7:0] in, output logic [15:0] acc);
  logic [15:0] next;
  assign next = acc[0] ? acc * 16'd5 + {8'd0, in} : acc + 16'd7;
  always_ff @(posedge clk) acc <= next;
endmodule
module top(input logic clk, input logic [7:0] in, output logic [15:0] sum);
  logic [15:0] a, b;
  core c0(.clk, .in, .acc(a));
  core c1(.clk, .in, .acc(b));
  assign sum = a ^ b;
endmodule`

func TestPlan(t *testing.T) {
	f := writeSV(t, planCores)
	code, out, errs := weft("plan", f, "--lanes", "2", "--always", "--backend", "interp")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr:\n%s", code, errs)
	}
	for _, want := range []string{
		"plan top: 2 lanes, sync cost 300, layout segmented",
		"kernel settle",
		"kernel fused posedge top.clk",
		"lane 0:",
		"lane 1:",
		"segments:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	// Each core's state (acc is the port alias of a and b) lives in one
	// lane's segment, and not the other's.
	segs := regexp.MustCompile(`(?m)^\s+lane (\d) +\[.*$`).FindAllString(out, -1)
	if len(segs) != 2 {
		t.Fatalf("want 2 lane segments, got %q in:\n%s", segs, out)
	}
	for _, c := range []string{"top.a,", "top.c0.next", "top.b,", "top.c1.next"} {
		n := 0
		for _, s := range segs {
			if strings.Contains(s, c) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s is in %d lane segments: %q", c, n, segs)
		}
	}

	// --svg draws the same plan; the file is well-formed SVG.
	svg := filepath.Join(t.TempDir(), "plan.svg")
	code, out, errs = weft("plan", f, "--always", "--svg", svg)
	if code != 0 || !strings.Contains(out, "wrote "+svg) {
		t.Fatalf("--svg: exit %d stdout %q stderr %q", code, out, errs)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name
		Rects   []struct{} `xml:"rect"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || doc.XMLName.Local != "svg" {
		t.Fatalf("--svg wrote no SVG document (%v):\n%.300s", err, data)
	}
	if !strings.Contains(string(data), "top.clk") {
		t.Errorf("SVG does not name the clock event:\n%.600s", data)
	}

	// Without --always, a design this small stays sequential, and the plan
	// says why.
	code, out, _ = weft("plan", f)
	if code != 0 || !strings.Contains(out, "reason:") {
		t.Errorf("auto: exit %d:\n%s", code, out)
	}
}

func TestPlanErrors(t *testing.T) {
	f := writeSV(t, planCores)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plan"}, 2, "no input files"},
		{[]string{"plan", f, "--lanes", "1"}, 2, "--lanes 1: a plan needs 2 to 64 lanes"},
		{[]string{"plan", f, "--lanes", "65"}, 2, "--lanes 65"},
		{[]string{"plan", f, "--backend", "gpu"}, 2, `--backend "gpu"`},
		{[]string{"plan", f, "--svg", "/nonexistent/dir/p.svg"}, 1, "/nonexistent/dir/p.svg"},
		{[]string{"plan", "/nonexistent.sv"}, 1, "nonexistent.sv"},
		{[]string{"plan", f, "--top", "nope"}, 1, "nope"},
	} {
		code, _, errs := weft(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d (want %d), stderr:\n%s\nwant it to contain %q", tc.args[1:], code, tc.code, errs, tc.want)
		}
	}
	bad := writeSV(t, "module m(input logic clk, output logic y);\n  assign y = nope;\nendmodule\n")
	code, _, errs := weft("plan", bad)
	if code != 1 || !strings.Contains(errs, bad+":2:") || !strings.Contains(errs, "^") {
		t.Errorf("compile error: exit %d stderr:\n%s", code, errs)
	}
	if code, _, errs := weft("plan", "-h"); code != 0 || !strings.Contains(errs, "usage: weft plan") {
		t.Errorf("-h: exit %d stderr %q", code, errs)
	}
}

func TestPlanDumpSIR(t *testing.T) {
	f := writeSV(t, planCores)
	code, out, errs := weft("plan", f, "--dump-sir=tick")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr:\n%s", code, errs)
	}
	if !strings.Contains(out, `unit "tick top.clk"`) || strings.Contains(out, `unit "settle"`) {
		t.Errorf("--dump-sir=tick should print the tick unit alone:\n%s", out)
	}
	if !strings.Contains(out, "layout ") || strings.Contains(out, "plan top:") {
		t.Errorf("--dump-sir prints the layout and units, not the plan:\n%s", out)
	}
	code, out, errs = weft("plan", f, "--dump-sir")
	if code != 0 || !strings.Contains(out, `unit "settle"`) || !strings.Contains(out, `unit "fused posedge top.clk"`) {
		t.Errorf("--dump-sir alone should print every unit (exit %d):\n%s%s", code, out, errs)
	}
	code, _, errs = weft("plan", f, "--dump-sir=nosuch")
	if code != 1 || !strings.Contains(errs, `no unit's name contains "nosuch"; the units are: settle, event, fused posedge top.clk`) {
		t.Errorf("an unknown kernel should list the units (exit %d):\n%s", code, errs)
	}
}

func TestPlanDumpAsm(t *testing.T) {
	if !jit.Supported {
		t.Skip("no native backend on this platform")
	}
	f := writeSV(t, planCores)
	code, out, errs := weft("plan", f, "--dump-asm=tick")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr:\n%s", code, errs)
	}
	if !strings.Contains(out, `unit "tick top.clk": `) || strings.Contains(out, `unit "settle"`) || strings.Contains(out, "plan top:") {
		t.Errorf("--dump-asm=tick should print the tick unit's code alone:\n%s", out)
	}
	// The kernel returns through ret; state is addressed from rbx.
	if !strings.Contains(out, "  ret\n") || !strings.Contains(out, "[rbx+") {
		t.Errorf("--dump-asm=tick: no x86 code in:\n%s", out)
	}
	// Each block's code starts under its SIR name.
	if !regexp.MustCompile(`\nb0:\n +[0-9a-f]+  `).MatchString(out) || !regexp.MustCompile(`\nb[1-9][0-9]*:\n +[0-9a-f]+  `).MatchString(out) {
		t.Errorf("--dump-asm=tick: no block labels in:\n%s", out)
	}
	code, _, errs = weft("plan", f, "--dump-asm=nosuch")
	if code != 1 || !strings.Contains(errs, `--dump-asm=nosuch: no unit's name contains "nosuch"`) {
		t.Errorf("an unknown kernel should list the units (exit %d):\n%s", code, errs)
	}
}

func TestPlanVerbosePlacement(t *testing.T) {
	f := writeSV(t, planCores)
	code, out, errs := weft("plan", f, "--lanes", "2", "--always", "--backend", "interp", "--verbose")
	if code != 0 {
		t.Fatalf("exit %d stderr:\n%s", code, errs)
	}
	for _, want := range []string{
		"placement fused posedge top.clk\n  lane 0: instances top, top.c0\n",
		"  lane 1: instances top, top.c1\n",
		"    task 5 n1..n2 (2 nodes) writes: top{sum} top.c1{next}\n",
		"    task 1 eval g1 writes: top{b}\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--verbose lacks %q:\n%s", want, out)
		}
	}
	if _, out, _ = weft("plan", f, "--lanes", "2", "--always", "--backend", "interp"); strings.Contains(out, "placement") {
		t.Errorf("placement printed without --verbose:\n%s", out)
	}
}

func TestNaturalCompare(t *testing.T) {
	got := []string{"g[10].u", "g[2].u", "g[1].v", "g[1].u", "a07", "a7x", "a", "g[002].u"}
	slices.SortFunc(got, naturalCompare)
	want := []string{"a", "a07", "a7x", "g[1].u", "g[1].v", "g[2].u", "g[002].u", "g[10].u"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
