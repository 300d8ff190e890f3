package kernels

import (
	"math/big"
	"math/rand"
	"slices"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/slt"
)

// Flops updated in place (slt InPlace) next to flops that must stay staged,
// each for its own reason; the staged ones are forced in place below to
// show the differential checks would catch a wrong decision.
const inPlaceSrc = `
module inplace #(parameter N = 16) (
  input  logic clk, rst_n,
  input  logic [7:0] a, b,
  input  logic [2:0] n,
  input  logic [1:0] s,
  output logic [7:0] y_own, y_other, y_loop, y_fn, y_after, y_bits, y_half, y_case, y_div, y_sum, y_wide, y_arr
);
  // One process per element, each reading only its own: in place.
  logic [7:0] cnt [0:N-1];
  for (genvar j = 0; j < N; j++) begin : g
    always_ff @(posedge clk or negedge rst_n)
      if (!rst_n) cnt[j] <= 8'(j);
      else cnt[j] <= cnt[j] + 8'(j + 1);
  end
  always_comb begin
    y_sum = 0;
    for (int i = 0; i < N; i++) y_sum = y_sum ^ cnt[i];
  end

  // Element 2 is read by another process of the same edge: staged.
  logic [7:0] sh [0:3];
  for (genvar j = 0; j < 4; j++) begin : gs
    always_ff @(posedge clk) sh[j] <= rst_n ? sh[j] + a + 8'(j) : 8'd0;
  end
  always_ff @(posedge clk) y_other <= sh[2] ^ b;

  // Read by their writers after the write: no register holds the first,
  // and the second is an array: staged.
  logic [95:0] wide = 0;
  always_ff @(posedge clk) begin
    wide <= {wide[87:0], a};
    y_wide <= wide[95:88] ^ wide[7:0];
  end
  logic [7:0] arr [0:1];
  initial begin arr[0] = 0; arr[1] = 0; end
  always_ff @(posedge clk) begin
    arr[0] <= a;
    arr[1] <= arr[0] + b;
    y_arr <= arr[1];
  end

  // The processes below read their targets after writing them: they read
  // copies taken when they start (slt FFProc.Snapshot).
  // Read by its writer after the write.
  logic [7:0] own = 0;
  always_ff @(posedge clk) begin
    own <= a + own;
    y_own <= own;
  end

  // A run-time bounded loop: a later iteration reads an earlier write.
  logic [7:0] acc = 1, yl = 2;
  assign y_loop = yl;
  always_ff @(posedge clk) begin
    for (int i = 0; i < n; i++) begin
      yl <= acc;
      acc <= acc + b;
    end
  end

  // A function reading the target after the write.
  logic [7:0] fv = 3;
  function automatic logic [7:0] peek(input logic [7:0] k);
    return fv ^ k;
  endfunction
  always_ff @(posedge clk) begin
    fv <= fv + a;
    y_fn <= peek(b);
  end

  // Written on one path, read after the join.
  logic [7:0] ca = 4;
  always_ff @(posedge clk) begin
    if (a[0]) ca <= b;
    y_after <= ca;
  end

  // Two processes own the halves of one byte; one also reads a bit range
  // after writing another: all in place.
  logic [7:0] pk = 5, hb = 6;
  always_ff @(posedge clk) pk[3:0] <= pk[3:0] + a[3:0];
  always_ff @(posedge clk) pk[7:4] <= pk[7:4] ^ b[3:0];
  always_ff @(posedge clk) begin
    hb[7:4] <= a[7:4];
    hb[3:0] <= hb[3:0] + 4'd1;
  end
  assign y_bits = pk;
  assign y_half = hb;

  // Case arms and a reset branch each read the pre-edge value: in place.
  logic [7:0] cs;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) cs <= 0;
    else case (s)
      2'd0: cs <= a;
      2'd1: cs <= cs + b;
      2'd2: cs <= cs - 8'd1;
      default: ;
    endcase
  assign y_case = cs;

  // A derived clock stays staged; what it clocks is in place.
  logic div;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) div <= 0;
    else div <= ~div;
  logic [7:0] dq = 7;
  always_ff @(posedge div) dq <= dq + a;
  assign y_div = dq;
endmodule
`

