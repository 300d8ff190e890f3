package sim_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/icarus"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

// The semantics corpus: sim/testdata/corpus/NN_name.sv are small
// self-stimulating designs (top module t, one input clk) that $display the
// values under test and call $finish; NN_name.out is the expected output.
// Goldens come from Icarus Verilog (go test ./sim -run TestCorpus -update
// regenerates them) except for designs whose first line is
// "// golden: hand": they use what Icarus prints as x (weft is 2-state: x
// and z read as 0, out-of-range reads 0, a zero divisor gives 0) or
// constructs Icarus 11 lacks, and their expected output is written (and
// checked) by hand; the design's header says why.
//
// Every design is run through weft and compared with its golden; when
// iverilog is installed, every Icarus-golden design is also run through
// Icarus and compared with the golden (differential), and when Verilator 5
// is, every design runs through Verilator too (TestCorpusVerilator, with
// its list of known Verilator departures).

var updateCorpus = flag.Bool("update", false, "regenerate the corpus goldens (testdata/corpus/*.out) with Icarus Verilog")

const (
	corpusDir       = "testdata/corpus"
	corpusMaxCycles = 10000
	handGolden      = "// golden: hand"
)

// corpusSkip lists designs that reveal weft bugs: the golden is the
// correct output, the weft half of the subtest is skipped with the reason
// (and fails once weft gets it right, so that the entry is removed).
var corpusSkip = map[string]string{}

// corpusTB is the Icarus wrapper: it toggles clk with the same timing as
// sim.Tick (posedge at time 1, negedge at 2, ...). The instance is named t
// so that %m prints corpus_tb.t..., which runIcarus maps to weft's t... .
const corpusTB = `
module corpus_tb;
  bit clk = 0;
  t t(.clk(clk));
  always #1 clk = ~clk;
  initial begin
    #%d;
    $display("CORPUS TIMEOUT");
    $finish;
  end
endmodule
`

var finishMsg = regexp.MustCompile(`(?m)^[^\n]*: \$finish called at [0-9]+ \([^)]*\)\n`)

func TestCorpus(t *testing.T) {
	designs, err := filepath.Glob(filepath.Join(corpusDir, "*.sv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(designs) < 60 {
		t.Fatalf("corpus has %d designs, want at least 60", len(designs))
	}
	lookErr := icarus.Available()
	if lookErr == nil && !tier.Long() && !*updateCorpus {
		lookErr = fmt.Errorf("long tier (%s=1)", tier.Env)
	}
	haveIcarus := lookErr == nil
	if !haveIcarus {
		if *updateCorpus {
			t.Fatalf("-update needs Icarus Verilog: %v", lookErr)
		}
		t.Logf("%v: the Icarus differential half of TestCorpus is skipped", lookErr)
	}
	for _, path := range designs {
		name := strings.TrimSuffix(filepath.Base(path), ".sv")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			hand := strings.HasPrefix(string(src), handGolden)
			goldPath := strings.TrimSuffix(path, ".sv") + ".out"
			if haveIcarus && !hand {
				icarus, err := runIcarus(t, path)
				if err != nil {
					t.Fatal(err)
				}
				if *updateCorpus {
					if err := os.WriteFile(goldPath, []byte(icarus), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				gold, err := os.ReadFile(goldPath)
				if err != nil {
					t.Fatal(err)
				}
				if icarus != string(gold) {
					t.Errorf("Icarus output differs from the golden %s:\n%s", goldPath, lineDiff(string(gold), icarus))
				}
			}
			gold, err := os.ReadFile(goldPath)
			if err != nil {
				t.Fatal(err)
			}
			got, err := runWeft(path)
			if reason, ok := corpusSkip[name]; ok {
				if err == nil && got == string(gold) {
					t.Fatalf("weft now matches the golden: remove %s from corpusSkip (%s)", name, reason)
				}
				t.Skip(reason)
			}
			if err != nil {
				t.Fatalf("weft: %v\noutput so far:\n%s", err, got)
			}
			if got != string(gold) {
				t.Errorf("weft output differs from the golden %s:\n%s", goldPath, lineDiff(string(gold), got))
			}
		})
	}
}

// runWeft compiles the design and toggles clk until $finish.
func runWeft(path string) (string, error) {
	var out bytes.Buffer
	p, err := compile.NewBuilder().Files(path).Top("t").Output(&out).Build()
	if err != nil {
		return out.String(), err
	}
	defer p.Close()
	s := p.Sim
	if !s.Finished() {
		clk, ok := s.Lookup("clk")
		if !ok {
			return out.String(), errors.New("no input clk")
		}
		done, err := s.Tick(clk, corpusMaxCycles)
		if err == nil {
			return out.String(), fmt.Errorf("no $finish after %d cycles", done)
		}
		var fe *sim.FinishError
		if !errors.As(err, &fe) {
			return out.String(), err
		}
	}
	if fe := s.Finish(); fe.Task != sir.EvFinish {
		return out.String(), fmt.Errorf("the run ended with %v, want $finish", fe)
	}
	return out.String(), nil
}

// runIcarus runs the design under the corpus wrapper in Icarus Verilog
// (from the package directory, like weft, so $readmemh paths agree).
func runIcarus(t *testing.T, path string) (string, error) {
	dir := t.TempDir()
	tb := filepath.Join(dir, "corpus_tb.sv")
	if err := os.WriteFile(tb, fmt.Appendf(nil, corpusTB, 2*corpusMaxCycles+2), 0o644); err != nil {
		return "", err
	}
	vvp, err := icarus.Compile(dir, "corpus_tb", path, tb)
	if err != nil {
		return "", err
	}
	stdout, err := icarus.Run(vvp, "")
	if err != nil {
		return "", err
	}
	out := finishMsg.ReplaceAllString(string(stdout), "")
	if strings.Contains(out, "CORPUS TIMEOUT") {
		return "", fmt.Errorf("icarus: no $finish after %d cycles", corpusMaxCycles)
	}
	return strings.ReplaceAll(out, "corpus_tb.", ""), nil
}

// lineDiff shows the first differing lines of want and got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 8; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || (i >= len(w)) != (i >= len(g)) {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			shown++
		}
	}
	if len(w) != len(g) {
		fmt.Fprintf(&b, "(%d lines, want %d)\n", len(g), len(w))
	}
	return b.String()
}

