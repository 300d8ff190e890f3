package vcd

import (
	"slices"

	"github.com/weft-hdl/weft/program"
)

// DefaultFile is where a $dumpvars without a $dumpfile dumps (IEEE 1800
// §21.7.1.1).
const DefaultFile = "dump.vcd"

// FromProgram reads the design's own dump request ($dumpfile and
// $dumpvars in initial blocks, program.Program.Dump) as a file path and
// Options; ok is false when the design asks for no dump (no $dumpvars).
// The path is as written, relative to the working directory. The
// timescale is the design's finest `timescale precision (1ps without
// one).
//
// Several $dumpvars calls merge into one selection: their scopes and
// signals together, with the deepest of their levels (0 when any call
// dumps every level), so what each call asked for is dumped, and maybe a
// little more; a call without scope arguments is the whole design.
func FromProgram(p *program.Program) (path string, opts Options, ok bool) {
	if p == nil || p.Dump == nil || len(p.Dump.Vars) == 0 {
		return "", Options{}, false
	}
	path = p.Dump.File
	if path == "" {
		path = DefaultFile
	}
	all := false
	for i, v := range p.Dump.Vars {
		if i == 0 || opts.Depth != 0 && (v.Levels == 0 || v.Levels > opts.Depth) {
			opts.Depth = v.Levels
		}
		if len(v.Scopes)+len(v.Signals) == 0 {
			all = true
		}
		opts.Scopes = appendNew(opts.Scopes, v.Scopes...)
		opts.Signals = appendNew(opts.Signals, v.Signals...)
	}
	if all {
		opts.Scopes = []string{""}
	}
	if p.HasTimescale {
		opts.Timescale = program.TimeString(p.Timescale)
	}
	return path, opts, true
}

// appendNew appends the strings of add that list lacks.
func appendNew(list []string, add ...string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