var (
	inPlaceWant = []string{"acc", "ca", "cnt", "cs", "dq", "fv", "hb", "own", "pk", "y_after", "y_arr", "y_fn", "y_other", "y_own", "y_wide", "yl"}
	// snapshotWant are in place, read by their writer from a copy.
	snapshotWant = []string{"acc", "ca", "fv", "own"}
	// stagedWant are staged for a reason a forced in-place update exposes
	// (div, a trigger, is staged as a precaution: see slt.inPlace).
	stagedWant = []string{"arr", "sh", "wide"}
)

func inPlaceGen() map[string]func(int, *rand.Rand, int) *big.Int {
	return map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}
}

func TestInPlaceVsMachine(t *testing.T) {
	runDiff(t, diffCase{name: "inplace", top: "inplace", srcs: []string{inPlaceSrc}, clk: "clk", cycles: 200, seed: 11, skip: 4, gen: inPlaceGen()})
}

// inPlaceHomes lists the short names of the homes with InPlace targets.
func inPlaceHomes(s *slt.Schedule) []string {
	var out []string
	for _, g := range s.FF {
		for _, a := range g.InPlace {
			name := a.Home.Path[len("inplace."):]
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

func TestInPlaceDecisions(t *testing.T) {
	d := elabInputs(t, "inplace", nil, []hdl.Input{{Name: "inplace.sv", Src: []byte(inPlaceSrc)}})
	s, err := slt.Analyze(d, slt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := inPlaceHomes(s); !slices.Equal(got, inPlaceWant) {
		t.Errorf("in place: %v, want %v\n%s", got, inPlaceWant, s.Dump())
	}
	p := mustBuild(t, d, Options{})
	for _, name := range inPlaceWant {
		if h, _ := d.Lookup("inplace." + name); p.Layout.Space().Staging(h) != nil {
			t.Errorf("%s is in place but has a staging copy", name)
		}
	}
	for _, name := range append([]string{"div"}, stagedWant...) {
		if h, _ := d.Lookup("inplace." + name); p.Layout.Space().Staging(h) == nil {
			t.Errorf("%s has no staging copy", name)
		}
	}
	var snaps []string
	for _, g := range s.FF {
		for _, fp := range g.Evaluate {
			for _, h := range fp.Snapshot {
				snaps = append(snaps, h.Path[len("inplace."):])
			}
		}
	}
	slices.Sort(snaps)
	if !slices.Equal(snaps, snapshotWant) {
		t.Errorf("snapshots: %v, want %v", snaps, snapshotWant)
	}
	s, err = slt.Analyze(d, slt.Options{NoSnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range snapshotWant {
		if slices.Contains(inPlaceHomes(s), name) {
			t.Errorf("NoSnapshot: %s in place", name)
		}
	}
	s, err = slt.Analyze(d, slt.Options{StageAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := inPlaceHomes(s); len(got) != 0 {
		t.Errorf("StageAll: in place %v", got)
	}
}

// TestInPlaceWrongDecisionsCaught forces each home that must stay staged
// into InPlace, and makes each snapshot home's writer read the updated
// home, and checks that the comparison with the design.Machine reference
// fails: the differential suites would catch an analysis that got any of
// these cases wrong.
func TestInPlaceWrongDecisionsCaught(t *testing.T) {
	d := elabInputs(t, "inplace", nil, []hdl.Input{{Name: "inplace.sv", Src: []byte(inPlaceSrc)}})
	c := diffCase{name: "inplace", clk: "clk", cycles: 60, seed: 11, gen: inPlaceGen()}
	ps := topPorts(d)
	stim := c.stimulus(ps)
	for _, name := range append(append([]string(nil), stagedWant...), snapshotWant...) {
		t.Run(name, func(t *testing.T) {
			s, err := slt.Analyze(d, slt.Options{})
			if err != nil {
				t.Fatal(err)
			}
			h, _ := d.Lookup("inplace." + name)
			moved := false
			for _, g := range s.FF {
				for _, fp := range g.Evaluate {
					if i := slices.Index(fp.Snapshot, h); i >= 0 {
						fp.Snapshot = slices.Delete(fp.Snapshot, i, i+1) // read the updated home instead
						moved = true
					}
				}
				keep := g.Staged[:0]
				for _, a := range g.Staged {
					if a.Home == h {
						g.InPlace = append(g.InPlace, a)
						moved = true
					} else {
						keep = append(keep, a)
					}
				}
				g.Staged = keep
				g.Apply = slices.DeleteFunc(g.Apply, func(a design.Access) bool { return a.Home == h })
			}
			if !moved {
				t.Fatalf("%s is neither staged nor read from a snapshot", name)
			}
			p, err := BuildSchedule(d, s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			dr, ref := newDriver(t, p), newRefSim(t, d)
			for _, vals := range stim {
				i := 0
				for _, pt := range ps {
					if !pt.input || pt.name == "clk" {
						continue
					}
					dr.setBig(pt.name, vals[i])
					ref.set(pt.name, vals[i])
					i++
				}
				for _, clk := range []int64{1, 0} {
					dr.set("clk", uint64(clk))
					ref.set("clk", big.NewInt(clk))
					dr.step()
					ref.step()
					for _, x := range d.Homes {
						for e := 0; e < x.Elems(); e++ {
							if dr.lay.Get(dr.state, x, e).Cmp(ref.get(x, e)) != 0 {
								t.Logf("caught: %s[%d] differs from the reference", x.Path, e)
								return
							}
						}
					}
				}
			}
			t.Errorf("%s forced in place: no difference from the reference in %d cycles", name, len(stim))
		})
	}
}

// Flops written on every path are not copied in before evaluate; one
// written on some paths must be. Claiming the conditional one is written
// on every path (mustWriteHook) must be caught by the reference.
const mustWriteSrc = `
module mustw (input logic clk, rst_n, input logic [7:0] a, b, output logic [7:0] y);
  logic [7:0] always_w = 0, some_w;
  // Set after the staging copies were made equal to their flops: only a
  // copy-in before evaluate carries it into some_w's staging copy.
  initial some_w = 8'h5a ^ a;
  always_ff @(posedge clk) if (a[0]) always_w <= a; else always_w <= b;
  always_ff @(posedge clk) if (a[1]) some_w <= b;
  // Both are read by another process, so both are staged.
  always_ff @(posedge clk) y <= always_w ^ some_w;
endmodule
`

func TestMustWriteVsMachine(t *testing.T) {
	runDiff(t, diffCase{name: "mustw", top: "mustw", srcs: []string{mustWriteSrc}, clk: "clk", cycles: 100, seed: 13,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen, "a": func(k int, r *rand.Rand, w int) *big.Int {
			if k < 3 {
				return big.NewInt(0) // some_w left alone at first: its initial value must survive
			}
			return big.NewInt(int64(r.Intn(256)))
		}}})
}

func TestMustWriteWrongCaught(t *testing.T) {
	d := elabInputs(t, "mustw", nil, []hdl.Input{{Name: "mustw.sv", Src: []byte(mustWriteSrc)}})
	some, _ := d.Lookup("mustw.some_w")
	mustWriteHook = func(p *design.Process, must []design.Access) []design.Access {
		for _, a := range p.Writes {
			if a.Home == some {
				return append(must, a)
			}
		}
		return must
	}
	defer func() { mustWriteHook = nil }()
	p := mustBuild(t, d, Options{})
	dr, ref := newDriver(t, p), newRefSim(t, d)
	r := rand.New(rand.NewSource(5))
	for k := 0; k < 50; k++ {
		for _, in := range []string{"a", "b"} {
			v := big.NewInt(int64(r.Intn(256)))
			if k == 0 {
				v.SetInt64(0) // a[1] = 0: the first edge leaves some_w alone
			}
			dr.setBig(in, v)
			ref.set(in, v)
		}
		for _, clk := range []int64{1, 0} {
			dr.set("clk", uint64(clk))
			ref.set("clk", big.NewInt(clk))
			dr.step()
			ref.step()
		}
		if dr.lay.Get(dr.state, some, 0).Cmp(ref.get(some, 0)) != 0 {
			return
		}
	}
	t.Errorf("some_w claimed written on every path: no difference from the reference")
}
