package hdl

import (
	"strings"
	"testing"
)

// The preprocessor records every active `timescale with its position and
// drops it from the text; a malformed one is a warning, never an error
// (weft accepted any `timescale before it recorded them).
func TestPreprocessRecordsTimescale(t *testing.T) {
	src := "`timescale 1ns/1ps\nmodule a; endmodule\n" +
		"`ifdef NO\n`timescale 1s/1s\n`endif\n" +
		"`timescale 10 us / 100 ns // comment\n" +
		"`timescale 1ps/1fs /* block */\n" +
		"`timescale 1ns\n" +
		"`timescale 1ps/1ns\n" +
		"`timescale 3ns/1ps\n" +
		"module b; endmodule\n"
	s, diags := runPP(ppCase{src: src})
	type ts struct{ unit, prec, line int }
	want := []ts{{-9, -12, 1}, {-5, -7, 6}, {-12, -15, 7}}
	var got []ts
	for _, x := range s.Timescales {
		got = append(got, ts{x.Unit, x.Precision, x.Pos.Line})
	}
	if len(got) != len(want) {
		t.Fatalf("timescales %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("timescale %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if diags.Err() != nil {
		t.Fatalf("errors: %v", diags.Err())
	}
	var warns []string
	for _, w := range diags.Warnings() {
		warns = append(warns, w.Pos.String()+": "+w.Msg)
	}
	wantWarns := []string{
		"top.sv:8:1: `timescale needs a unit and a precision: `timescale 1ns/1ps; the directive is ignored",
		"top.sv:9:1: `timescale precision 1ns is coarser than its unit 1ps; the precision must be at least as fine; the directive is ignored",
		"top.sv:10:1: `timescale unit: time literal \"3ns\": the magnitude must be 1, 10 or 100; the directive is ignored",
	}
	if strings.Join(warns, "\n") != strings.Join(wantWarns, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warns, "\n"), strings.Join(wantWarns, "\n"))
	}
	if strings.Contains(string(s.Text), "timescale") {
		t.Errorf("the directive reached the text:\n%s", s.Text)
	}
	st := Parse(s, diags)
	if len(st.Timescales) != 3 || len(st.Modules) != 2 {
		t.Errorf("parse: %d timescales, %d modules; want 3 and 2", len(st.Timescales), len(st.Modules))
	}
}
