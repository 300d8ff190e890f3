package bench

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"

	"github.com/onsi/ginkgo/v2"
)

// Logger is a structured logger for bench code: each record is one line
// on Options.Output (GinkgoWriter by default, shown when a spec fails or
// with -v), starting with the simulated time and the task that logged it:
//
//	1.25us  [sink]  INFO  byte received  value=0x5a
func (tb *Bench) Logger() *slog.Logger {
	return slog.New(&logHandler{tb: tb, w: tb.opts.Output, level: slog.LevelDebug})
}

type logHandler struct {
	tb    *Bench
	w     io.Writer
	level slog.Level
	attrs []slog.Attr
	group string
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	who := "spec"
	if t := h.tb.cur; t != nil && t != h.tb.root {
		who = t.name
	}
	fmt.Fprintf(&b, "%10s  [%s]  %-5s %s", h.tb.now, who, r.Level, r.Message)
	put := func(a slog.Attr) {
		key := a.Key
		if h.group != "" {
			key = h.group + "." + key
		}
		fmt.Fprintf(&b, "  %s=%v", key, a.Value)
	}
	for _, a := range h.attrs {
		put(a)
	}
	r.Attrs(func(a slog.Attr) bool {
		put(a)
		return true
	})
	b.WriteByte('\n')
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return &c
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	c := *h
	if c.group != "" {
		name = c.group + "." + name
	}
	c.group = name
	return &c
}

// Rand is the bench's random source for stimulus. Its seed is
// Options.Seed or, by default, Ginkgo's random seed mixed with the spec's
// full name, so every spec has its own stream and `ginkgo --seed N` (or
// `go test -ginkgo.seed N`) replays it; the seed is written to the output
// when Rand is first called, which Ginkgo shows when the spec fails.
// Only bench code may use it (it is not safe for other goroutines).
func (tb *Bench) Rand() *rand.Rand {
	if tb.rng != nil {
		return tb.rng
	}
	seed := tb.opts.Seed
	how := "Options.Seed"
	if seed == 0 {
		g := ginkgo.GinkgoRandomSeed()
		h := fnv.New64a()
		fmt.Fprint(h, ginkgo.CurrentSpecReport().FullText())
		seed = uint64(g)*0x9e3779b97f4a7c15 ^ h.Sum64()
		how = fmt.Sprintf("Ginkgo seed %d (replay with -ginkgo.seed=%d)", g, g)
	}
	tb.seed = seed
	tb.rng = rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	fmt.Fprintf(tb.opts.Output, "bench: random seed %d, from %s\n", seed, how)
	return tb.rng
}

// Seed is the seed Rand uses (0 before the first Rand call).
func (tb *Bench) Seed() uint64 { return tb.seed }
