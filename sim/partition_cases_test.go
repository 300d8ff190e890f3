package sim_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/ordering"
)

// heavy is a comb expression of one 16-bit input that costs a few dozen
// instructions; heavy(heavy(x)) costs more than the partitioner's slack,
// so that it has a reason to spread independent users over lanes.
func heavy(x string) string {
	return fmt.Sprintf("((%[1]s * 16'd7 + 16'd3) ^ (%[1]s >> 3)) * ((%[1]s + 16'd11) | 16'd1) + (%[1]s << 2)", x)
}

// chain is an always_comb computing v from x in n dependent steps: work
// that outweighs a cross-lane wait.
func chain(v, x string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "always_comb begin %s = %s;", v, x)
	for i := range n {
		fmt.Fprintf(&b, " %[1]s = (%[1]s * 16'd%[2]d + 16'd3) ^ (%[1]s >> 3);", v, 2*i+5)
	}
	b.WriteString(" end")
	return b.String()
}

// block is a generate block name with a comb chain of n steps from x and
// a counter c that prints under a reset if.
func block(name, x, c string, k, n int) string {
	return fmt.Sprintf(`
  if (1) begin : %[1]s
    logic [15:0] w;
    %[2]s
    always_ff @(posedge clk) if (rst) %[3]s <= 16'd%[4]d; else begin %[3]s <= %[3]s + w; if (%[3]s[1:0] == 2'd%[4]d) $display("%[1]s %%0d", %[3]s); end
  end`, name, chain("w", x, n), c, k)
}

// partitionCase is one of the seed's edge cases as a design and what its
// two-lane partition must look like.
type partitionCase struct {
	name  string
	src   string // module t(input clk, input [15:0] x, input [15:0] y, ...)
	check func(t *testing.T, c *caseProgram)
}

// caseProgram is a case's program with lookups into its partition.
type caseProgram struct {
	*compile.Program
	kp *kernels.Program
}

// settleLanes lists, ascending and without repeats, the lanes of the
// partitioned settle's tasks that write any byte of element elem of the
// named home (elem < 0: any element).
func (c *caseProgram) settleLanes(t *testing.T, name string, elem int) []int {
	t.Helper()
	if c.kp.Parallel == nil || c.kp.Parallel.Settle == nil {
		t.Fatalf("the settle is not partitioned: %v", c.kp.Parallel.Reasons)
	}
	h, ok := c.Sim.Lookup(name)
	if !ok {
		t.Fatalf("no home %s", name)
	}
	s := c.Program.Program.Layout.Signal(h.ID)
	r := ordering.Range{Lo: s.Offset, Hi: s.Offset + s.Size()}
	if elem >= 0 {
		r = ordering.Range{Lo: s.Elem(elem), Hi: s.Elem(elem) + s.ElemSize}
	}
	var out []int
	for _, task := range c.kp.Parallel.Settle.Tasks() {
		for _, w := range task.Effects.Writes {
			if w.Overlaps(r) && !slices.Contains(out, task.Lane) {
				out = append(out, task.Lane)
			}
		}
	}
	slices.Sort(out)
	if len(out) == 0 {
		t.Fatalf("no settle task writes %s[%d]", name, elem)
	}
	return out
}

// ringLanes lists the lanes whose settle tasks write their event ring.
func (c *caseProgram) ringLanes() []int {
	lay := c.Program.Program.Layout
	var out []int
	for _, task := range c.kp.Parallel.Settle.Tasks() {
		ring := lay.Object(c.kp.Parallel.Rings[task.Lane])
		rr := ordering.Range{Lo: ring.Offset, Hi: ring.Offset + ring.Size()}
		for _, w := range task.Effects.Writes {
			if w.Overlaps(rr) && !slices.Contains(out, task.Lane) {
				out = append(out, task.Lane)
			}
		}
	}
	slices.Sort(out)
	return out
}

