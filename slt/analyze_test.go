package slt

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

func TestChainOrderIgnoresSourceOrder(t *testing.T) {
	s := analyzeSV(t, `module t(input logic [7:0] x, output logic [7:0] d);
  logic [7:0] a, b, c;
  assign d = c + 1;
  assign c = b ^ a;
  assign b = a << 1;
  assign a = x;
endmodule`, Options{})
	if len(s.Loops) != 0 {
		t.Fatalf("loops: %s", s.Dump())
	}
	a, b, c, d := pos(t, s, "a"), pos(t, s, "b"), pos(t, s, "c"), pos(t, s, "d")
	if !(a < b && b < c && c < d) {
		t.Errorf("order a=%d b=%d c=%d d=%d\n%s", a, b, c, d, s.Dump())
	}
}

func TestFalseLoopsHaveNoSCC(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"bit to bit", `logic [1:0] a; assign a[0] = a[1]; assign a[1] = x[0];`},
		{"one assign reading its own other bit", `logic [1:0] a; assign a = {x[0], a[1]};`},
		{"disjoint halves", `logic [7:0] v; assign v[3:0] = v[7:4] + x[3:0]; assign v[7:4] = x[7:4] ^ w[3:0]; logic [7:0] w; assign w = {v[3:0], x[3:0]};`},
		{"interleaved bits", `logic [3:0] v; assign v[0] = x[0]; assign v[1] = v[0]; assign v[2] = v[1]; assign v[3] = v[2];`},
		{"array elements", `logic [7:0] m [0:3]; assign m[0] = m[1] + 1; assign m[1] = m[2]; assign m[2] = x;`},
		{"array element bits", `logic [7:0] m [0:1]; assign m[0][3:0] = m[0][7:4]; assign m[0][7:4] = x[3:0];`},
		{"always_comb bit to bit", `logic [1:0] a; always_comb a[0] = a[1]; assign a[1] = x[0];`},
		{"concat swap", `logic [3:0] a, b; assign {a, b} = {b, x[3:0]};`},
		{"concat self", `logic [7:0] a; logic [3:0] b; assign {b, a} = {a[3:0], x};`},
		{"statements of one process", `logic [3:0] a, b; always_comb begin a = x[3:0]; b = a + 1; end`},
		{"independent statements through another process", `logic [3:0] a, b, c; always_comb begin a = x[3:0]; b = c; end assign c = a;`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := analyzeSV(t, "module t(input logic [7:0] x);\n"+tc.body+"\nendmodule", Options{})
			if len(s.Loops) != 0 || len(s.Warnings) != 0 {
				t.Errorf("want no loops:\n%s", s.Dump())
			}
		})
	}
}

func TestTrueLoop(t *testing.T) {
	s := analyzeSV(t, `module t(input logic c, output logic y);
  logic a, b;
  assign a = b;
  assign b = a | c;
  assign y = a;
endmodule`, Options{})
	if len(s.Loops) != 1 {
		t.Fatalf("want one loop:\n%s", s.Dump())
	}
	l := s.Loops[0]
	if got := strings.Join(l.Names(), ", "); got != "t.a, t.b" {
		t.Errorf("loop names %q", got)
	}
	if len(l.Items) != 2 || !l.Obvious || l.SelfLoop || l.Bits != 2 || l.MaxIter != DefaultLoopLimit {
		t.Errorf("loop %+v", l)
	}
	if got, want := l.Error(64).Error(), "comb loop did not settle after 64 iterations: t.a, t.b"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].String(), "t.sv:3:") ||
		!strings.Contains(s.Warnings[0].Msg, "combinational loop through t.a, t.b") {
		t.Errorf("warnings %v", s.Warnings)
	}
	if pos(t, s, "y") <= l.Node.Index {
		t.Errorf("y is not after the loop\n%s", s.Dump())
	}
	// The loop's first item is the one earlier in design order (a = b):
	// nothing inside the loop orders a before b, so design order decides.
	if l.Items[0].Name != "t:assign@3" {
		t.Errorf("loop order %v", l.Items)
	}

	s = analyzeSV(t, `module t(input logic c); logic a, b; assign a = b; assign b = a | c; endmodule`, Options{LoopLimit: 7})
	if s.Loops[0].MaxIter != 7 {
		t.Errorf("LoopLimit ignored: %d", s.Loops[0].MaxIter)
	}
}

