package compile_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-hdl/weft/cache"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/gendesign"
)

// buildCases are the designs BenchmarkBuild compiles: the example SoC
// (RV32I core, firmware, peripherals), the cores example (16 CPUs) and a
// generated design of 1,000 instances.
func buildCases(b testing.TB) map[string]func() *compile.Builder {
	gen := filepath.Join(b.TempDir(), "big_top.sv")
	if err := os.WriteFile(gen, []byte(gendesign.Rows(1000)), 0o644); err != nil {
		b.Fatal(err)
	}
	soc := "../examples/soc/rtl/"
	return map[string]func() *compile.Builder{
		"soc": func() *compile.Builder {
			return compile.NewBuilder().IncludeDir(soc).Top("soc_top").Param("FIRMWARE", `"`+soc+`firmware.hex"`).
				Files(soc+"soc_pkg.sv", soc+"rv_alu.v", soc+"rv_regfile.v", soc+"rv_core.v", soc+"soc_bus.sv", soc+"soc_ram.sv",
					soc+"soc_timer.sv", soc+"soc_gpio.sv", soc+"soc_uart_lite.sv", soc+"soc_simctrl.sv", soc+"soc_top.sv")
		},
		"cores": func() *compile.Builder {
			return compile.NewBuilder().Files("../examples/cores/rtl/cores.sv").Top("cores")
		},
		"gen1000": func() *compile.Builder { return compile.NewBuilder().Files(gen).Top("big_top") },
	}
}

// BenchmarkBuild compares a Build from source (cold: no cache) with one
// that loads the image a previous Build stored (warm), per design and
// lane count. Both include making the simulator (native code, time zero).
//
//	go test ./compile -run XXX -bench Build -benchtime 5x
func BenchmarkBuild(b *testing.B) {
	for _, name := range []string{"soc", "cores", "gen1000"} {
		for _, lanes := range []int{1, 4} {
			for _, warm := range []bool{false, true} {
				label := "cold"
				if warm {
					label = "warm"
				}
				b.Run(name+"/lanes="+string(rune('0'+lanes))+"/"+label, func(b *testing.B) {
					mk := buildCases(b)[name]
					var c *cache.Cache
					if warm {
						var err error
						if c, err = cache.Open(b.TempDir(), cache.Options{}); err != nil {
							b.Fatal(err)
						}
					}
					build := func() *compile.Program {
						p, err := mk().Lanes(lanes).Output(io.Discard).Cache(c).Build()
						if err != nil {
							b.Fatal(err)
						}
						return p
					}
					build().Close() // fills the cache (warm); warms the process (cold)
					b.ResetTimer()
					for b.Loop() {
						p := build()
						if p.FromCache != warm {
							b.Fatalf("from cache %v", p.FromCache)
						}
						p.Close()
					}
				})
			}
		}
	}
}