var partitionCases = []partitionCase{
	{
		name: "disjoint array elements split across lanes",
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [15:0] o0, output logic [15:0] o1);
  logic [15:0] m [2];
  always_comb m[0] = ` + heavy(heavy("x")) + `;
  always_comb m[1] = ` + heavy(heavy("y")) + `;
  assign o0 = m[0];
  assign o1 = m[1];
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			l0, l1 := c.settleLanes(t, "t.m", 0), c.settleLanes(t, "t.m", 1)
			if len(l0) != 1 || len(l1) != 1 || l0[0] == l1[0] {
				t.Errorf("m[0] written on lanes %v, m[1] on %v: want one different lane each", l0, l1)
			}
		},
	},
	{
		name: "overlapping writers forced together",
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [7:0] v);
  always_comb v[3:0] = 4'(` + heavy("x") + `);
  always_comb v[7:4] = 4'(` + heavy("y") + `);
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			if l := c.settleLanes(t, "t.v", -1); len(l) != 1 {
				t.Errorf("the two writers of v's byte run on lanes %v: want one", l)
			}
		},
	},
	{
		name: "an event signal on lane 0, events on any lane",
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [15:0] a, output logic [15:0] b, output logic gclk, output logic [7:0] n);
  assign a = ` + heavy("x") + `;
  assign b = ` + heavy("y") + `;
  always_comb if (b[3:0] == 4'd5) $display("b=%0d", b);
  assign gclk = clk & a[0];
  always_ff @(posedge gclk) n <= n + 8'd1;
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			if len(c.ringLanes()) == 0 {
				t.Error("no settle task writes an event ring")
			}
			if l := c.settleLanes(t, "t.gclk", -1); !slices.Equal(l, []int{0}) {
				t.Errorf("the event signal gclk is stored on lanes %v: want [0]", l)
			}
		},
	},
	{
		name: "a comb observer joined with its producer",
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [15:0] a, output logic [15:0] b);
  assign a = ` + heavy("x") + `;
  assign b = ` + heavy("y") + `;
  always_comb $display("a=%0d", a);
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			var joined *lanes.Item
			for i := range c.kp.Parallel.Comb.Items {
				if it := &c.kp.Parallel.Comb.Items[i]; strings.Contains(it.Why, "observer") {
					joined = it
				}
			}
			if joined == nil {
				t.Fatalf("no item joins the observer: %+v", c.kp.Parallel.Comb.Items)
			}
			if len(joined.Nodes) != 2 || joined.Lane0 {
				t.Errorf("observer item %+v: want the producer and the observer, not pinned to lane 0", *joined)
			}
			if l, r := c.settleLanes(t, "t.a", -1), c.ringLanes(); len(l) != 1 || !slices.Equal(l, r) {
				t.Errorf("a, the observed value, is written on lanes %v and events on %v: want the observer's one lane", l, r)
			}
		},
	},
	{
		name: "several lanes print in one step",
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [15:0] a, output logic [15:0] b);
  ` + chain("a", "x", 300) + `
  ` + chain("b", "y", 300) + `
  always_comb if (a[1:0] != 2'd3) $display("a=%0d", a);
  always_comb if (b[1:0] != 2'd1) $display("b=%0d", b);
  always_ff @(posedge clk) begin $write("ff a=%0d", a); $display(" b=%0d", b); end
  always_ff @(posedge clk) if (x[0]) $display("ff x=%0d", x);
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			if l := c.ringLanes(); !slices.Equal(l, []int{0, 1}) {
				t.Errorf("the settle's events are written on lanes %v: want both", l)
			}
		},
	},
	{
		name: "replicas that print under a shared reset condition",
		// One module, four generate blocks, each a comb chain (heavy for
		// g1 and g2, light for g3 and g4) and a counter that prints under
		// the same reset if: one trigger group whose parts follow their
		// block's comb lane, so one lane evaluates two blocks as one run
		// while a block between them in sequential order prints on the
		// other lane. The run must stop where its events' key would lie.
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [15:0] a, b, c, d);
  logic rst;
  assign rst = y[15] & y[14];
  ` + block("g1", "x", "a", 1, 60) + block("g2", "x ^ y", "b", 2, 60) + block("g3", "y", "c", 3, 20) + block("g4", "x + y", "d", 0, 20) + `
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			var seq []int
			changes := 0
			for i, u := range []string{"u1", "u2", "u3", "u4"} {
				l := c.settleLanes(t, "t."+strings.Replace(u, "u", "g", 1)+".w", -1)
				if len(l) != 1 {
					t.Fatalf("%s computed on lanes %v", u, l)
				}
				if seq = append(seq, l[0]); i > 0 && seq[i] != seq[i-1] {
					changes++
				}
			}
			if changes < 2 {
				t.Errorf("u1..u4 computed on lanes %v: want a lane holding two instances another lane's instance lies between", seq)
			}
		},
	},
	{
		name: "a shared expensive value joined",
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [15:0] hi, output logic [15:0] lo, output logic [15:0] b);
  assign {hi, lo} = {` + heavy("x") + `, ` + heavy("x ^ 16'h5a5a") + `};
  assign b = ` + heavy("y") + `;
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			shared := 0
			for _, it := range c.kp.Parallel.Comb.Items {
				if strings.Contains(it.Why, "shared value") {
					shared++
				}
			}
			if shared != 1 {
				t.Errorf("%d items join a shared value: %+v", shared, c.kp.Parallel.Comb.Items)
			}
			hi, lo := c.settleLanes(t, "t.hi", -1), c.settleLanes(t, "t.lo", -1)
			if len(hi) != 1 || !slices.Equal(hi, lo) {
				t.Errorf("hi on lanes %v, lo on %v: want one lane for both", hi, lo)
			}
		},
	},
	{
		name: "a cheap shared value recomputed",
		src: `module t(input logic clk, input logic [15:0] x, input logic [15:0] y, output logic [15:0] p, output logic [15:0] q);
  logic [7:0] hi, lo;
  assign {hi, lo} = x;
  assign p = ` + heavy(heavy(heavy(heavy("{hi, y[7:0]}")))) + `;
  assign q = ` + heavy(heavy(heavy(heavy("{y[15:8], lo}")))) + `;
endmodule`,
		check: func(t *testing.T, c *caseProgram) {
			for _, it := range c.kp.Parallel.Comb.Items {
				if strings.Contains(it.Why, "shared value") {
					t.Errorf("a slice of an input was joined as a shared value: %+v", it)
				}
			}
			if p, q := c.settleLanes(t, "t.p", -1), c.settleLanes(t, "t.q", -1); len(p) != 1 || len(q) != 1 || p[0] == q[0] {
				t.Errorf("p on lanes %v, q on %v: want different lanes, each recomputing its slice", p, q)
			}
		},
	},
}

