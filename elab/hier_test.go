package elab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

func TestGenerateNames(t *testing.T) {
	d := mustElab(t, `module alu(input logic [7:0] a, output logic [7:0] x); assign x = a + 1; endmodule
module top(input logic [7:0] in [4], output logic [7:0] out [4]);
  for (genvar i = 0; i < 4; i++) begin : g_lane
    logic [7:0] t;
    alu u_alu (.a(in[i]), .x(t));
    assign out[i] = t;
  end
  if (1) begin
    logic q1;
  end
  if (0) begin : named
  end else if (1) begin
    logic q2;
  end
  case (2)
    1: begin logic q3a; end
    2: begin logic q3; end
  endcase
  generate
    genvar j;
    for (j = 0; j < 2; j = j + 1) begin
      logic w;
    end
  endgenerate
endmodule`)
	for _, p := range []string{
		"top.g_lane[0].t", "top.g_lane[3].t", "top.g_lane[2].u_alu.x", "g_lane[1].u_alu.a",
		"top.genblk2.q1", "top.genblk3.q2", "top.genblk4.q3", "top.genblk5[0].w", "top.genblk5[1].w",
	} {
		home(t, d, p)
	}
	if _, ok := d.Lookup("top.genblk4.q3a"); ok {
		t.Error("unselected case arm was elaborated")
	}
	in, ok := d.Instance("g_lane[2].u_alu")
	if !ok || in.Module != "alu" || in.Parent != d.Top {
		t.Fatalf("instance g_lane[2].u_alu: %+v", in)
	}
	if len(d.Instances) != 5 || d.Instances[0] != d.Top {
		t.Errorf("instances: %d", len(d.Instances))
	}
}

func TestPortCollapsing(t *testing.T) {
	d, diags := elabString(t, `module sub(input logic [7:0] a, input logic [3:0] n, output logic [7:0] y, output logic [3:0] m);
  assign y = a; assign m = n;
endmodule
module top(input logic [7:0] a, output logic [7:0] y, output logic [7:0] m8);
  logic [7:0] n8;
  assign n8 = a;
  sub u (.a(a), .n(n8), .y(y), .m(m8));
endmodule`, Options{})
	if d == nil {
		t.Fatal(diags.Err())
	}
	// Same type: one home with two names.
	a := home(t, d, "top.a")
	if b := home(t, d, "top.u.a"); a != b {
		t.Error("u.a was not collapsed into top.a")
	}
	if y, y2 := home(t, d, "y"), home(t, d, "u.y"); y != y2 {
		t.Error("u.y was not collapsed into top.y")
	}
	// Different widths: separate homes joined by assignments, with warnings.
	if home(t, d, "u.n") == home(t, d, "n8") {
		t.Error("u.n collapsed despite a width mismatch")
	}
	if got := rhsOf(t, d, "top.u.n"); got != "trunc:u4(top.n8)" {
		t.Errorf("u.n = %s", got)
	}
	if got := rhsOf(t, d, "top.m8"); got != "zext:u8(top.u.m)" {
		t.Errorf("m8 = %s", got)
	}
	var warns []string
	for _, w := range diags.Warnings() {
		warns = append(warns, w.Error())
	}
	all := strings.Join(warns, "\n")
	for _, want := range []string{
		"t.sv:7:20: warning: port 'n' of 'u' is 4 bits wide but is connected to a 8-bit expression; the value is truncated",
		"t.sv:7:35: warning: port 'm' of 'u' is 4 bits wide but is connected to a 8-bit target; the value is zero-extended",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing warning %q in\n%s", want, all)
		}
	}
}

func TestConnectionForms(t *testing.T) {
	d := mustElab(t, `module sub(input logic clk, input logic [3:0] d, output logic [3:0] q);
  always_ff @(posedge clk) q <= d;
endmodule
module top(input logic clk, input logic [3:0] d, output logic [3:0] q1, output logic [3:0] q2, output logic [3:0] q3, output logic [15:0] qa, input logic [15:0] da);
  logic [3:0] q;
  sub u1 (.*);
  sub u2 (.clk, .d, .q(q2));
  sub u3 (clk, d + 4'd1, q3);
  sub ua [3:0] (.clk(clk), .d(da), .q(qa));
  assign q1 = q;
endmodule`)
	if home(t, d, "u1.q") != home(t, d, "q") || home(t, d, "u2.d") != home(t, d, "d") {
		t.Error(".* / .name connections were not collapsed")
	}
	if got := rhsOf(t, d, "top.u3.d"); got != "add:u4(top.d, 4'd1)" {
		t.Errorf("u3.d = %s", got)
	}
	// Instance arrays: the right bound gets the low slice.
	if got := rhsOf(t, d, "top.ua[0].d"); got != "top.da[32'd0+:4]" {
		t.Errorf("ua[0].d = %s", got)
	}
	if got := rhsOf(t, d, "top.ua[3].d"); got != "top.da[32'd12+:4]" {
		t.Errorf("ua[3].d = %s", got)
	}
	p := procWriting(t, d, "top.ua[2].q")
	if design.AccessList(p.Reads) != "top.ua[2].d" {
		t.Errorf("reads %s", design.AccessList(p.Reads))
	}
	var ws []string
	for _, q := range d.Comb {
		for _, w := range q.Writes {
			if w.Home.Name == "qa" {
				ws = append(ws, w.String())
			}
		}
	}
	if strings.Join(ws, " ") != "top.qa[15:12] top.qa[11:8] top.qa[7:4] top.qa[3:0]" {
		t.Errorf("qa writes: %v", ws)
	}
	if len(d.Groups) != 7 {
		t.Errorf("%d trigger groups, want 7 (one per sub instance)", len(d.Groups))
	}
}

