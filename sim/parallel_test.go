package sim_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

// TestCorpusPartitioned runs every corpus design with partitioned kernels
// (Partition(always): every kernel with work for several lanes is
// partitioned, whatever the estimate) at 2, 3 and 4 lanes on both
// backends, in lock-step with the sequential kernels (sim.Shadow: every
// home, the output text and the outcome compared after every step), checks
// every plan with the independent plan checker, and compares the output
// with the golden.
func TestCorpusPartitioned(t *testing.T) {
	designs, err := filepath.Glob(filepath.Join(corpusDir, "*.sv"))
	if err != nil {
		t.Fatal(err)
	}
	var partitioned atomic.Int32
	for i, path := range designs {
		name := strings.TrimSuffix(filepath.Base(path), ".sv")
		if _, skip := corpusSkip[name]; skip {
			continue
		}
		lanes := 2 + i%3
		backend := []compile.BackendKind{compile.BackendInterp, compile.BackendNative}[i%2]
		t.Run(fmt.Sprintf("%s/lanes=%d/%s", name, lanes, backend), func(t *testing.T) {
			t.Parallel()
			gold, err := os.ReadFile(strings.TrimSuffix(path, ".sv") + ".out")
			if err != nil {
				t.Fatal(err)
			}
			got, p, err := runPartitioned(path, lanes, backend)
			if p != nil && p.Kernels.Parallel != nil && len(p.Kernels.Parallel.Kernels()) > 0 {
				partitioned.Add(1)
			}
			if err != nil {
				t.Fatalf("%v\noutput so far:\n%s", err, got)
			}
			if got != string(gold) {
				t.Errorf("output differs from the golden:\n%s", lineDiff(string(gold), got))
			}
		})
	}
	t.Cleanup(func() {
		if n := int(partitioned.Load()); n < len(designs)/2 {
			t.Errorf("only %d of %d corpus designs got a partitioned kernel", n, len(designs))
		}
	})
}

// runPartitioned builds path sequentially and partitioned for lanes,
// checks the plan, and ticks clk in lock-step until $finish.
func runPartitioned(path string, lanes int, backend compile.BackendKind) (string, *compile.Program, error) {
	var out bytes.Buffer
	ref, err := compile.NewBuilder().Files(path).Top("t").Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
	if err != nil {
		return "", nil, err
	}
	p, err := compile.NewBuilder().Files(path).Top("t").Threads(lanes).Partition(compile.PartitionAlways).
		Backend(backend).Output(&out).Build()
	if err != nil {
		ref.Close()
		return "", nil, err
	}
	defer p.Close()
	if err := plancheck.CheckProgram(p.Kernels); err != nil {
		ref.Close()
		return "", p, fmt.Errorf("plan: %w", err)
	}
	s := p.Sim
	if s.Finished() != ref.Sim.Finished() {
		ref.Close()
		return out.String(), p, fmt.Errorf("initial blocks: finished %v, reference %v", s.Finished(), ref.Sim.Finished())
	}
	if s.Finished() {
		ref.Close()
		return out.String(), p, nil
	}
	if err := s.Shadow(ref.Sim); err != nil {
		ref.Close()
		return out.String(), p, err
	}
	clk, ok := s.Lookup("clk")
	if !ok {
		return out.String(), p, errors.New("no input clk")
	}
	done, err := s.Tick(clk, corpusMaxCycles)
	if err == nil {
		return out.String(), p, fmt.Errorf("no $finish after %d cycles", done)
	}
	var fe *sim.FinishError
	if !errors.As(err, &fe) {
		return out.String(), p, err
	}
	if fe.Task != sir.EvFinish {
		return out.String(), p, fmt.Errorf("the run ended with %v, want $finish", fe)
	}
	return out.String(), p, nil
}
