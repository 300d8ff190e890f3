// Package vcd writes waveform dumps of a simulated design in the Value Change
// Dump format (IEEE 1364 §18, what GTKWave, Surfer and every simulator
// read). It owns the mapping of the design's hierarchy onto VCD scopes and
// variables, the diff of the simulator's state from one sample to the next,
// and the reading of a design's own $dumpfile/$dumpvars request into writer
// options (FromProgram).
//
//	w, err := vcd.Create("waves.vcd", s, vcd.Options{})  // s is a *sim.Simulator
//	...
//	s.SetTime(t); s.Step(); w.Sample(t)                   // after every time step
//	...
//	w.Close()
//
// # Hierarchy
//
// Every instance is a `$scope module`, every generate scope a `$scope
// begin` inside its instance, and the static variables of a function or
// task (program.KindStatic) sit in a `$scope function` (or task). Variables,
// nets and ports are `$var` entries (nets and input ports as wire, the rest
// as reg) with their packed range ("[7:0]"; a
// struct or multi-dimensional packed home as [W-1:0]). A port connected
// straight to a parent signal is one home with two names (design port
// collapsing): it is declared under both scopes with the same identifier
// code, as other simulators do. Variables are listed by name within a
// scope, then the scopes below, also by name (indexes in numeric order).
//
// Not dumped: unpacked arrays (memories), unless Options.Arrays is set or
// the array is named in Options.Signals, in which case each element is a
// variable "mem[3]" (Icarus Verilog skips arrays in a scope dump, and a big
// memory costs a comparison per element per sample); variables declared
// inside processes (program.KindBlockLocal: they are private to the process
// and their stored value is no signal's; Icarus shows named-block ones);
// static variables of package functions (they belong to no instance).
//
// # Selection
//
// Options.Scopes and Options.Depth select like $dumpvars(depth, scope...):
// every signal of each scope and of the instances below it, Depth instance
// levels deep (1: the scope's own signals, generate scopes included; 0: all
// levels). No scope and no signal means the whole design. Signals adds
// single signals by name.
//
// # Values and time
//
// weft is 2-state: values are written as 0 and 1 digits, vectors with
// leading zeros dropped ("b101 !"; a reader extends with 0), scalars as
// "1!". The first Sample writes every value in a $dumpvars section; later
// ones write "#t" and the variables whose value changed since the previous
// Sample, nothing when none did. Sample reads each dumped element once
// through sim.GetWords into a buffer and compares it with the copy from the
// previous sample: no allocation per sample, a few nanoseconds per element.
//
// Sample takes the bench's time in picoseconds (what sim.SetTime holds) and
// writes it in the unit of Options.Timescale (default 1ps): with "1ns", t is
// divided by 1000 and samples that fall in one nanosecond share one #time
// (the last value wins, as in a simulator whose precision is 1ns).
package vcd
