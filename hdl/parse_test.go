package hdl

import (
	"strings"
	"testing"
)

// flatDump is Dump on one line, for table tests.
func flatDump(n any) string {
	var b strings.Builder
	toSx(n).flat(&b)
	return b.String()
}

func mustParse(t *testing.T, text string) *SourceText {
	t.Helper()
	st, _, err := ParseString("t.sv", text)
	if err != nil {
		t.Fatalf("parse error:\n%v\nin:\n%s", err, text)
	}
	return st
}

// itemsOf parses body inside `module m; ... endmodule` and dumps its items,
// one per line.
func itemsOf(t *testing.T, body string) string {
	t.Helper()
	st := mustParse(t, "module m;\n"+body+"\nendmodule\n")
	if len(st.Modules) != 1 {
		t.Fatalf("want 1 module, got %d", len(st.Modules))
	}
	var lines []string
	for _, it := range st.Modules[0].Items {
		lines = append(lines, flatDump(it))
	}
	return strings.Join(lines, "\n")
}

func TestParseExpressions(t *testing.T) {
	tests := []struct{ in, want string }{
		// Precedence and associativity.
		{"a + b * c", "(+ a (* b c))"},
		{"a * b + c", "(+ (* a b) c)"},
		{"a - b - c", "(- (- a b) c)"},
		{"a / b % c", "(% (/ a b) c)"},
		{"2 ** 3 ** 2", "(** (** 2 3) 2)"},
		{"-a ** 2", "(** (- a) 2)"},
		{"a ? b : c ? d : e", "(? a b (? c d e))"},
		{"a ? b ? c : d : e", "(? a (? b c d) e)"},
		{"a || b && c", "(|| a (&& b c))"},
		{"a && b || c && d", "(|| (&& a b) (&& c d))"},
		{"a | b ^ c & d", "(| a (^ b (& c d)))"},
		{"a ~^ b ^~ c", "(^~ (~^ a b) c)"},
		{"a == b < c", "(== a (< b c))"},
		{"a === b !== c", "(!== (=== a b) c)"},
		{"a ==? b || a !=? c", "(|| (==? a b) (!=? a c))"},
		{"a <= b", "(<= a b)"},
		{"a << 1 + 2", "(<< a (+ 1 2))"},
		{"a >>> 2 <<< 1", "(<<< (>>> a 2) 1)"},
		{"a -> b", "(-> a b)"},
		{"a <-> b || c", "(<-> a (|| b c))"},
		{"a -> b -> c", "(-> a (-> b c))"},
		{"&a | ~^b", "(| (& a) (~^ b))"},
		{"~&a ^ ~|b", "(^ (~& a) (~| b))"},
		{"!a && ~b", "(&& (! a) (~ b))"},
		{"- - a", "(- (- a))"},
		{"+a - -b", "(- (+ a) (- b))"},
		{"(a + b) * c", "(* (+ a b) c)"},
		{"x inside {a, [b:c]}", "(inside x a (range b c))"},
		{"a + b inside {1, 2}", "(inside (+ a b) 1 2)"},
		{"a == b inside {1}", "(== a (inside b 1))"},
		{"!(s inside {[0:3], [8:$]})", "(! (inside s (range 0 3) (range 8 $)))"},
		// Primaries, selects, members.
		{"{a, b[3], c}", "(concat a (idx b 3) c)"},
		{"{4{a}}", "(repl 4 a)"},
		{"{N{1'b0}}", "(repl N 1'b0)"},
		{"{2{a, b}}", "(repl 2 a b)"},
		{"{a, {2{b}}}", "(concat a (repl 2 b))"},
		{"{<<8{x}}", "(stream << 8 x)"},
		{"{>>{a, b}}", "(stream >> a b)"},
		{"a[3]", "(idx a 3)"},
		{"a[7:4]", "(sel a 7 4)"},
		{"a[i*8 +: 8]", "(sel+ a (* i 8) 8)"},
		{"a[j -: 4]", "(sel- a j 4)"},
		{"mem[i][3:0]", "(sel (idx mem i) 3 0)"},
		{"x.y[2]", "(idx (. x y) 2)"},
		{"s.a.b", "(. (. s a) b)"},
		{"p::C + 1", "(+ p::C 1)"},
		{"$unit::x", "$unit::x"},
		{`"hello\n"`, `"hello\n"`},
		// Calls.
		{"f(a, b)", "(call f a b)"},
		{"f()", "(call f)"},
		{"p::f(x)", "(call p::f x)"},
		{"f(.a(1), .b(2))", "(call f (.a 1) (.b 2))"},
		{"$clog2(N)", "(call $clog2 N)"},
		{"$bits(logic [3:0])", "(call $bits (logic [3:0]))"},
		{"$bits(my_t)", "(call $bits my_t)"},
		{"$signed(a) >>> $unsigned(b)", "(>>> (call $signed a) (call $unsigned b))"},
		{"$time", "(call $time)"},
		{"$onehot0(x) && $countones(y) == 1", "(&& (call $onehot0 x) (== (call $countones y) 1))"},
		{`$sformatf("%d", , b)`, `(call $sformatf "%d" <nil> b)`},
		// Casts.
		{"8'(x)", "(cast 8 x)"},
		{"W'(x)", "(cast W x)"},
		{"(W+1)'(x)", "(cast (+ W 1) x)"},
		{"signed'(x)", "(cast signed x)"},
		{"unsigned'(x + 1)", "(cast unsigned (+ x 1))"},
		{"int'(x)", "(cast (type int) x)"},
		{"p::W'(x)", "(cast p::W x)"},
		// Patterns.
		{"'{default: '0}", "(pattern (default '0))"},
		{"'{a, b}", "(pattern a b)"},
		{"'{x: 1, y: 2}", "(pattern (key x 1) (key y 2))"},
		{"'{2{a}}", "(pattern (repeat 2) a)"},
		{"'{a: 1, default: 0}", "(pattern (key a 1) (default 0))"},
		{"'{int: 0}", "(pattern (key int 0))"},
		// Literals.
		{"'1 & 8'hFF & 'x", "(& (& '1 8'hFF) 'x)"},
		{"(a:b:c)", "b"},
	}
	for _, tc := range tests {
		st, _, err := ParseString("e.sv", "module m; assign x = "+tc.in+"; endmodule")
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		got := flatDump(st.Modules[0].Items[0].(*ContAssign).RHS)
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

// TestParseTypeCast checks that a cast to a typedef name becomes a type
// cast, and to anything else a size cast.
func TestParseTypeCast(t *testing.T) {
	got := itemsOf(t, "typedef logic [3:0] nib_t;\nassign a = nib_t'(b);\nassign c = nib_t'{default: 0};\nassign d = W'(b);")
	want := "(typedef nib_t (logic [3:0]))\n(assign a (cast (type nib_t) b))\n(assign c (cast (type nib_t) (pattern (default 0))))\n(assign d (cast W b))"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	st := mustParse(t, "module m #(parameter type T = logic) (); assign a = T'(b); endmodule")
	c := st.Modules[0].Items[0].(*ContAssign).RHS.(*CastExpr)
	if c.Type == nil || c.Type.Kind != TypeNamed || c.Type.Name != "T" {
		t.Errorf("type parameter cast: %s", flatDump(c))
	}
}

func TestParseItems(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"decls", "wire [3:0] a, b; logic c = 1; var logic d; reg [7:0] mem [0:255]; integer i; bit signed [3:0] s;",
			"(var wire (implicit [3:0]) a b)\n(var logic (c = 1))\n(var var logic d)\n(var (reg [7:0]) (mem [0:255]))\n(var integer i)\n(var (bit signed [3:0]) s)"},
		{"more types", "int unsigned u; byte b; shortint s; longint l; time t; wire signed [7:0] w; logic [3:0][7:0] pk; logic up [4][2];",
			"(var (int unsigned) u)\n(var byte b)\n(var shortint s)\n(var longint l)\n(var time t)\n(var wire (implicit signed [7:0]) w)\n(var (logic [3:0] [7:0]) pk)\n(var logic (up [4] [2]))"},
		{"user types", "my_t x; p::t y = 0; my_t [3:0] z; wire my_t n;",
			"(var my_t x)\n(var p::t (y = 0))\n(var (my_t [3:0]) z)\n(var wire my_t n)"},
		{"params", "parameter W = 8; localparam int D = W * 2, E = 3; parameter [3:0] M = 4'hF; parameter type T = logic [7:0];",
			"(param (W = 8))\n(localparam int (D = (* W 2)) (E = 3))\n(param (implicit [3:0]) (M = 4'hF))\n(param type (T (logic [7:0])))"},
		{"typedefs", "typedef enum logic [1:0] {A, B = 2, C} e_t; typedef struct packed signed {logic [3:0] x; e_t y;} s_t; typedef union packed {logic [7:0] a; s_t b;} u_t; typedef fwd_t; typedef logic [7:0] arr_t [4];",
			"(typedef e_t (enum (logic [1:0]) A (B 2) C))\n(typedef s_t ((struct packed (member (logic [3:0]) x) (member e_t y)) signed))\n(typedef u_t (union packed (member (logic [7:0]) a) (member s_t b)))\n(typedef fwd_t <nil>)\n(typedef arr_t (logic [7:0]) [4])"},
		{"enum default base", "enum {X, Y} st;", "(var (enum X Y) st)"},
		{"imports", "import p::*; import q::a, r::b;", "(import p::*)\n(import q::a)\n(import r::b)"},
		{"assign list", "assign a = b, c = d;", "(assign a b)\n(assign c d)"},
		{"assign delay", "assign #1 a = b; assign #(2) {c, d} = e;", "(assign (# 1) a b)\n(assign (# 2) (concat c d) e)"},
		{"assign select", "assign a[3:0] = b; assign s.f = 1;", "(assign (sel a 3 0) b)\n(assign (. s f) 1)"},
		{"always kinds", "always @* a = b; always @(*) a = b; always @(a or b) c = a; always @(a, b) c = b; always_comb c = d; always_latch if (en) q = d; initial x = 0; final $display(x);",
			"(always (@* (= a b)))\n(always (@* (= a b)))\n(always (@ (a b) (= c a)))\n(always (@ (a b) (= c b)))\n(always_comb (= c d))\n(always_latch (if en (= q d)))\n(initial (= x 0))\n(final (do (call $display x)))"},
		{"always_ff", "always_ff @(posedge clk or negedge rst_n) if (!rst_n) q <= 0; else q <= d;",
			"(always_ff (@ ((posedge clk) (negedge rst_n)) (if (! rst_n) (<= q 0) (<= q d))))"},
		{"always_ff iff", "always_ff @(posedge clk iff en, edge x) q <= d;",
			"(always_ff (@ ((posedge clk (iff en)) (edge x)) (<= q d)))"},
		{"instances", "sub u0 (.a(x), .b(), .c, .*); sub #(8, .D(2)) u1 (x, , y); sub #8 u2 (); sub #W u3(); sub u4 [3:0] (.a(v)), u5 (.a(w));",
			"(inst sub (u0 (.a x) (.b ()) (.c) .*))\n(inst sub (# 8 (.D 2)) (u1 x <nil> y))\n(inst sub (# 8) (u2))\n(inst sub (# W) (u3))\n(inst sub (u4 [3:0] (.a v)) (u5 (.a w)))"},
		{"instance type params", "fifo #(.T(logic [7:0]), .N(4)) u (.*); fifo #(my_t) v ();",
			"(inst fifo (# (.T (logic [7:0])) (.N 4)) (u .*))\n(inst fifo (# my_t) (v))"},
		{"genvar and generate for", "genvar i; generate for (i = 0; i < 4; i = i + 1) begin : g assign a[i] = b[i]; end endgenerate",
			"(genvar i)\n(generate (genfor i 0 (< i 4) (= i (+ i 1)) (genblock g (assign (idx a i) (idx b i)))))"},
		{"bare generate for", "for (genvar i = 0; i < N; i++) begin : g sub u (.a(x[i])); end : g",
			"(genfor genvar i 0 (< i N) (++ i) (genblock g (inst sub (u (.a (idx x i))))))"},
		{"generate for single item", "for (genvar i = 0; i < N; i += 2) assign a[i] = 0;",
			"(genfor genvar i 0 (< i N) (+= i 2) (genblock (assign (idx a i) 0)))"},
		{"generate if", "if (X) begin : g assign a = 1; end else if (Y) begin : h assign a = 2; end else assign a = 3;",
			"(genif X (genblock g (assign a 1)) (genblock (genif Y (genblock h (assign a 2)) (genblock (assign a 3)))))"},
		{"generate case", "case (W) 1, 2: begin : sm assign a = 1; end default: assign a = 0; endcase",
			"(gencase W (item (1 2) (genblock sm (assign a 1))) (default (genblock (assign a 0))))"},
		{"labeled generate block", "g0: begin assign a = 1; end begin : g1 end",
			"(genblock g0 (assign a 1))\n(genblock g1)"},
		{"elaboration task", "if (W < 1) $error(\"bad W %0d\", W);",
			"(genif (< W 1) (genblock (elabtask (call $error \"bad W %0d\" W))))"},
		{"function ansi", "function automatic logic [7:0] f(input logic [7:0] a, b, output int c); c = 0; return a + b; endfunction : f",
			"(function automatic (logic [7:0]) f (args (arg input (logic [7:0]) a) (arg input (logic [7:0]) b) (arg output int c)) (= c 0) (return (+ a b)))"},
		{"function old style", "function [7:0] f; input [7:0] a; input b; reg [7:0] t; begin t = a; f = t; end endfunction",
			"(function (implicit [7:0]) f (args (arg input (implicit [7:0]) a) (arg input implicit b)) (decls (var (reg [7:0]) t)) (begin (= t a) (= f t)))"},
		{"void and typed functions", "function void g(int x); endfunction function my_t h(); return '0; endfunction function integer k(input x); k = x; endfunction",
			"(function void g (args (arg input int x)))\n(function my_t h (return '0))\n(function integer k (args (arg input implicit x)) (= k x))"},
		{"tasks", "task automatic t(input int a, output logic b); b = a[0]; endtask task t2; input x; begin $display(x); end endtask : t2",
			"(task automatic t (args (arg input int a) (arg output logic b)) (= b (idx a 0)))\n(task t2 (args (arg input implicit x)) (begin (do (call $display x))))"},
		{"attributes", "(* keep *) wire a; (* full_case, parallel_case *) always @* (* x = 1 *) b = a;",
			"(var wire implicit a)\n(always (@* (= b a)))"},
		{"unsupported items", "defparam u.W = 8; and g1 (o, a, b); modport mp (input a); class c; int x; endclass assert property (@(posedge clk) a |-> b) else $error(\"x\"); a1: cover property (a);",
			"(unsupported \"defparam\")\n(unsupported \"gate primitive 'and'\")\n(unsupported \"modport\")\n(unsupported \"class\" c)\n(assertion \"assert property (@(posedge clk) a |-> b) else $error(\\\"x\\\");\")\n(assertion \"cover property (a);\")"},
		{"default clocking and disable are assertion items", "default disable iff (!rst_n || flush); default clocking cb @(posedge clk); endclocking default clocking @(negedge c2); endclocking : lbl",
			"(assertion \"default disable iff (!rst_n || flush);\")\n(assertion \"default clocking cb @(posedge clk); endclocking\")\n(assertion \"default clocking @(negedge c2); endclocking : lbl\")"},
		{"unsupported blocks", "covergroup cg @(posedge clk); coverpoint x; endgroup property p; a |-> b; endproperty sequence s; a ##1 b; endsequence clocking cb @(posedge clk); endclocking",
			"(unsupported \"covergroup\" cg)\n(unsupported \"property\" p)\n(unsupported \"sequence\" s)\n(unsupported \"clocking\" cb)"},
		{"nested interface", "interface bus_if; logic a; modport m (input a); endinterface : bus_if",
			"(unsupported \"interface\" bus_if)"},
		{"timeunit and empty items", "timeunit 1ns; timeprecision 1ps; ;;", ""},
	}
	for _, tc := range tests {
		got := itemsOf(t, tc.in)
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestParseStatements(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"assignments", "a = b; a <= b; a += 1; a <<<= 2; a >>= 1; a++; --a; {c, d} = e; m[i][j] = 0; s.f <= 1;",
			"(= a b) (<= a b) (+= a 1) (<<<= a 2) (>>= a 1) (++ a) (-- a) (= (concat c d) e) (= (idx (idx m i) j) 0) (<= (. s f) 1)"},
		{"intra-assignment delay", "q <= #1 d; x = #2 y;", "(<= q (# 1) d) (= x (# 2) y)"},
		{"if else", "if (a) b = 1; else if (c) b = 2; else b = 3;", "(if a (= b 1) (if c (= b 2) (= b 3)))"},
		{"dangling else", "if (a) if (b) x = 1; else x = 2;", "(if a (if b (= x 1) (= x 2)))"},
		{"qualified if", "unique if (a) x = 1; else x = 0; unique0 if (b) y = 1; priority if (c) z = 1;",
			"(if unique a (= x 1) (= x 0)) (if unique0 b (= y 1)) (if priority c (= z 1))"},
		{"case", "case (s) 0: x = 1; 1, 2: begin x = 2; end default x = 0; endcase",
			"(case s (item (0) (= x 1)) (item (1 2) (begin (= x 2))) (default (= x 0)))"},
		{"casez casex", "casez (s) 4'b1???: x = 1; endcase casex (s) 4'b1x0z: x = 2; default: ; endcase",
			"(casez s (item (4'b1???) (= x 1))) (casex s (item (4'b1x0z) (= x 2)) (default (null)))"},
		{"qualified case inside", "unique case (s) inside [0:3]: x = 1; 4, [6:7]: x = 2; endcase priority case (t) A: x = 0; endcase",
			"(case unique inside s (item ((range 0 3)) (= x 1)) (item (4 (range 6 7)) (= x 2))) (case priority t (item (A) (= x 0)))"},
		{"for loops", "for (int i = 0; i < N; i++) x[i] = 0; for (i = 0; i < 8; i = i + 1) y = y + i; for (int i = 0, j = 1; ; i++, j--) ;",
			"(for ((var int (i = 0))) (< i N) ((++ i)) (= (idx x i) 0)) (for ((= i 0)) (< i 8) ((= i (+ i 1))) (= y (+ y i))) (for ((var int (i = 0) (j = 1))) <nil> ((++ i) (-- j)) (null))"},
		{"loops", "while (a) a = a - 1; do a++; while (a < 3); repeat (4) b = b << 1; forever #5 clk = ~clk;",
			"(while a (= a (- a 1))) (do-while (< a 3) (++ a)) (repeat 4 (= b (<< b 1))) (forever (# 5 (= clk (~ clk))))"},
		{"jumps", "break; continue; return; return x + 1;", "(break) (continue) (return) (return (+ x 1))"},
		{"blocks with declarations", "begin : blk automatic int i = 0; logic [3:0] t; my_t u; i = 1; end : blk begin int j; end",
			"(begin blk (var automatic int (i = 0)) (var (logic [3:0]) t) (var my_t u) (= i 1)) (begin (var int j))"},
		{"declaration after statements", "begin a = 1; int k; end", "(begin (= a 1) (decl (var int k)))"},
		{"calls", "t; t(1, 2); p::t(); $display(\"%d\", x); $finish; void'(f(x)); obj.m;",
			"(do (call t)) (do (call t 1 2)) (do (call p::t)) (do (call $display \"%d\" x)) (do (call $finish)) (do (cast (type void) (call f x))) (do (call m (scope obj)))"},
		{"timing", "@(posedge clk); @(posedge clk) x = 1; @e x = 2; #10; #(N) x = 3; #1ns x = 4; wait (done) x = 5;",
			"(@ ((posedge clk)) (null)) (@ ((posedge clk)) (= x 1)) (@ (e) (= x 2)) (# 10 (null)) (# N (= x 3)) (# 1ns (= x 4)) (wait done (= x 5))"},
		{"unsupported statements", "fork a = 1; begin b = 2; end join_any disable foo; -> ev; assign x = 1; foreach (a[i]) a[i] = 0; wait fork;",
			"(unsupported \"fork/join\") (unsupported \"disable\") (unsupported \"event trigger '->'\") (unsupported \"procedural 'assign'\") (foreach a (i) (= (idx a i) 0)) (unsupported \"wait fork\")"},
		{"assertions", "assert (a == b) else $error(\"mismatch\"); a1: assert (x); assume (y) z = 1; else z = 0; cover (c);",
			"(assertion \"assert (a == b) else $error(\\\"mismatch\\\");\") (assertion \"assert (x);\") (assertion \"assume (y) z = 1; else z = 0;\") (assertion \"cover (c);\")"},
		{"labels", "l1: x = 1; l2: begin y = 2; end", "(= x 1) (begin l2 (= y 2))"},
	}
	for _, tc := range tests {
		st, _, err := ParseString("s.sv", "module m; initial begin\n"+tc.in+"\nend endmodule")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, s := range st.Modules[0].Items[0].(*AlwaysBlock).Body.(*BlockStmt).Stmts {
			got = append(got, flatDump(s))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, strings.Join(got, " "), tc.want)
		}
	}
}