func TestSelfLoopAndBound(t *testing.T) {
	s := analyzeSV(t, `module t(input logic x);
  logic [99:0] v;
  assign v = {v[98:0], x};
endmodule`, Options{})
	if len(s.Loops) != 1 || !s.Loops[0].SelfLoop {
		t.Fatalf("want a self loop:\n%s", s.Dump())
	}
	l := s.Loops[0]
	// The loop cut the assignment at the right-hand side's parts:
	// v[0] = x leaves the loop, v[99:1] = v[98:0] reads 98 bits it writes.
	if len(s.Items) != 2 || l.Bits != 98 || l.MaxIter != 102 {
		t.Errorf("items %d bits %d max %d", len(s.Items), l.Bits, l.MaxIter)
	}
	if got := design.AccessList(l.Signals); got != "t.v[98:1]" {
		t.Errorf("signals %s", got)
	}
}

func TestConditionalLoopIsPossible(t *testing.T) {
	s := analyzeSV(t, `module t(input logic s, input logic [3:0] x, output logic [3:0] y);
  logic [3:0] z;
  always_comb if (s) y = x; else y = z;
  always_comb if (!s) z = x; else z = y;
endmodule`, Options{})
	if len(s.Loops) != 1 || s.Loops[0].Obvious {
		t.Fatalf("want one non-obvious loop:\n%s", s.Dump())
	}
	if !strings.Contains(s.Warnings[0].Msg, "possible combinational loop through t.y, t.z") {
		t.Errorf("warning %v", s.Warnings[0])
	}
}

func TestDynamicIndexDependsOnWholeArray(t *testing.T) {
	s := analyzeSV(t, `module t(input logic [1:0] i, input logic [7:0] x, output logic [7:0] y, output logic [7:0] z);
  logic [7:0] m [0:3];
  logic [7:0] n [0:3];
  assign y = m[i];
  assign m[3] = x;
  assign m[0] = x + 1;
  always_comb n[i] = x;
  assign z = n[2];
endmodule`, Options{})
	ry := writer(t, s, "y")
	if got := design.AccessList(ry.Reads); got != "t.i t.m@0..3 dyn" {
		t.Errorf("reads of y: %s", got)
	}
	for _, it := range s.Items {
		for _, w := range it.Writes {
			if w.Home.Name == "m" && !s.Graph.HasEdge(it.ID, ry.ID) {
				t.Errorf("no edge %s → %s", it, ry)
			}
		}
	}
	if pos(t, s, "n") > pos(t, s, "z") {
		t.Errorf("dynamic writer of n after its reader\n%s", s.Dump())
	}
	if !s.Graph.HasEdge(writer(t, s, "n").ID, writer(t, s, "z").ID) {
		t.Errorf("no edge from the dynamic writer\n%s", s.Dump())
	}
	// A dynamic read of the array a process writes is a conservative loop.
	s = analyzeSV(t, `module t(input logic [1:0] i, input logic [7:0] x);
  logic [7:0] m [0:3];
  always_comb begin m[0] = x; m[1] = m[i]; end
endmodule`, Options{})
	// Statement 1 (m[1] = m[i]) reads m@0..3 dyn, which covers its own
	// write m[1]: a self loop that may never be taken (i != 1).
	found := false
	for _, l := range s.Loops {
		found = found || (l.SelfLoop && !l.Obvious)
	}
	if !found {
		t.Errorf("want a possible self loop through m:\n%s", s.Dump())
	}
}

