package elab

import (
	"math/big"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

func TestProcessKindsAndAccesses(t *testing.T) {
	d := mustElab(t, `module top(input logic clk, input logic rst_n, input logic [7:0] a, input logic [7:0] b, input logic en,
  output logic [7:0] y, output logic [7:0] z, output logic [7:0] l, output logic [7:0] q, output logic [7:0] q2, output logic [7:0] w);
  logic [7:0] tmp;
  assign y[3:0] = a[7:4];
  assign y[7:4] = b[3:0];
  always_comb begin
    tmp = a ^ b;
    z = tmp + 1;
  end
  always @* begin : blk
    logic [7:0] loc;
    loc = a;
    w = loc & b;
  end
  always_latch if (en) l = a;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) q <= 0; else q <= q + a;
  always_ff @(negedge rst_n or posedge clk)
    if (!rst_n) q2 <= 0; else q2 <= q;
endmodule`)
	want := []struct{ proc, kind, reads, writes string }{
		{"top:assign@4", "assign", "top.a[7:4]", "top.y[3:0]"},
		{"top:assign@5", "assign", "top.b[3:0]", "top.y[7:4]"},
		{"top:always_comb@6", "always_comb", "top.a top.b", "top.z top.tmp"},
		{"top:always_star@10", "always_star", "top.a top.b", "top.w"},
		{"top:always_latch@15", "always_latch", "top.a top.en", "top.l"},
		{"top:always_ff@16", "always_ff", "top.rst_n top.a top.q", "top.q"},
		{"top:always_ff@18", "always_ff", "top.rst_n top.q", "top.q2"},
	}
	procs := map[string]*design.Process{}
	for _, p := range d.Processes() {
		procs[p.Name] = p
	}
	for _, w := range want {
		p := procs[w.proc]
		if p == nil {
			t.Errorf("no process %s", w.proc)
			continue
		}
		if p.Kind.String() != w.kind || design.AccessList(p.Reads) != w.reads || design.AccessList(p.Writes) != w.writes {
			t.Errorf("%s: %s reads [%s] writes [%s]; want %s [%s] [%s]", w.proc, p.Kind, design.AccessList(p.Reads), design.AccessList(p.Writes), w.kind, w.reads, w.writes)
		}
	}
	if len(d.Groups) != 1 || len(d.Groups[0].Procs) != 2 {
		t.Fatalf("want one trigger group with both always_ff, got %d groups", len(d.Groups))
	}
	if got := d.Groups[0].EventsString(); got != "@(posedge top.clk or negedge top.rst_n)" {
		t.Errorf("events %s", got)
	}
	if _, ok := d.Lookup("top.blk.loc"); !ok {
		t.Error("block local top.blk.loc not found")
	}
	s := d.Summary()
	if s.FlopHomes != 2 || s.FlopBits != 16 || s.Comb != 5 || s.TriggerGroups != 1 {
		t.Errorf("summary %s", s)
	}
}

func TestTriggerGroupsAndEvents(t *testing.T) {
	d := mustElab(t, `module top(input logic [1:0] clks, input logic c2, input logic en, input logic [3:0] d, output logic [3:0] q1, output logic [3:0] q2, output logic [3:0] q3);
  always @(posedge clks[1]) q1 <= d;
  always_ff @(negedge c2) q2 <= d;
  always_ff @(posedge c2 iff en) q3 <= d;
endmodule`)
	if len(d.Groups) != 3 {
		t.Fatalf("%d groups", len(d.Groups))
	}
	var evs []string
	for _, g := range d.Groups {
		evs = append(evs, g.EventsString())
	}
	if got := strings.Join(evs, " "); got != "@(posedge top.clks[1]) @(negedge top.c2) @(posedge top.c2)" {
		t.Errorf("events: %s", got)
	}
	if d.Groups[0].Procs[0].Kind != design.ProcAlwaysEdge {
		t.Errorf("kind %s", d.Groups[0].Procs[0].Kind)
	}
	body := design.StmtString(d.Groups[2].Procs[0].Body, 0)
	if !strings.HasPrefix(body, "if top.en\n") {
		t.Errorf("iff guard not applied:\n%s", body)
	}
}

func TestLoops(t *testing.T) {
	d := mustElab(t, `module top(input logic [7:0] a, input logic [3:0] req, output logic [7:0] rev, output logic [1:0] idx, output logic [7:0] cnt, output logic [7:0] big);
  always_comb
    for (int i = 0; i < 8; i++) rev[i] = a[7 - i];
  always_comb begin
    idx = 0;
    for (int i = 0; i < 4; i++)
      if (req[i]) begin idx = i; break; end
  end
  always_comb begin
    cnt = 0;
    repeat (a[2:0]) cnt = cnt + 1;
  end
  always_comb begin
    big = 0;
    for (int i = 0; i < 5000; i++) big = big + 1;
  end
endmodule`)
	p := procWriting(t, d, "top.rev")
	if got := design.AccessList(p.Writes); got != "top.rev" {
		t.Errorf("rev writes %s", got)
	}
	body := design.StmtString(p.Body, 0)
	if strings.Contains(body, "while") || !strings.Contains(body, "top.rev[32'd7+:1] = top.a[32'd0+:1]") {
		t.Errorf("loop not unrolled exactly:\n%s", body)
	}
	for _, name := range []string{"top.idx", "top.cnt", "top.big"} {
		p := procWriting(t, d, name)
		if !strings.Contains(design.StmtString(p.Body, 0), "while") {
			t.Errorf("%s: expected a run-time loop:\n%s", name, design.StmtString(p.Body, 0))
		}
	}
	// The run-time loop computes the right value in the reference interpreter.
	m := design.NewMachine()
	m.Missing = func(h *design.Home) ([]*big.Int, error) {
		v := big.NewInt(0)
		if h.Name == "req" {
			v = big.NewInt(0b0100)
		}
		return []*big.Int{v}, nil
	}
	if err := m.Run(procWriting(t, d, "top.idx").Body); err != nil {
		t.Fatal(err)
	}
	if v, _ := m.Get(home(t, d, "idx"), 0); v.Int64() != 2 {
		t.Errorf("idx = %d, want 2", v.Int64())
	}
	if err := m.Run(procWriting(t, d, "top.big").Body); err != nil {
		t.Fatal(err)
	}
	if v, _ := m.Get(home(t, d, "big"), 0); v.Int64() != 5000%256 {
		t.Errorf("big = %d", v.Int64())
	}
}

func TestModuleLevelLoopVariableIsPrivate(t *testing.T) {
	d := mustElab(t, `module top(input logic [3:0] a, output logic [3:0] x, output logic [3:0] y);
  integer i;
  always @* for (i = 0; i < 4; i = i + 1) x[i] = a[i];
  always @* for (i = 0; i < 4; i = i + 1) y[i] = ~a[i];
endmodule`)
	for _, p := range d.Comb {
		for _, w := range p.Writes {
			if w.Home.Name == "i" {
				t.Errorf("%s writes the shared loop variable", p.Name)
			}
		}
	}
}

func TestCaseMasks(t *testing.T) {
	d := mustElab(t, `module top(input logic [3:0] op, output logic [1:0] k, output logic [1:0] m);
  always_comb
    casez (op)
      4'b1???: k = 3;
      4'b01?z: k = 2;
      default: k = 0;
    endcase
  always_comb
    case (op) inside
      [4'd2:4'd5]: m = 1;
      4'b11?0: m = 2;
      default: m = 0;
    endcase
endmodule`)
	var cs *design.Case
	design.WalkStmt(procWriting(t, d, "top.k").Body, func(s design.Stmt) bool {
		if c, ok := s.(*design.Case); ok {
			cs = c
		}
		return true
	})
	if cs == nil || cs.Kind != design.CaseZ {
		t.Fatal("no casez")
	}
	if m := cs.Items[0].Labels[0].Mask; m == nil || m.Int64() != 0b1000 {
		t.Errorf("mask 0 = %v", m)
	}
	if m := cs.Items[1].Labels[0].Mask; m == nil || m.Int64() != 0b1100 {
		t.Errorf("mask 1 = %v", m)
	}
	body := design.StmtString(procWriting(t, d, "top.m").Body, 0)
	if !strings.Contains(body, "[4'd2 .. 4'd5]:") || !strings.Contains(body, "4'd12 mask 'hd:") {
		t.Errorf("case inside:\n%s", body)
	}
	m := design.NewMachine()
	m.Missing = func(h *design.Home) ([]*big.Int, error) { return []*big.Int{big.NewInt(0b0110)}, nil }
	if err := m.Run(procWriting(t, d, "top.k").Body); err != nil {
		t.Fatal(err)
	}
	if v, _ := m.Get(home(t, d, "k"), 0); v.Int64() != 2 {
		t.Errorf("casez picked %d", v.Int64())
	}
}

func TestTasksAndFunctions(t *testing.T) {
	d := mustElab(t, `module top(input logic [7:0] a, output logic [7:0] y, output logic [7:0] z);
  function automatic logic [7:0] twice(input logic [7:0] v);
    twice = v << 1;
  endfunction
  task automatic split(input logic [7:0] v, output logic [3:0] hi, output logic [3:0] lo);
    hi = v[7:4]; lo = v[3:0];
  endtask
  always_comb y = twice(a) + twice(8'd3);
  always_comb split(a, z[3:0], z[7:4]);
endmodule`)
	if got := rhsOf(t, d, "top.y"); got != "add:u8(top.twice:u8(top.a), 8'd6)" {
		t.Errorf("y = %s (constant call should fold)", got)
	}
	p := procWriting(t, d, "top.z")
	if got := design.AccessList(p.Writes); got != "top.z" {
		t.Errorf("task writes %s", got)
	}
	if len(d.Functions) != 2 {
		t.Errorf("functions %d", len(d.Functions))
	}
}

func TestDumpAndLookup(t *testing.T) {
	d := mustElab(t, `module leaf(input logic [3:0] i, output logic [3:0] o); assign o = ~i; endmodule
module top(input logic [3:0] i, output logic [3:0] o); leaf u (.i, .o); endmodule`)
	for _, p := range []string{"top.i", "i", "top.u.i", "u.i", "u.o"} {
		if _, ok := d.Lookup(p); !ok {
			t.Errorf("lookup %s failed", p)
		}
	}
	dump := design.Dump(d)
	for _, want := range []string{
		"h0 top.i input u4 (logic [3:0]) packed[3:0] aka top.u.i",
		"p0 top.u:assign@1 [assign]",
		"reads:  top.i",
		"top.o = not:u4(top.i)",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
}

func TestElabTasksDelaysAndPortDefaults(t *testing.T) {
	d, diags := elabString(t, `module sub(input logic [3:0] a = 4'd9, output logic [3:0] y); assign #1 y = a; endmodule
module top #(parameter W = 0) (output logic [3:0] y);
  if (W < 1) $warning("W is %0d in %m", W);
  sub u (.y(y));
endmodule`, Options{})
	if d == nil {
		t.Fatal(diags.Err())
	}
	if got := rhsOf(t, d, "top.u.a"); got != "4'd9" {
		t.Errorf("default value: u.a = %s", got)
	}
	var ws []string
	for _, w := range diags.Warnings() {
		ws = append(ws, strings.SplitN(w.Error(), "\n", 2)[0])
	}
	all := strings.Join(ws, "\n")
	for _, want := range []string{"t.sv:3:14: warning: W is 0 in top.genblk1", "t.sv:1:71: warning: delays in continuous assignments are ignored"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in\n%s", want, all)
		}
	}
	_, diags = elabString(t, `module top #(parameter W = 0) ();
  if (W < 1) $error("W must be positive, got %0d", W);
endmodule`, Options{})
	if diags.ErrorCount() != 1 || !strings.HasPrefix(diags.List[0].Error(), "t.sv:2:14: error: W must be positive, got 0") {
		t.Errorf("elaboration $error: %v", diags.Err())
	}
}

func TestHierarchicalGenerateReference(t *testing.T) {
	d := mustElab(t, `module top(input logic [3:0] a, output logic [3:0] y);
  for (genvar i = 0; i < 2; i++) begin : g
    logic [3:0] t;
    assign t = a + i;
  end
  assign y = g[1].t ^ g[0].t;
endmodule`)
	if got := rhsOf(t, d, "top.y"); got != "xor:u4(top.g[1].t, top.g[0].t)" {
		t.Errorf("y = %s", got)
	}
}

func TestMoreErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`module top(input logic clk, input logic d, output logic q);
  always_ff @(posedge clk) q <= d;
  assign q = d;
endmodule`, "t.sv:3:3: error: 'top.q' is driven by more than one process: top:always_ff@2 (t.sv:2:3) and top:assign@3 (t.sv:3:3)"},
		{`module top(input logic [3:0] a, output logic [3:0] y);
  typedef struct { logic x; } s_t;
  s_t s;
endmodule`, "t.sv:2:11: error: unpacked structs are not supported yet (declare it 'struct packed')"},
		{`module sub(output logic [3:0] q); assign q = 0; endmodule
module top(input logic [3:0] a); sub u (.q(a)); endmodule`, "t.sv:2:44: error: output port 'q' of 'u' drives input port 'a'"},
		{`module top(output logic [3:0] y);
  always_comb begin
    y = 0;
    break;
  end
endmodule`, "t.sv:4:5: error: break outside of a loop"},
		{`module top(output logic [3:0] y);
  assign y = $random(5) + $foo(1);
endmodule`, "t.sv:2:27: error: system function '$foo' is not supported yet"},
	}
	for _, tc := range tests {
		d, diags := elabString(t, tc.src, Options{})
		var got []string
		ok := false
		for _, dg := range diags.List {
			l := strings.SplitN(dg.Error(), "\n", 2)[0]
			got = append(got, l)
			ok = ok || l == tc.want
		}
		if !ok || d != nil {
			t.Errorf("want %q, got\n  %s", tc.want, strings.Join(got, "\n  "))
		}
	}
}