func TestNonANSIPorts(t *testing.T) {
	d := mustElab(t, `module sub(clk, d, q);
  input clk;
  input [7:0] d;
  output q;
  reg [7:0] q;
  always @(posedge clk) q <= d;
endmodule
module top(input clk, input [7:0] d, output [7:0] q);
  sub u (clk, d, q);
endmodule`)
	h := home(t, d, "u.q")
	if h != home(t, d, "q") || h.Width != 8 {
		t.Errorf("u.q: %s", design.HomeString(h))
	}
}

func TestPackagesStructsEnums(t *testing.T) {
	d := mustElab(t, `package pk;
  typedef enum logic [1:0] { IDLE, RUN, DONE } st_e;
  typedef struct packed { logic [3:0] hi; st_e st; logic signed [1:0] lo; } rec_t;
  function automatic logic [3:0] inc(input logic [3:0] v); return v + 1; endfunction
endpackage
module top import pk::*; (input rec_t r, output logic [3:0] h, output logic is_run, output logic signed [7:0] lo8, output st_e nx);
  assign h = pk::inc(r.hi);
  assign is_run = r.st == RUN;
  assign lo8 = r.lo;
  always_comb begin
    nx = r.st;
    nx = st_e'(nx + 1);
  end
endmodule`)
	if got := rhsOf(t, d, "top.h"); got != "pk::inc:u4(top.r[32'd4+:4])" {
		t.Errorf("h = %s", got)
	}
	if got := rhsOf(t, d, "top.is_run"); got != "eq:u1(top.r[32'd2+:2], 2'd1)" {
		t.Errorf("is_run = %s", got)
	}
	if got := rhsOf(t, d, "top.lo8"); got != "sext:s8(top.r[32'd0+:2]s)" {
		t.Errorf("lo8 = %s (signed member must sign-extend)", got)
	}
	if len(d.Functions) != 1 || d.Functions[0].Name != "pk::inc" {
		t.Errorf("functions: %v", d.Functions)
	}
	p := procWriting(t, d, "top.nx")
	if design.AccessList(p.Reads) != "top.r[3:2]" {
		t.Errorf("nx reads %s (nx is written first)", design.AccessList(p.Reads))
	}
}