func TestParseModuleHeaders(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"ansi full",
			"module m #(parameter W=8, type T=logic) (input wire clk, input var logic [W-1:0] d, output logic q [4], output reg [3:0] r); endmodule : m",
			"(module m ansi (params (param (W = 8)) (param type (T logic))) (ports (port input wire implicit clk) (port input var (logic [(- W 1):0]) d) (port output logic (q [4])) (port output (reg [3:0]) r)))"},
		{"non-ansi",
			"module m (a, b, c); input a; input [3:0] b; output reg c; endmodule",
			"(module m (ports (port a) (port b) (port c)) (port input implicit a) (port input (implicit [3:0]) b) (port output reg c))"},
		{"inherited port direction and type",
			"module m (input logic a, b, output [3:0] c, d, inout e); endmodule",
			"(module m ansi (ports (port input logic a b) (port output (implicit [3:0]) c d) (port inout implicit e)))"},
		{"header imports and untyped param list",
			"module m import p::*, q::x; import r::*; #(W = 8, D = W + 1, localparam L = 2, int unsigned U = 3) (); endmodule",
			"(module m (imports (import p::*) (import q::x) (import r::*)) (params (param (W = 8) (D = (+ W 1))) (localparam (L = 2)) (localparam (int unsigned) (U = 3))))"},
		{"no ports", "module m; endmodule macromodule n(); endmodule", "(module m)\n(module n)"},
		{"interface ports", "module m (bus_if.master b, input x); endmodule",
			"(module m ansi (ports (port (interface bus_if.master) b) (port input implicit x)))"},
		{"lifetime and default", "module automatic m (input logic [7:0] a = 8'h1); endmodule",
			"(module m ansi (ports (port input (logic [7:0]) (a = 8'h1))))"},
		{"package", "package p; localparam X = 1; typedef int t; function automatic int f(int a); return a; endfunction endpackage : p",
			"(package p (localparam (X = 1)) (typedef t int) (function automatic int f (args (arg input int a)) (return a)))"},
		{"compilation-unit items", "typedef logic [1:0] t2; localparam Z = 0; function int g(); return 1; endfunction module m; endmodule",
			"(typedef t2 (logic [1:0]))\n(localparam (Z = 0))\n(function int g (return 1))\n(module m)"},
		{"top-level unsupported units", "program pr; endprogram class c; endclass",
			"(unsupported \"program\" pr)\n(unsupported \"class\" c)"},
		{"interface", "interface i #(parameter W = 2) (input logic clk); logic [W-1:0] d; modport m (input d, import f), s (output d, import function int g(int x)); endinterface : i",
			"(interface i ansi (params (param (W = 2))) (ports (port input logic clk)) (var (logic [(- W 1):0]) d) (modport m (input d) (import f)) (modport s (output d) (import g)))"},
	}
	for _, tc := range tests {
		st := mustParse(t, tc.in)
		var got []string
		for _, pk := range st.Packages {
			got = append(got, flatDump(pk))
		}
		for _, it := range st.Items {
			got = append(got, flatDump(it))
		}
		for _, m := range st.Modules {
			got = append(got, flatDump(m))
		}
		if strings.Join(got, "\n") != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, strings.Join(got, "\n"), tc.want)
		}
	}
}

// TestParsePositions checks that nodes carry the position of their first
// token and that positions survive macro expansion.
func TestParsePositions(t *testing.T) {
	st := mustParse(t, "`define ONE 1\nmodule m;\n  assign a = b + `ONE;\n  always_ff @(posedge clk)\n    q <= d;\nendmodule\n")
	m := st.Modules[0]
	ca := m.Items[0].(*ContAssign)
	if p := ca.Pos; p.Line != 3 || p.Col != 3 {
		t.Errorf("assign at %v", p)
	}
	if p := ca.RHS.(*BinaryExpr).Y.Position(); p.Line != 3 || p.Col != 18 {
		t.Errorf("macro expansion at %v, want 3:18 (the macro use)", p)
	}
	ab := m.Items[1].(*AlwaysBlock)
	as := ab.Body.(*EventStmt).Body.(*AssignStmt)
	if p := as.Pos; p.Line != 5 || p.Col != 5 {
		t.Errorf("assignment at %v", p)
	}
	if p := m.End; p.Line != 6 || p.Col != 1 {
		t.Errorf("endmodule at %v", p)
	}
}