// Dead code (an arm a constant condition never takes) is only checked for
// names that resolve to nothing: its own locals, loop variables and labels,
// a hierarchical name into a generate block that exists only when the code
// is live, and selects that are out of range in this configuration are all
// fine. The dead code is not translated.
func TestDeadCodeNamesOnly(t *testing.T) {
	d := mustElab(t, `module top #(parameter int W = 4, parameter bit C = 0)
  (input logic clk, input logic [W-1:0] d, output logic [W-1:0] q, output logic [W-1:0] y);
  if (C) begin : g_on
    logic [W-1:0] x;
    assign x = d;
  end
  assign y = C ? g_on.x : (W > 8 ? d[W-1:8] : d);
  always_ff @(posedge clk) begin
    if (C) begin : blk
      logic [W-1:0] t;
      t = d;
      for (int k = 0; k < W; k++) t[k] = ~t[k];
      q <= t ^ d[W+3:W];
    end else q <= d;
  end
endmodule`)
	if got := rhsOf(t, d, "top.y"); got != "top.d" {
		t.Errorf("y = %s", got)
	}
	if got := rhsOf(t, d, "top.q"); got != "top.d" {
		t.Errorf("q <= %s", got)
	}
}

// `default disable iff` and `default clocking` only serve concurrent
// assertions, which weft ignores: a warning, not a rejection.
func TestDefaultDisableIsIgnoredWithAssertions(t *testing.T) {
	d, diags := elabString(t, `module top(input logic clk_i, input logic rst_ni, input logic a, output logic q);
  default disable iff (!rst_ni);
  default clocking cb @(posedge clk_i); endclocking
  always_ff @(posedge clk_i) q <= a;
endmodule`, Options{})
	if d == nil {
		t.Fatal(diags.Err())
	}
	ws := diags.Warnings()
	if len(ws) != 1 || !strings.HasPrefix(ws[0].Error(), "t.sv:2:3: warning: assertions are ignored") {
		t.Errorf("warnings: %v", ws)
	}
}