func TestConcatSplit(t *testing.T) {
	s := analyzeSV(t, `module t(input logic [7:0] x, input logic [3:0] y, input logic [5:0] z, output logic [7:0] a, output logic [3:0] b, output logic [5:0] c);
  assign {a, b, c} = {x, y, z};
endmodule`, Options{})
	if len(s.Items) != 3 {
		t.Fatalf("want 3 items:\n%s", s.Dump())
	}
	for i, want := range []struct{ w, r string }{{"t.a", "t.x"}, {"t.b", "t.y"}, {"t.c", "t.z"}} {
		it := s.Items[i]
		if it.Split != SplitConcat || it.Part != i || it.Parts != 3 {
			t.Errorf("item %d: %s %d/%d", i, it.Split, it.Part, it.Parts)
		}
		if design.AccessList(it.Writes) != want.w || design.AccessList(it.Reads) != want.r {
			t.Errorf("item %d writes %s reads %s", i, design.AccessList(it.Writes), design.AccessList(it.Reads))
		}
	}
	if s.Items[0].Name != s.Design.Comb[0].Name+"[0]" {
		t.Errorf("name %s", s.Items[0].Name)
	}

	// Slices pushed through operators: each part reads its own bits.
	s = analyzeSV(t, `module t(input logic [7:0] x, input logic [7:0] y, input logic s, output logic [3:0] a, output logic [3:0] b);
  assign {a, b} = s ? ~(x & y) : {y[3:0], x[7:4]};
endmodule`, Options{})
	if len(s.Items) != 2 {
		t.Fatalf("want 2 items:\n%s", s.Dump())
	}
	if got := design.AccessList(s.Items[0].Reads); got != "t.x[7:4] t.y t.s" {
		t.Errorf("a reads %s", got)
	}
	if got := design.AccessList(s.Items[1].Reads); got != "t.x t.y[3:0] t.s" {
		t.Errorf("b reads %s", got)
	}

	// An arithmetic result is not cut (both parts would compute it) ...
	s = analyzeSV(t, `module t(input logic [3:0] x, y, output logic co, output logic [3:0] sum);
  assign {co, sum} = x + y;
endmodule`, Options{})
	if len(s.Items) != 1 {
		t.Fatalf("want 1 item:\n%s", s.Dump())
	}
	// ... unless that breaks a loop.
	s = analyzeSV(t, `module t(input logic [3:0] x, output logic [3:0] sum);
  logic co, c2;
  assign {co, sum} = x + {3'b0, c2};
  assign c2 = sum[3];
endmodule`, Options{})
	// sum feeds c2 feeds both parts: the co part leaves the loop.
	if len(s.Loops) != 1 || len(s.Loops[0].Items) != 2 {
		t.Fatalf("want a 2-item loop:\n%s", s.Dump())
	}
	if co := writer(t, s, "co"); co.Split != SplitConcat || s.Nodes[s.NodeOf(co.ID)].IsLoop() {
		t.Errorf("co part still in the loop:\n%s", s.Dump())
	}

	// Dynamic parts are not cut.
	s = analyzeSV(t, `module t(input logic [1:0] i, input logic [7:0] x, output logic [3:0] a);
  logic [3:0] m [0:3];
  always_comb {a, m[i]} = x;
endmodule`, Options{})
	if len(s.Items) != 1 {
		t.Fatalf("want 1 item:\n%s", s.Dump())
	}
}

func TestStatementSplit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  string
		items int
		loops int
	}{
		{"independent", `always_comb begin y = a; z = b; end`, 2, 0},
		{"forward through a module var", `logic [3:0] t1; always_comb begin t1 = a; y = t1; z = b; end`, 3, 0},
		{"local variable joins", `always_comb begin logic [3:0] t1; t1 = a; y = t1; z = b; end`, 2, 0},
		{"write after write joins", `always_comb begin y = 0; y[1:0] = a[1:0]; z = b; end`, 2, 0},
		{"read before a later write joins", `always_comb begin y = z; z = a; end`, 1, 1},
		{"effects join", `always_comb begin y = a; $display("%d", y); z = b; $display("%d", z); end`, 3, 0},
		{"effects and locals join", `always_comb begin logic [3:0] t1; t1 = a; $display("%d", t1); y = t1; z = b; end`, 2, 0},
		{"cycle of groups merges", `logic [3:0] p, q; always_comb begin p = a; q = p; y = q + p; end`, 3, 0},
		{"concat statement in a process", `always_comb begin {y, z} = {a, b}; w = a; end`, 3, 0},
		{"nested blocks", `always_comb begin begin y = a; end begin z = b; end end`, 2, 0},
		{"conditional statements", `always_comb begin if (a[0]) y = b; else y = a; z = b; end`, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := analyzeSV(t, "module t(input logic [3:0] a, b, output logic [3:0] y, z, w);\n"+tc.body+"\nendmodule", Options{})
			items := 0
			for _, it := range s.Items {
				if it.Proc.Kind == design.ProcAlwaysComb {
					items++
				}
			}
			if items != tc.items || len(s.Loops) != tc.loops {
				t.Errorf("items %d loops %d, want %d %d\n%s", items, len(s.Loops), tc.items, tc.loops, s.Dump())
			}
		})
	}
	// NoSplit keeps processes whole.
	s := analyzeSV(t, `module t(input logic [3:0] a, b, output logic [3:0] y, z); always_comb begin y = a; z = b; end assign {y2, z2} = {a, b}; logic [3:0] y2, z2; endmodule`, Options{NoSplit: true})
	if len(s.Items) != 2 {
		t.Errorf("NoSplit: %d items", len(s.Items))
	}
}

