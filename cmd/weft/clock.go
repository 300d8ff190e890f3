package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/sim"
)

// clockFlags are the clock and reset options of the commands that run a
// design (run, bench).
type clockFlags struct {
	clock, resetSpec, resetActive *string

	// Parsed by parse.
	resetName   string
	resetCycles int
	activeLow   bool
}

func addClockFlags(fs *flag.FlagSet) *clockFlags {
	return &clockFlags{
		clock:       fs.String("clock", "clk", "clock input `NAME`"),
		resetSpec:   fs.String("reset", "", "reset input held active first: `NAME[:CYCLES]` (default 4 cycles)"),
		resetActive: fs.String("reset-active", "", "reset polarity `high|low` (default: low when the name ends in n/_n)"),
		resetCycles: 4,
	}
}

// parse checks --reset and --reset-active.
func (cf *clockFlags) parse() error {
	if *cf.resetSpec != "" {
		name, n, hasN := strings.Cut(*cf.resetSpec, ":")
		cf.resetName = name
		if hasN {
			v, err := strconv.Atoi(n)
			if err != nil || v < 0 {
				return fmt.Errorf("--reset %q: CYCLES must be a number >= 0", *cf.resetSpec)
			}
			cf.resetCycles = v
		}
		if cf.resetName == "" {
			return fmt.Errorf("--reset %q: missing the signal name", *cf.resetSpec)
		}
	}
	switch *cf.resetActive {
	case "":
		cf.activeLow = strings.HasSuffix(strings.ToLower(cf.resetName), "n")
	case "low":
		cf.activeLow = true
	case "high":
	default:
		return fmt.Errorf("--reset-active %q: want high or low", *cf.resetActive)
	}
	return nil
}

// signals resolves the clock and the reset (nil without --reset) in prog.
func (cf *clockFlags) signals(prog *compile.Program) (clk, rst *dut.Signal, err error) {
	d := prog.DUT()
	clk, err = d.Signal(*cf.clock)
	if err != nil || !clk.IsInput() || clk.Width() != 1 || clk.IsArray() {
		return nil, nil, fmt.Errorf("no clock: %s has no 1-bit input %q (inputs: %s); name the clock with --clock", prog.Program.Top.Module, *cf.clock, inputList(d))
	}
	if cf.resetName != "" {
		if rst, err = d.Signal(cf.resetName); err != nil {
			return nil, nil, fmt.Errorf("--reset: %v", err)
		}
		if !rst.IsInput() || rst.Width() != 1 || rst.IsArray() {
			return nil, nil, fmt.Errorf("--reset: %s is not a 1-bit top-level input (inputs: %s)", cf.resetName, inputList(d))
		}
	}
	return clk, rst, nil
}

// reset drives the clock low and, with a reset, holds it active for the
// reset cycles and releases it.
func (cf *clockFlags) reset(s *sim.Simulator, clk, rst *dut.Signal) error {
	if err := clk.Set(0); err != nil {
		return err
	}
	if rst == nil {
		return s.Step()
	}
	if err := rst.Set(b2u(!cf.activeLow)); err != nil {
		return err
	}
	if err := s.Step(); err != nil {
		return err
	}
	if _, err := s.Tick(clk.Home(), cf.resetCycles); err != nil {
		return err
	}
	if err := rst.Set(b2u(cf.activeLow)); err != nil {
		return err
	}
	return s.Step()
}
