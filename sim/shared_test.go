package sim_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// TestSharedProgram: simulators never change the program they run, and
// several run one program at once (partitioned kernels, native code,
// recomputed waits) with the results of one alone.
func TestSharedProgram(t *testing.T) {
	for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		t.Run(be.String(), func(t *testing.T) {
			p, err := compile.NewBuilder().Source("m.sv", sharedSrc).Top("m").Backend(be).Lanes(2).
				Partition(compile.PartitionAlways).Output(&bytes.Buffer{}).Build()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			prog := p.Program
			if prog.Parallel == nil || len(prog.Parallel.Kernels()) == 0 {
				t.Fatalf("nothing partitioned: %v", prog.Parallel)
			}
			before, err := program.Encode(prog, program.Meta{})
			if err != nil {
				t.Fatal(err)
			}
			opts := sim.Options{Partition: sim.PartitionAlways}
			const n = 3
			outs := make([]bytes.Buffer, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					o := opts
					o.Output = &outs[i]
					o.Backend = compile.SimBackend(be)
					s, err := sim.New(prog, o)
					if err != nil {
						errs[i] = err
						return
					}
					defer s.Close()
					clk, _ := s.Lookup("clk")
					x, _ := s.Lookup("x")
					for c := range 200 {
						if err := s.SetInput(x, uint64(c*37%65536)); err != nil {
							errs[i] = err
							return
						}
						if _, err := s.Tick(clk, 1); err != nil {
							errs[i] = err
							return
						}
					}
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("simulator %d: %v", i, err)
				}
			}
			for i := 1; i < n; i++ {
				if outs[i].String() != outs[0].String() {
					t.Errorf("simulator %d printed\n%s\nsimulator 0 printed\n%s", i, outs[i].String(), outs[0].String())
				}
			}
			if outs[0].Len() == 0 {
				t.Errorf("no output")
			}
			after, err := program.Encode(prog, program.Meta{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("the program changed while simulators ran it")
			}
		})
	}
}

const sharedSrc = `module m(input logic clk, input logic [15:0] x, output logic [15:0] a, output logic [15:0] b, output logic [15:0] s);
  always_ff @(posedge clk) a <= (a * 16'd3 + x) ^ (a >> 2) ^ ((a + x) * (x | 16'd1));
  always_ff @(posedge clk) b <= (b * 16'd5 + x) ^ (b >> 3) ^ ((b + x) * (x | 16'd7));
  assign s = a ^ b;
  always_ff @(posedge clk) if (s[3:0] == 4'd5) $display("s=%h a=%h b=%h", s, a, b);
endmodule`