func TestFFGroups(t *testing.T) {
	s := analyzeSV(t, `module t(input logic clk, rst_n, input logic [7:0] d, input logic [3:0] addr, output logic [7:0] q);
  logic [7:0] r;
  logic [7:0] mem [0:15];
  logic [7:0] cnt;
  logic [7:0] shadow;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin q <= 0; r[3:0] <= 0; end
    else begin q <= d; r[3:0] <= d[3:0]; end
  always_ff @(posedge clk) begin
    logic [7:0] tmp;
    tmp = d + 1;
    mem[addr] <= tmp;
    mem[0] <= 8'h55;
    cnt <= cnt + 1;
  end
  always @(posedge clk) shadow = cnt;
endmodule`, Options{})
	if len(s.FF) != 2 {
		t.Fatalf("ff groups:\n%s", s.Dump())
	}
	var rst, plain *FFGroup
	for _, g := range s.FF {
		if len(g.Group.Events) == 2 {
			rst = g
		} else {
			plain = g
		}
	}
	// q and r are read by nobody: updated in place, nothing to apply.
	if got := design.AccessList(rst.InPlace); got != "t.q t.r[3:0]" {
		t.Errorf("in place %s", got)
	}
	if len(rst.Staged) != 0 || len(rst.Apply) != 0 {
		t.Errorf("rst group staged %s apply %s", design.AccessList(rst.Staged), design.AccessList(rst.Apply))
	}
	if len(rst.Sparse) != 0 || len(rst.Immediate) != 0 {
		t.Errorf("rst group: %s", s.Dump())
	}
	// Another process (shadow's) reads cnt: staged.
	if got := design.AccessList(plain.Staged); got != "t.cnt" || len(plain.InPlace) != 0 {
		t.Errorf("staged %s in place %s", got, design.AccessList(plain.InPlace))
	}
	if got := design.AccessList(plain.Sparse); got != "t.mem@0..15 dyn" {
		t.Errorf("sparse %s", got)
	}
	if got := design.AccessList(plain.Immediate); got != "t.shadow" {
		t.Errorf("immediate %s", got)
	}
	if len(plain.Evaluate) != 2 {
		t.Errorf("evaluate %d", len(plain.Evaluate))
	}
	for _, p := range plain.Evaluate {
		for _, a := range append(p.NonBlocking, p.Blocking...) {
			if a.Home.Kind == design.KindBlockLocal {
				t.Errorf("local %s listed", a.Home.Path)
			}
		}
	}
	// Triggers: clk fires both groups, rst_n one.
	if len(s.Triggers) != 2 || len(s.TriggerHomes) != 2 {
		t.Fatalf("triggers:\n%s", s.Dump())
	}
	for _, tr := range s.Triggers {
		if tr.Derived() {
			t.Errorf("%s derived", tr)
		}
		if tr.Home.Name == "clk" && len(tr.Uses) != 2 {
			t.Errorf("clk uses %v", tr.Uses)
		}
		if tr.Home.Name == "rst_n" && (len(tr.Uses) != 1 || tr.Uses[0].Edge != design.Negedge) {
			t.Errorf("rst_n uses %v", tr.Uses)
		}
	}
}

func TestBlockingRaceWarning(t *testing.T) {
	s := analyzeSV(t, `module t(input logic clk, input logic [7:0] d, output logic [7:0] q);
  logic [7:0] x;
  always @(posedge clk) x = d;
  always_ff @(negedge clk) q <= x;
endmodule`, Options{})
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].Msg, "'t.x' is written with a blocking assignment") {
		t.Errorf("warnings %v", s.Warnings)
	}
}

