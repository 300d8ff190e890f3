package kernels

import (
	"slices"
	"sort"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/program"
)

// shareSrc holds every form of continuous copy design.ShareCopies meets:
// the ones it removes and the ones it must keep.
const shareSrc = `
module share(input logic clk, input logic rst_n, input logic [2:0] wa, input logic [2:0] ra, input logic we,
             input logic [7:0] d, output logic [7:0] rd, output logic [7:0] q_out, output logic [7:0] chain_out,
             output logic [7:0] sum, output logic [7:0] kept_out, output logic [7:0] div_out, output logic [7:0] init_rd);
  // A register file: one flop per register gathered into an array read at
  // a run-time index (removed: the flops live in regs[1..7]); regs[0] is
  // a constant.
  wire [7:0] regs [0:7];
  assign regs[0] = 8'd0;
  for (genvar r = 1; r < 8; r++) begin : g_x
    logic [7:0] q;
    always_ff @(posedge clk or negedge rst_n)
      if (!rst_n) q <= 8'(r);
      else if (we && wa == r) q <= d + q;
    assign regs[r] = q;
  end
  assign rd = regs[ra];
  // A value read back from the array at a constant index.
  assign init_rd = regs[3] ^ g_x[5].q;

  // A flop driving an output (removed: q_out reads acc).
  logic [7:0] acc = 8'd0;
  always_ff @(posedge clk) acc <= acc + d;
  assign q_out = acc;

  // A chain of copies (removed link by link).
  logic [7:0] c1, c2, c3 = 8'd9;
  always_ff @(posedge clk) c3 <= d ^ c1;
  assign c2 = c3;
  assign c1 = c2;
  assign chain_out = c1;

  // Gathered into an array read only at constant indexes: kept.
  logic [7:0] parts [0:1];
  logic [7:0] p0, p1;
  always_ff @(posedge clk) begin p0 <= d; p1 <= p0; end
  assign parts[0] = p0;
  assign parts[1] = p1;
  assign sum = parts[0] + parts[1];

  // A comb-driven source: kept.
  logic [7:0] cw, cw2;
  assign cw = d + 8'd1;
  assign cw2 = cw;
  // A signedness change: kept.
  logic signed [7:0] sg;
  assign sg = acc;
  assign kept_out = cw2 ^ sg;

  // A copy that is a derived clock: kept.
  logic div = 1'b0, clk2;
  logic [7:0] dq = 8'd0;
  always_ff @(posedge clk) div <= ~div;
  assign clk2 = div;
  always_ff @(posedge clk2) dq <= dq + d;
  assign div_out = dq;

  // An initial block reading a removed home and the array (renamed too).
  logic [7:0] snap;
  initial snap = regs[2] ^ g_x[2].q ^ q_out;
endmodule
`

func TestShareCopies(t *testing.T) {
	d := elabSrc(t, "share", shareSrc)
	sd := design.ShareCopies(d)
	if sd == d {
		t.Fatal("nothing shared")
	}
	var gone []string
	for _, sh := range sd.Shared {
		gone = append(gone, sh.Gone.Name)
	}
	sort.Strings(gone)
	want := []string{"c1", "c2", "chain_out", "div_out", "q", "q", "q", "q", "q", "q", "q", "q_out"}
	if !slices.Equal(gone, want) {
		t.Fatalf("removed copies of %v, want %v", gone, want)
	}
	for _, name := range []string{"parts", "p0", "cw", "cw2", "sg", "clk2", "div"} {
		h, _ := d.Lookup("share." + name)
		if _, ok := sd.Shares(h); ok {
			t.Errorf("%s shares storage; its copy must stay", name)
		}
	}
	q3, _ := d.Lookup("share.g_x[3].q")
	if at, ok := sd.Shares(q3); !ok || at.Home.Name != "regs" || at.Elem != 3 {
		t.Fatalf("g_x[3].q shares %v %v, want regs[3]", at, ok)
	}
	if len(d.Comb) == len(sd.Comb) {
		t.Fatal("the design given was changed, or nothing removed")
	}
	if errs := design.Check(sd); len(errs) > 0 {
		t.Fatal(errs)
	}
	// The removed homes read (the reference runs the design as written)
	// and behave like the copies on every state bit after every step,
	// against Icarus too.
	runDiff(t, diffCase{name: "share", top: "share", srcs: []string{shareSrc}, clk: "clk", cycles: 200, seed: 5, skip: 6, gen: inPlaceGen()})
}

// TestShareCopiesSignals: the exported signals say where a removed home
// lies and which elements a removed copy drove, and Force stays refused
// on those (forcing one would move its source).
func TestShareCopiesSignals(t *testing.T) {
	d := elabSrc(t, "share", shareSrc)
	p := mustBuild(t, d, Options{})
	prog, err := p.Export()
	if err != nil {
		t.Fatal(err)
	}
	sig := func(name string) *program.Signal {
		s, ok := prog.Lookup(name)
		if !ok {
			t.Fatalf("no signal %s", name)
		}
		return s
	}
	regs, q3, qout, acc := sig("regs"), sig("g_x[3].q"), sig("q_out"), sig("acc")
	if q3.Shares == nil || prog.Signals[q3.Shares.Signal] != regs || q3.Shares.Elem != 3 {
		t.Fatalf("g_x[3].q shares %+v", q3.Shares)
	}
	if qout.Shares == nil || prog.Signals[qout.Shares.Signal] != acc {
		t.Fatalf("q_out shares %+v", qout.Shares)
	}
	if len(regs.Copies) != 7 || regs.Copies[0].From == "" {
		t.Fatalf("regs copies %+v", regs.Copies)
	}
	if len(qout.Copies) != 1 || qout.Copies[0].From != "share.acc" {
		t.Fatalf("q_out copies %+v", qout.Copies)
	}
	comb := func(s *program.Signal, elem int) *program.ForceLimit {
		for i, l := range s.NoForce {
			if l.ElemLo <= elem && elem <= l.ElemHi {
				return &s.NoForce[i]
			}
		}
		return nil
	}
	if l := comb(regs, 3); l == nil || l.Reason != program.ForceComb || !slices.Equal(l.Drivers, []string{"share.g_x[3].q"}) {
		t.Fatalf("regs[3] force limit %+v", l)
	}
	if l := comb(q3, 0); l != nil {
		t.Fatalf("g_x[3].q (a flop) may be forced, limit %+v", l)
	}
	if l := comb(qout, 0); l == nil || l.Reason != program.ForceComb {
		t.Fatalf("q_out force limit %+v", l)
	}
	// The layout puts the removed homes where they share.
	if got, want := p.Layout.Home(q3home(t, d)).Offset, p.Layout.Home(regsHome(t, d)).Elem(3); got != want {
		t.Fatalf("g_x[3].q at %d, regs[3] at %d", got, want)
	}
}

func q3home(t *testing.T, d *design.Design) *design.Home {
	h, ok := d.Lookup("share.g_x[3].q")
	if !ok {
		t.Fatal("no g_x[3].q")
	}
	return h
}

func regsHome(t *testing.T, d *design.Design) *design.Home {
	h, ok := d.Lookup("share.regs")
	if !ok {
		t.Fatal("no regs")
	}
	return h
}

// TestKeepCopies: with KeepCopies every copy stays a process and every
// home has storage of its own.
func TestKeepCopies(t *testing.T) {
	d := elabSrc(t, "share", shareSrc)
	p := mustBuild(t, d, Options{KeepCopies: true})
	if p.Design != d || len(p.Design.Shared) != 0 {
		t.Fatal("copies removed")
	}
}