// TestPartitionCases builds each of the seed's edge cases for two lanes
// (Partition(always)) on both backends, checks the shape of its partition
// and the plan, and runs it against the sequential interpreter under
// random stimulus, comparing every home and the output text (the runtime
// events of several lanes merged) after every step (Shadow).
func TestPartitionCases(t *testing.T) {
	for _, pc := range partitionCases {
		for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
			t.Run(pc.name+"/"+be.String(), func(t *testing.T) {
				var out bytes.Buffer
				p, err := compile.NewBuilder().Source("t.sv", pc.src).Top("t").Backend(be).
					Lanes(2).Partition(compile.PartitionAlways).Output(&out).NoCache().Build()
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				if err := plancheck.CheckSimulator(p.Sim); err != nil {
					t.Fatalf("plan check: %v", err)
				}
				pc.check(t, &caseProgram{Program: p, kp: p.Kernels})
				if t.Failed() {
					t.Logf("plan:\n%s", p.Plan)
				}

				ref, err := compile.NewBuilder().Source("t.sv", pc.src).Top("t").Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Sim.Shadow(ref.Sim); err != nil {
					t.Fatal(err)
				}
				clk := p.DUT().MustSignal("clk")
				x, y := p.DUT().MustSignal("x"), p.DUT().MustSignal("y")
				r := rand.New(rand.NewPCG(1, uint64(len(pc.name))))
				for step := range 200 {
					x.Set(r.Uint64() & 0xffff)
					y.Set(r.Uint64() & 0xffff)
					clk.Set(uint64(step & 1))
					if err := p.Sim.Step(); err != nil {
						t.Fatalf("step %d: %v", step, err)
					}
				}
				var ran uint64
				for _, st := range p.Sim.ParallelStats() {
					ran += st.Parallel
				}
				if ran == 0 {
					t.Error("the partitioned kernels never ran")
				}
			})
		}
	}
}
