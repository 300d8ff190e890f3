package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/weft-hdl/weft/elab"
)

// countFlag sets a positive count: a number, or a number with a K, M or G
// suffix (powers of 1024).
type countFlag struct{ n *int64 }

func (f countFlag) String() string {
	if f.n == nil {
		return ""
	}
	return strconv.FormatInt(*f.n, 10)
}

func (f countFlag) Set(v string) error {
	s := strings.ToUpper(strings.TrimSpace(v))
	mult := int64(1)
	for suffix, m := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			s, mult = n, m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return fmt.Errorf("%q: want a positive number, optionally with a K, M or G suffix", v)
	}
	*f.n = n * mult
	return nil
}

// addElabLimitFlags registers the elaboration limits (elab.Limits), which
// every command that reads a design takes, set to their defaults in l.
func addElabLimitFlags(fs *flag.FlagSet, l *elab.Limits) {
	*l = elab.Limits{
		ConstSteps:         elab.DefaultConstSteps,
		ConstBits:          elab.DefaultConstBits,
		GenerateIterations: elab.DefaultGenerateIterations,
		Instances:          elab.DefaultInstances,
	}
	fs.Var(countFlag{&l.ConstSteps}, "max-const-steps", "refuse a design whose constant functions run more than `N` statements and loop iterations in all")
	fs.Var(countFlag{&l.ConstBits}, "max-const-bits", "refuse a design whose constant expressions compute more than `N` bits in all (each value its width; products and powers more)")
	fs.Var(countFlag{&l.GenerateIterations}, "max-generate-iterations", "refuse a design whose generate loops run more than `N` iterations in all")
	fs.Var(countFlag{&l.Instances}, "max-instances", "refuse a design of more than `N` module and interface instances")
}
