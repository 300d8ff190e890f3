package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/plan"
)

func TestTopChild(t *testing.T) {
	for in, want := range map[string]string{
		"top":                 "top",
		"top.core[2]":         "top.core[2]",
		"top.core[2].alu.add": "top.core[2]",
		"top.g[a.b].u":        "top.g[a.b]",
		"":                    "",
	} {
		if got := topChild(in); got != want {
			t.Errorf("topChild(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMostWritten(t *testing.T) {
	objs := []placedObject{
		{"top.sum", 0, 4},
		{"top.core[0].alu.r", 8, 40},
		{"top.core[0].pc", 40, 44},
		{"top.core[1].r", 48, 80},
		{"top.core[2].x", 80, 88},
	}
	for _, c := range []struct {
		rs   []ordering.Range
		want string
	}{
		{nil, ""},
		{[]ordering.Range{{Lo: 100, Hi: 200}}, ""},
		{[]ordering.Range{{Lo: 0, Hi: 44}}, "top.core[0]"},                        // 36 of 40 bytes
		{[]ordering.Range{{Lo: 0, Hi: 4}, {Lo: 40, Hi: 44}}, "top + top.core[0]"}, // 4 and 4
		{[]ordering.Range{{Lo: 40, Hi: 52}}, "top.core[0] + top.core[1]"},         // 4 and 4
		{[]ordering.Range{{Lo: 2, Hi: 10}, {Lo: 40, Hi: 42}, {Lo: 48, Hi: 50}}, "top + top.core[0] + top.core[1]"},
		{[]ordering.Range{{Lo: 30, Hi: 80}}, "top.core[1]"}, // 32 of 46 bytes
		{[]ordering.Range{{Lo: 0, Hi: 4}}, "top"},
		{[]ordering.Range{{Lo: 0, Hi: 4}, {Lo: 40, Hi: 52}, {Lo: 80, Hi: 84}}, plan.MixedInst}, // four instances, 4 bytes each
	} {
		if got := mostWritten(objs, c.rs); got != c.want {
			t.Errorf("mostWritten(%v) = %q, want %q", c.rs, got, c.want)
		}
	}
}

// weft plan --svg colours the tasks by the instance they write: lane 0's
// settle writes only top.c0's logic, lane 1's top.c1's and the top's sum
// (its registers are ports collapsed into the top's a and b).
func TestPlanSVGInstances(t *testing.T) {
	f := writeSV(t, planCores)
	svg := filepath.Join(t.TempDir(), "plan.svg")
	if code, _, errs := weft("plan", f, "--lanes", "2", "--always", "--backend", "interp", "--svg", svg); code != 0 {
		t.Fatalf("exit %d stderr:\n%s", code, errs)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tasks by instance:", ">top.c0</text>", ">top + top.c1</text>", "instance top.c0"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}
