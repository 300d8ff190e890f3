package design

// DumpRequest is what the design's initial blocks ask of a waveform dump:
// the file of $dumpfile and the scopes of every $dumpvars call. weft's
// simulator writes no file itself; the test bench honours the request
// (package vcd turns it into writer options).
type DumpRequest struct {
	// File is the $dumpfile name as written, relative to the working
	// directory of the run (as with Icarus Verilog); "" when no $dumpfile
	// ran, where IEEE 1800 §21.7.1.1 says the dump goes to "dump.vcd".
	File    string
	FilePos Pos
	// Vars are the $dumpvars calls in elaboration order (none: only
	// $dumpfile appeared, and nothing is dumped).
	Vars []DumpVars
}

// DumpVars is one $dumpvars call (§21.7.1.2) with its arguments resolved.
type DumpVars struct {
	// Levels is the first argument: how many levels of instances to dump
	// below each scope, 1 being the scope's own signals only; 0 (or no
	// argument) is every level.
	Levels int
	// Scopes are the instance paths (Instance.Path) and Signals the
	// home names (a Home.Path or one of its Aliases) that the call names.
	// Both are empty for a call without them: the whole design.
	Scopes  []string
	Signals []string
	Pos     Pos
}
