package compile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/gendesign"
)

// BenchmarkScale compiles the two generated shapes (internal/gendesign:
// a generate loop of counters, and a chain of pipeline instances) at
// 10^3 to 10^6 flop bits without the cache, and reports per size the
// compile time (sec/op), the process's peak resident memory during the
// compile (peak_MB, Linux only) and the native simulation speed after a
// reset (cycles/s).
//
//	go test ./compile -run XXX -bench Scale -benchtime 1x
func BenchmarkScale(b *testing.B) {
	shapes := []struct {
		name string
		gen  func(bits int) string
	}{{"counters", gendesign.Counters}, {"chain", gendesign.Chain}}
	for _, sh := range shapes {
		for exp := 3; exp <= 6; exp++ {
			bits := 1
			for range exp {
				bits *= 10
			}
			b.Run(fmt.Sprintf("%s/bits=1e%d", sh.name, exp), func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "top.sv")
				if err := os.WriteFile(path, []byte(sh.gen(bits)), 0o644); err != nil {
					b.Fatal(err)
				}
				build := func() *compile.Program {
					p, err := compile.NewBuilder().Files(path).Top("top").NoCache().Build()
					if err != nil {
						b.Fatal(err)
					}
					return p
				}
				runtime.GC()
				debug.FreeOSMemory()
				resetPeakRSS()
				var p *compile.Program
				for b.Loop() {
					if p != nil {
						p.Close()
					}
					p = build()
				}
				b.StopTimer()
				if mb, ok := peakRSSMB(); ok {
					b.ReportMetric(mb, "peak_MB")
				}
				defer p.Close()
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "sec/op")
				b.ReportMetric(cyclesPerSecond(b, p), "cycles/s")
			})
		}
	}
}

// cyclesPerSecond resets p's design (rst high for two cycles) and ticks
// clk for about half a second.
func cyclesPerSecond(b *testing.B, p *compile.Program) float64 {
	d := p.DUT()
	clk, err := d.Signal("clk")
	if err != nil {
		b.Fatal(err)
	}
	rst, err := d.Signal("rst")
	if err != nil {
		b.Fatal(err)
	}
	s := p.Sim
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(clk.Set(0))
	must(rst.Set(1))
	must(s.Step())
	_, err = s.Tick(clk.Home(), 2)
	must(err)
	must(rst.Set(0))
	must(s.Step())
	ran, chunk := 0, 1
	start := time.Now()
	for time.Since(start) < 500*time.Millisecond {
		n, err := s.Tick(clk.Home(), chunk)
		must(err)
		ran += n
		chunk = min(chunk*2, 1<<16)
	}
	return float64(ran) / time.Since(start).Seconds()
}

// resetPeakRSS restarts the kernel's peak resident size count of this
// process (Linux: writing 5 to clear_refs); elsewhere it does nothing.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSSMB reads the peak resident size since resetPeakRSS (VmHWM).
func peakRSSMB() (float64, bool) {
	f, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(f)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024, err == nil
		}
	}
	return 0, false
}