// TestCorpusStatus covers the outcomes that have no golden output: a comb
// loop that never settles, a derived clock that never quiets, $finish,
// $stop and $fatal, and a front-end error.
func TestCorpusStatus(t *testing.T) {
	run := func(t *testing.T, src string, cycles int) (string, int, error) {
		t.Helper()
		var out bytes.Buffer
		p, err := compile.NewBuilder().Source("s.sv", src).Output(&out).Build()
		if err != nil {
			return out.String(), 0, err
		}
		defer p.Close()
		clk, ok := p.Sim.Lookup("clk")
		if !ok {
			t.Fatal("no clk")
		}
		done, err := p.Sim.Tick(clk, cycles)
		return out.String(), done, err
	}

	t.Run("comb_loop_never_settles", func(t *testing.T) {
		out, done, err := run(t, `
module t(input logic clk);
  logic [3:0] cnt = 4'd0;
  logic x, y;
  assign x = ~y & cnt[2];   // oscillates once cnt[2] is set
  assign y = x;
  always_ff @(posedge clk) cnt <= cnt + 4'd1;
  always @(posedge clk) $display("cnt=%0d", cnt);
endmodule`, 100)
		var se *sim.Error
		if err == nil || !errors.As(err, &se) {
			t.Fatalf("err = %v, want a *sim.Error", err)
		}
		msg := err.Error()
		for _, want := range []string{"did not settle", "t.x", "t.y", "s.sv:5"} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q does not contain %q", msg, want)
			}
		}
		if errors.Is(err, sim.ErrFinished) {
			t.Errorf("a comb loop is not a finish: %v", err)
		}
		if done != 4 || out != "cnt=0\ncnt=1\ncnt=2\ncnt=3\n" {
			t.Errorf("after %d cycles, output %q", done, out)
		}
	})

	t.Run("derived_clock_oscillates", func(t *testing.T) {
		_, _, err := run(t, `
module t(input logic clk);
  logic go = 1'b0, q = 1'b0;
  logic c;
  assign c = q ^ go;
  always_ff @(posedge clk) go <= 1'b1;
  always @(posedge c or negedge c) q <= ~q;   // every edge of c toggles c
endmodule`, 3)
		var oe *sim.OscillationError
		if !errors.As(err, &oe) {
			t.Fatalf("err = %v, want an *sim.OscillationError", err)
		}
		if !strings.Contains(err.Error(), "t.c") {
			t.Errorf("error %q does not name t.c", err)
		}
	})

	t.Run("finish", func(t *testing.T) {
		out, done, err := run(t, `
module t(input logic clk);
  int n = 0;
  always_ff @(posedge clk) n <= n + 1;
  always @(posedge clk) if (n == 5) begin
    $display("bye %0d", n);
    $finish(1);
  end
endmodule`, 100)
		var fe *sim.FinishError
		if !errors.As(err, &fe) || !errors.Is(err, sim.ErrFinished) {
			t.Fatalf("err = %v, want a *sim.FinishError", err)
		}
		if fe.Task != sir.EvFinish || fe.Code != 1 || fe.Fatal() || fe.Pos.Line != 7 || done != 6 {
			t.Errorf("finish %+v after %d cycles", fe, done)
		}
		if out != "bye 5\n" {
			t.Errorf("output %q", out)
		}
	})

	t.Run("stop", func(t *testing.T) {
		_, done, err := run(t, `
module t(input logic clk);
  int n = 0;
  always_ff @(posedge clk) n <= n + 1;
  always @(negedge clk) if (n == 2) $stop;
endmodule`, 100)
		var fe *sim.FinishError
		if !errors.As(err, &fe) || fe.Task != sir.EvStop || fe.Fatal() || done != 2 {
			t.Fatalf("err = %v after %d cycles, want $stop in cycle 2", err, done)
		}
	})

	t.Run("fatal", func(t *testing.T) {
		out, done, err := run(t, `
module t(input logic clk);
  logic [3:0] n = 4'd0;
  always_ff @(posedge clk) n <= n + 4'd1;
  always @(posedge clk) begin
    if (n == 4'd2) $error("odd state %0d", n);
    if (n == 4'd3) $fatal(2, "dead at %0d", n);
  end
endmodule`, 100)
		var fe *sim.FinishError
		if !errors.As(err, &fe) || !fe.Fatal() || fe.Task != sir.EvFatal || fe.Code != 2 || done != 4 {
			t.Fatalf("err = %v after %d cycles, want $fatal(2) in cycle 4", err, done)
		}
		want := "ERROR: s.sv:6: odd state 2\nFATAL: s.sv:7: dead at 3\n"
		if out != want {
			t.Errorf("output %q, want %q", out, want)
		}
	})

	t.Run("front_end_error", func(t *testing.T) {
		_, _, err := run(t, `
module t(input logic clk);
  logic [3:0] n = 4'd0;
  always_ff @(posedge clk) n <= m + 4'd1;
endmodule`, 1)
		if err == nil || !strings.Contains(err.Error(), "s.sv:4") || !strings.Contains(err.Error(), "'m'") {
			t.Fatalf("err = %v, want an unknown-identifier error at s.sv:4", err)
		}
	})
}
