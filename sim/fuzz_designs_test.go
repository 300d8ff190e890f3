package sim_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/internal/randdesign"
	"github.com/weft-hdl/weft/sim"
)

// fuzzConfig is one way of running a design in FuzzDesigns.
type fuzzConfig struct {
	lanes   int // 1: the sequential kernels
	backend compile.BackendKind
}

func (c fuzzConfig) String() string { return fmt.Sprintf("lanes=%d/%s", c.lanes, c.backend) }

// FuzzDesigns turns its input into the options and seed of a random
// design (internal/randdesign) and runs the design in lock-step in five
// ways: the sequential kernels on the interpreter (the reference) and on
// the native backend, and the partitioned kernels (Partition(always)) on
// 2, 3 and 4 lanes, on the backends the input picks. sim.Shadow compares
// every home, the output text and the outcome after every step of the
// random stimulus (randDrive); partitioned plans are checked with the plan
// checker. A difference is rerun one configuration at a time against the
// reference, to name the configuration that departs.
//
// Without -fuzz only the seed entries run, a few small designs. To fuzz:
//
//	go test ./sim -run XXX -fuzz FuzzDesigns -fuzztime 10m
func FuzzDesigns(f *testing.F) {
	// seed, modules, depth, width, signals, flops, inputs, flags, steps
	// (each knob is taken modulo its range: see below)
	f.Add(uint64(1), uint8(1), uint8(1), uint8(32), uint8(2), uint8(1), uint8(1), uint8(0), uint8(30))
	f.Add(uint64(7), uint8(2), uint8(2), uint8(122), uint8(2), uint8(1), uint8(3), uint8(0b110), uint8(20))
	f.Add(uint64(42), uint8(0), uint8(0), uint8(16), uint8(4), uint8(2), uint8(0), uint8(0b011), uint8(50))
	f.Add(uint64(1234), uint8(3), uint8(3), uint8(48), uint8(1), uint8(0), uint8(2), uint8(0b101), uint8(20))
	f.Fuzz(func(t *testing.T, seed uint64, modules, depth, width, signals, flops, inputs, flags, steps uint8) {
		opts := randdesign.Options{
			Modules:  1 + int(modules)%4,
			Depth:    1 + int(depth)%4,
			MaxWidth: 8 + int(width)%123, // 8 to 130 bits
			Signals:  1 + int(signals)%6,
			Flops:    1 + int(flops)%4,
			Inputs:   1 + int(inputs)%5,
			Defined:  flags&1 != 0,
		}
		// The partitioned runs' backends: bit 1 for 2 and 4 lanes, bit 2
		// for 3 lanes (set: native).
		be := func(bit uint8) compile.BackendKind {
			if flags&bit != 0 {
				return compile.BackendNative
			}
			return compile.BackendInterp
		}
		configs := []fuzzConfig{
			{1, compile.BackendNative},
			{2, be(2)},
			{3, be(4)},
			{4, be(2)},
		}
		d := randdesign.Generate(seed, opts)
		nsteps := 10 + int(steps)%120
		partitioned, err := fuzzRun(d, seed, nsteps, configs)
		if err == nil {
			t.Logf("%d steps, %d of 3 multi-lane configurations partitioned", nsteps, partitioned)
			return
		}
		// Name the configurations that depart from the reference.
		var culprits []string
		for _, c := range configs {
			if _, err := fuzzRun(d, seed, nsteps, []fuzzConfig{c}); err != nil {
				culprits = append(culprits, c.String())
			}
		}
		t.Fatalf("seed %d, %+v, %d steps: %v\nalone against the reference, these differ: %v\ndesign:\n%s",
			seed, opts, nsteps, err, culprits, d.Source)
	})
}

// fuzzRun builds d sequentially on the interpreter and in every
// configuration, shadows the reference with each, and drives steps steps
// of random stimulus. It returns how many configurations got partitioned
// kernels.
func fuzzRun(d randdesign.Design, seed uint64, steps int, configs []fuzzConfig) (partitioned int, err error) {
	ref, err := compile.NewBuilder().Source("rand.sv", d.Source).Top(d.Top).Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
	if err != nil {
		return 0, fmt.Errorf("building the reference: %w", err)
	}
	var main *sim.Simulator
	defer func() {
		if main == nil {
			ref.Close()
		} else {
			main.Close() // and every simulator that it shadows
		}
	}()
	for _, c := range configs {
		b := compile.NewBuilder().Source("rand.sv", d.Source).Top(d.Top).Backend(c.backend).Output(&bytes.Buffer{})
		if c.lanes > 1 {
			b.Lanes(c.lanes).Partition(compile.PartitionAlways)
		}
		p, err := b.Build()
		if err != nil {
			return partitioned, fmt.Errorf("building %v: %w", c, err)
		}
		if p.Program.Parallel != nil {
			partitioned++
			if err := plancheck.CheckSimulator(p.Sim); err != nil {
				p.Close()
				return partitioned, fmt.Errorf("%v: plan check: %w", c, err)
			}
		}
		if main == nil {
			// The first configuration runs; the reference and the others
			// follow it.
			if err := p.Sim.Shadow(ref.Sim); err != nil {
				p.Close()
				return partitioned, fmt.Errorf("%v, time zero: %w", c, err)
			}
			main = p.Sim
		} else if err := main.Shadow(p.Sim); err != nil {
			p.Close()
			return partitioned, fmt.Errorf("%v, time zero: %w", c, err)
		}
	}
	err = randDrive(main, d, seed, steps)
	var fe *sim.FinishError
	if errors.As(err, &fe) {
		return partitioned, nil // randdesign has no $finish, but a finish is no difference
	}
	return partitioned, err
}