func TestPackedSelects(t *testing.T) {
	d := mustElab(t, `module top(input logic [3:0][7:0] w, input logic [0:7] asc, input logic [15:8] off, input logic [1:0] i,
  output logic [7:0] e, output logic [3:0] n, output logic b, output logic [1:0] p, output logic [3:0] ps, output logic [15:0] two, output logic [7:0] dyn);
  assign e = w[2];
  assign n = w[1][7:4];
  assign b = asc[0];
  assign p = off[9:8];
  assign ps = asc[2+:4];
  assign two = w[3:2];
  assign dyn = w[i];
endmodule`)
	cases := map[string]string{
		"e":   "top.w[32'd16+:8]",
		"n":   "top.w[32'd12+:4]",
		"b":   "top.asc[32'd7+:1]",
		"p":   "top.off[32'd0+:2]",
		"ps":  "top.asc[32'd2+:4]",
		"two": "top.w[32'd16+:16]",
		"dyn": "top.w[shl:u5(zext:u5(top.i), 32'd3)+:8]",
	}
	for name, want := range cases {
		if got := rhsOf(t, d, "top."+name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	p := procWriting(t, d, "top.dyn")
	if got := design.AccessList(p.Reads); got != "top.w dyn top.i" {
		t.Errorf("dyn reads %s", got)
	}
}

// IEEE 1800-2017 §7.4.1: a packed array is signed only when declared
// signed, and its elements are unsigned unless of a named type declared
// signed (a signed typedef, packed struct or enum).
func TestPackedArraySignedness(t *testing.T) {
	d := mustElab(t, `module top(input logic [15:0] v, output logic [3:0] el, output logic [3:0] wh);
  typedef logic signed [7:0] s8_t;
  typedef struct packed signed { logic [7:0] x; } ss_t;
  typedef enum logic signed [7:0] { NEG = -1, POS = 1 } se_t;
  s8_t [1:0] a;
  ss_t [1:0] b;
  logic signed [1:0][7:0] c;
  se_t [1:0] e;
  assign a = v;
  assign b = v;
  assign c = v;
  assign e = v;
  assign el = {a[1] < 0, b[1] < 0, c[1] < 0, e[1] < 0};
  assign wh = {a < 0, b < 0, c < 0, e < 0};
endmodule`)
	for name, signed := range map[string]bool{"top.a": false, "top.b": false, "top.c": true, "top.e": false} {
		if h := home(t, d, name); h.Signed != signed || h.Width != 16 {
			t.Errorf("%s: signed=%v width=%d, want signed=%v width 16", name, h.Signed, h.Width, signed)
		}
	}
	want := "{lt:u1(sext:s32(top.a[32'd8+:8]s), 32'sd0), lt:u1(sext:s32(top.b[32'd8+:8]s), 32'sd0), " +
		"lt:u1(zext:u32(top.c[32'd8+:8]), 32'd0), lt:u1(sext:s32(top.e[32'd8+:8]s), 32'sd0)}"
	if got := rhsOf(t, d, "top.el"); got != want {
		t.Errorf("el = %s\nwant %s", got, want)
	}
}

func TestUnpackedArrays(t *testing.T) {
	d := mustElab(t, `module sub(input logic [7:0] m [4], output logic [7:0] s);
  assign s = m[0] + m[3];
endmodule
module top(input logic [7:0] mem [0:3], input logic [1:0] a, input logic signed [3:0] si, output logic [7:0] s, output logic [7:0] r, output logic [7:0] q, output logic [7:0] z);
  logic [7:0] hi [7:4];
  sub u (.m(mem), .s(s));
  assign r = mem[a];
  assign q = hi[si];
  always_comb begin
    hi[4] = mem[1];
    hi[5] = 8'd0; hi[6] = 8'd0; hi[7] = 8'd0;
  end
  assign z = mem[3];
endmodule`)
	if home(t, d, "u.m") != home(t, d, "mem") {
		t.Error("array port not collapsed")
	}
	if got := rhsOf(t, d, "top.q"); got != "top.hi[cast:u32(add:s32(sext:s32(top.si), 32'shfffffffc))]" {
		t.Errorf("q = %s", got)
	}
	p := procWriting(t, d, "top.z")
	if got := design.AccessList(p.Reads); got != "top.mem@3" {
		t.Errorf("z reads %s", got)
	}
	p = procWriting(t, d, "top.hi")
	if got := design.AccessList(p.Writes); got != "top.hi@0..3" {
		t.Errorf("hi writes %s", got)
	}
	if got := design.AccessList(p.Reads); got != "top.mem@1" {
		t.Errorf("hi reads %s", got)
	}
}

func TestInitialValues(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "rom.hex"), []byte("01\n02\n"), 0o644)
	src := `module top;
  logic [7:0] a = 8'h5A;
  logic [3:0] mem [0:7] = '{default: 4'h3};
  logic [7:0] lut [4];
  logic [7:0] rom [16];
  integer i;
  wire [7:0] w = a + 1;
  initial begin
    for (i = 0; i < 4; i = i + 1) lut[i] = i * 3;
    mem[2] = 4'hF;
  end
  initial $readmemh("rom.hex", rom);
  initial begin $display("hello %d", a); end
endmodule`
	path := filepath.Join(dir, "t.sv")
	os.WriteFile(path, []byte(src), 0o644)
	d := mustElab(t, src)
	if v := home(t, d, "a").Init; v == nil || v.Value.Int64() != 0x5A {
		t.Errorf("a init %v", v)
	}
	mem := home(t, d, "mem")
	if mem.Init.Elem(0).Int64() != 3 || mem.Init.Elem(2).Int64() != 15 || mem.Init.Elem(7).Int64() != 3 {
		t.Errorf("mem init %v", mem.Init)
	}
	lut := home(t, d, "lut")
	if lut.Init.Elem(3).Int64() != 9 || lut.Init.Elem(1).Int64() != 3 {
		t.Errorf("lut init %v", lut.Init)
	}
	if len(d.Initial) != 2 {
		t.Fatalf("%d initial processes, want 2 ($readmemh and $display)", len(d.Initial))
	}
	var rm *design.SysTask
	design.WalkStmt(d.Initial[0].Body, func(s design.Stmt) bool {
		if st, ok := s.(*design.SysTask); ok {
			rm = st
		}
		return true
	})
	if rm == nil || rm.Kind != design.TaskReadmemh || rm.Target != home(t, d, "rom") || rm.File != "rom.hex" {
		t.Errorf("readmemh: %+v", rm)
	}
	if got := rhsOf(t, d, "top.w"); got != "trunc:u8(add:u32(zext:u32(top.a), 32'd1))" {
		t.Errorf("w = %s", got)
	}
	// Resolved relative to the source file.
	if got := (&elab{}).resolveFile("rom.hex", hposOf(path)); got != filepath.Join(dir, "rom.hex") {
		t.Errorf("resolveFile = %s", got)
	}
}