func TestDerivedClocks(t *testing.T) {
	s := analyzeSV(t, `module t(input logic clk, en, input logic [7:0] d, output logic [7:0] q, r);
  logic div, gclk;
  always_ff @(posedge clk) div <= ~div;
  always_ff @(posedge div) q <= d;
  assign gclk = clk & en;
  always_ff @(posedge gclk) r <= d;
endmodule`, Options{})
	var divG, clkG *FFGroup
	for _, g := range s.FF {
		switch g.Group.Events[0].Home.Name {
		case "clk":
			clkG = g
		case "div":
			divG = g
		}
	}
	if !clkG.WritesTrigger || divG.WritesTrigger {
		t.Errorf("WritesTrigger: clk group %v, div group %v", clkG.WritesTrigger, divG.WritesTrigger)
	}
	g := writer(t, s, "gclk")
	if !g.WritesTrigger || !s.Nodes[s.NodeOf(g.ID)].WritesTrigger {
		t.Errorf("gclk item not marked")
	}
	names := map[string]*Trigger{}
	for _, tr := range s.Triggers {
		names[tr.Home.Name] = tr
	}
	if tr := names["div"]; tr == nil || !tr.Derived() || len(tr.FF) != 1 || tr.FF[0] != clkG.Index {
		t.Errorf("div trigger %+v", tr)
	}
	if tr := names["gclk"]; tr == nil || len(tr.Items) != 1 || tr.Items[0] != g.ID {
		t.Errorf("gclk trigger %+v", tr)
	}
	if tr := names["clk"]; tr == nil || tr.Derived() {
		t.Errorf("clk trigger %+v", tr)
	}
	if !s.WritesTrigger(design.Access{Home: homeOf(t, s.Design, "div"), Hi: 0}) {
		t.Errorf("WritesTrigger(div) false")
	}
	if !strings.Contains(s.Dump(), "t.div: posedge g1; written by g0 (derived)") {
		t.Errorf("dump:\n%s", s.Dump())
	}
}

func TestBytes(t *testing.T) {
	s := analyzeSV(t, `module t(input logic [31:0] x);
  logic [31:0] v;
  logic [15:0] m [0:3];
  assign v[11:4] = x[27:20];
  assign m[2][15:9] = x[6:0];
endmodule`, Options{})
	it := writer(t, s, "v")
	wb, rb := it.WriteBytes(), it.ReadBytes()
	if len(wb) != 1 || wb[0].Lo != 0 || wb[0].Hi != 1 || len(rb) != 1 || rb[0].Lo != 2 || rb[0].Hi != 3 {
		t.Errorf("bytes %v %v", wb, rb)
	}
	it = writer(t, s, "m")
	wb = it.WriteBytes()
	if len(wb) != 1 || wb[0].Lo != 1 || wb[0].Hi != 1 || wb[0].ElemLo != 2 || wb[0].ElemHi != 2 {
		t.Errorf("bytes %v", wb)
	}
	if got := wb[0].String(); got != "t.m@2 bytes 1..1" {
		t.Errorf("string %q", got)
	}
}

func TestDeterministicDump(t *testing.T) {
	src := `module t(input logic clk, input logic [7:0] x, output logic [7:0] y);
  logic [3:0] a, b; logic [7:0] c; logic p, q;
  assign {a, b} = {b, x[3:0]};
  assign c[0] = c[1];
  assign c[7:1] = x[6:0];
  assign p = q | x[0]; assign q = p & x[1];
  always_comb begin y = c; y[0] = p; end
endmodule`
	first := analyzeSV(t, src, Options{}).Dump()
	for i := 0; i < 3; i++ {
		if got := analyzeSV(t, src, Options{}).Dump(); got != first {
			t.Fatalf("dump differs:\n%s\n---\n%s", first, got)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	if _, err := Analyze(nil, Options{}); err == nil {
		t.Error("nil design accepted")
	}
	d := elabSV(t, `module t(input logic a, output logic b); assign b = a; endmodule`)
	if _, err := Analyze(d, Options{LoopLimit: -1}); err == nil {
		t.Error("negative loop limit accepted")
	}
	d.Homes[0], d.Homes[1] = d.Homes[1], d.Homes[0]
	if _, err := Analyze(d, Options{}); err == nil {
		t.Error("bad home IDs accepted")
	}
}

func TestFunctionsAndTasks(t *testing.T) {
	s := analyzeSV(t, `module t(input logic clk, input logic [7:0] d, output logic [7:0] q, y, z);
  logic [7:0] g;
  function automatic logic [7:0] f(input logic [7:0] x);
    $display("f %d", x);
    return x + 1;
  endfunction
  task automatic setg(input logic [7:0] v);
    g = v;
  endtask
  always_comb begin y = f(d); z = d; end
  always_ff @(posedge clk) begin setg(d); q <= g; end
endmodule`, Options{})
	y, z := writer(t, s, "y"), writer(t, s, "z")
	if y == z || !y.Effects || z.Effects {
		t.Errorf("y %v z %v\n%s", y, z, s.Dump())
	}
	ff := s.FF[0]
	if got := design.AccessList(ff.Immediate); got != "t.g" {
		t.Errorf("immediate %s\n%s", got, s.Dump())
	}
	if got := design.AccessList(ff.InPlace); got != "t.q" || len(ff.Staged) != 0 {
		t.Errorf("in place %s staged %s", got, design.AccessList(ff.Staged))
	}
}
