package sim_test

import (
	"io"
	"testing"

	"github.com/weft-hdl/weft/compile"
)

// lanesDesign is a design for BenchmarkLanes: its builder and the stimulus
// that gets it going before the clock runs.
type lanesDesign struct {
	name  string
	build func() *compile.Builder
	setup func(*bench)
}

var lanesDesigns = []lanesDesign{
	{"cores16", func() *compile.Builder {
		return compile.NewBuilder().Files("../examples/cores/rtl/cores.sv").Top("cores")
	}, func(bb *bench) {
		bb.set("rst_n", 0)
		bb.step()
		bb.set("rst_n", 1)
		bb.set("in", 0x1234_5678)
		bb.step()
	}},
	{"uart", uartBuilder, uartSetup},
}

// BenchmarkLanes compares, per design and backend, the sequential kernels
// (threads=1) with the partitioned ones on two lanes, forced
// (threads=2/always) and as the selector picks them (threads=2/auto).
// Besides cycles/s it reports the plan's estimated speedup of the clock's
// fused kernel (est-x: single cost over estimated makespan; 0 when that
// kernel is not partitioned) and the share of calls that ran a partitioned
// kernel (par-share), so estimate and measurement sit side by side:
//
//	go test ./sim -run '^$' -bench Lanes -count 5
func BenchmarkLanes(b *testing.B) {
	for _, d := range lanesDesigns {
		for _, k := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
			for _, mode := range []struct {
				name      string
				threads   int
				partition compile.PartitionMode
			}{
				{"threads=1", 1, compile.PartitionAuto},
				{"threads=2/always", 2, compile.PartitionAlways},
				{"threads=2/auto", 2, compile.PartitionAuto},
			} {
				b.Run(d.name+"/"+k.String()+"/"+mode.name, func(b *testing.B) {
					benchLanes1(b, d, d.build().Backend(k).Lanes(mode.threads).Partition(mode.partition))
				})
			}
		}
	}
}

func benchLanes1(b *testing.B, d lanesDesign, builder *compile.Builder) {
	p, err := builder.Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	bb := &bench{t: b, p: p, s: p.Sim}
	d.setup(bb)
	clk := bb.home("clk")
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := p.Sim.Tick(clk, b.N); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
	est := 0.0
	if p.Plan != nil {
		for _, k := range p.Plan.Kernels {
			if k.Name == "fused posedge "+p.Program.Top.Module+".clk" && k.Partitioned() && k.Makespan() > 0 {
				est = float64(k.SingleCost) / float64(k.Makespan())
			}
		}
	}
	b.ReportMetric(est, "est-x")
	var calls, par uint64
	sel := ""
	for _, st := range p.Sim.ParallelStats() {
		calls += st.Calls
		par += st.Parallel
		if st.Selector != "" {
			sel += " " + st.Kernel + ": " + st.Selector
		}
	}
	share := 0.0
	if calls > 0 {
		share = float64(par) / float64(calls)
	}
	b.ReportMetric(share, "par-share")
	if sel != "" && b.N > 1000 {
		b.Logf("selector:%s", sel)
	}
}
