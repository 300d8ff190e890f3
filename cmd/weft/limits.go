package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/statelayout"
)

// sizeFlag is a count (of bytes, of instructions): a number of units
// (bytes for --ring, MiB for --max-state-mb), or a number with a K, M or
// G suffix (powers of 1024).
type sizeFlag struct {
	n        int64
	unit     int64
	min, max int64
}

func (f *sizeFlag) String() string {
	if f == nil || f.unit == 0 {
		return ""
	}
	if f.n%f.unit == 0 {
		return strconv.FormatInt(f.n/f.unit, 10)
	}
	return strconv.FormatInt(f.n, 10) + "B"
}

func (f *sizeFlag) Set(v string) error {
	s := strings.ToUpper(strings.TrimSpace(v))
	mult := f.unit
	for suffix, m := range map[string]int64{"B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30} {
		if n, ok := strings.CutSuffix(s, suffix); ok && n != "" && n[len(n)-1] >= '0' && n[len(n)-1] <= '9' {
			s, mult = n, m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > f.max/mult || n*mult < f.min {
		return fmt.Errorf("%q: want %s to %s (a number, optionally with a K, M or G suffix)", v, sizeText(f.min), sizeText(f.max))
	}
	f.n = n * mult
	return nil
}

// sizeText writes a byte count the way sizeFlag reads it.
func sizeText(n int64) string {
	for _, u := range []struct {
		s string
		m int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.m && n%u.m == 0 {
			return strconv.FormatInt(n/u.m, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}

// limitFlags are the resource limits of the commands that build kernels
// (run, bench, plan): what bounds a hostile design at build time, raised
// here for a legitimate one.
type limitFlags struct {
	ring, maxState, maxInsts sizeFlag
}

func addLimitFlags(fs *flag.FlagSet) *limitFlags {
	lf := &limitFlags{
		ring:     sizeFlag{n: statelayout.DefaultRingCap, unit: 1, min: 8, max: statelayout.MaxRingCap},
		maxState: sizeFlag{n: statelayout.DefaultMaxStateBytes, unit: 1 << 20, min: 1 << 20, max: 1 << 40},
		maxInsts: sizeFlag{n: kernels.DefaultMaxInsts, unit: 1, min: 1 << 10, max: 1 << 31},
	}
	fs.Var(&lf.ring, "ring", fmt.Sprintf("record space of the runtime-event ring, in `BYTES` (K, M, G suffixes; %s to %s): "+
		"what the $display/$write/$error/... calls of one clock edge may print; a single call that can never fit is a build error",
		sizeText(lf.ring.min), sizeText(lf.ring.max)))
	fs.Var(&lf.maxState, "max-state-mb", "refuse a design whose simulation state (its variables and memories) needs more than `N` MiB")
	fs.Var(&lf.maxInsts, "max-insts", "refuse a design whose kernels need more than `N` SIR instructions (what bounds the memory a build takes; values of millions of bits are what need many)")
	return lf
}

// apply sets the limits on a builder.
func (lf *limitFlags) apply(b *compile.Builder) *compile.Builder {
	return b.RingCap(int(lf.ring.n)).MaxStateBytes(lf.maxState.n).MaxInsts(int(lf.maxInsts.n))
}
