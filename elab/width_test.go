package elab

import (
	"testing"
)

// Width and signedness rules (IEEE 1800 §11.6, §11.8): elab inserts the
// extensions and truncations, so every node has its final local width.
func TestWidthRules(t *testing.T) {
	const decls = `
  logic [7:0] a, b; logic [3:0] c; logic [2:0] n;
  logic signed [7:0] sa, sb;
  logic [8:0] s; logic [15:0] y; logic signed [15:0] ys; logic r;
`
	tests := []struct {
		name, assign, target, want string
	}{
		{"add widens to the target", "assign s = a + b;", "s", "add:u9(zext:u9(top.a), zext:u9(top.b))"},
		{"shift keeps the carry", "assign s = (a + b) >> 1;", "s", "shr:u9(add:u9(zext:u9(top.a), zext:u9(top.b)), 32'd1)"},
		{"$signed mixed with unsigned is unsigned", "assign y = $signed(a) + b;", "y", "add:u16(zext:u16(top.a), zext:u16(top.b))"},
		{"signed operands sign-extend", "assign ys = sa + sb;", "ys", "add:s16(sext:s16(top.sa), sext:s16(top.sb))"},
		{"a signed operand in an unsigned expression zero-extends", "assign y = sa + b;", "y", "add:u16(zext:u16(top.sa), zext:u16(top.b))"},
		{"comparison operands sized to each other", "assign r = c < a;", "r", "lt:u1(zext:u8(top.c), top.a)"},
		{"comparison result is 1 bit, operands ignore the target", "assign r = (a + b) > 8'd255;", "r", "gt:u1(add:u8(top.a, top.b), 8'd255)"},
		{"comparison result extended in context", "assign y = (a < b) + c;", "y", "add:u16(zext:u16(lt:u1(top.a, top.b)), zext:u16(top.c))"},
		{"signed comparison", "assign r = sa < sb;", "r", "lt:u1(top.sa, top.sb)"},
		{"$unsigned makes the comparison unsigned", "assign r = $unsigned(sa) < sb;", "r", "lt:u1(cast:u8(top.sa), cast:u8(top.sb))"},
		{"shift amount is self-determined", "assign y = a << n;", "y", "shl:u16(zext:u16(top.a), top.n)"},
		{"arithmetic shift of a signed operand", "assign ys = sa >>> 2;", "ys", "ashr:s16(sext:s16(top.sa), 32'd2)"},
		{">>> of an unsigned operand is logical", "assign y = a >>> 2;", "y", "shr:u16(zext:u16(top.a), 32'd2)"},
		{"concat items are self-determined", "assign s = {a + b};", "s", "zext:u9(add:u8(top.a, top.b))"},
		{"concat is unsigned", "assign ys = {sa};", "ys", "zext:u16(top.sa)"},
		{"concat then add with an int", "assign y = {a, b} + 1;", "y", "trunc:u16(add:u32(zext:u32({top.a, top.b}), 32'd1))"},
		{"reduction", "assign r = &a;", "r", "redand:u1(top.a)"},
		{"logical and of vectors", "assign r = a && c;", "r", "and:u1(redor:u1(top.a), redor:u1(top.c))"},
		{"logical not", "assign r = !a;", "r", "lnot:u1(top.a)"},
		{"ternary branches are context-determined", "assign y = r ? a : c;", "y", "cond:u16(top.r, zext:u16(top.a), zext:u16(top.c))"},
		{"ternary condition is a truth value", "assign y = a ? b : c;", "y", "cond:u16(redor:u1(top.a), zext:u16(top.b), zext:u16(top.c))"},
		{"power: exponent self-determined", "assign y = a ** n;", "y", "pow:u16(zext:u16(top.a), top.n)"},
		{"unary minus is context-determined", "assign s = -a;", "s", "neg:u9(zext:u9(top.a))"},
		{"bitwise not in a wider context", "assign y = ~a;", "y", "not:u16(zext:u16(top.a))"},
		{"fill literal takes the context width", "assign y = '1;", "y", "16'd65535"},
		{"fill literal in an operation", "assign y = a | '1;", "y", "or:u16(zext:u16(top.a), 16'd65535)"},
		{"truncation to the target", "assign c = a + b;", "c", "trunc:u4(add:u8(top.a, top.b))"},
		{"part selects are unsigned", "assign ys = sa[7:4];", "ys", "zext:u16(top.sa[32'd4+:4])"},
		{"multiply widens to the target", "assign y = a * b;", "y", "mul:u16(zext:u16(top.a), zext:u16(top.b))"},
		{"constant folding with signed values", "assign y = 3 - 5;", "y", "16'sd65534"},
		{"signed division", "assign ys = sa / sb;", "ys", "div:s16(sext:s16(top.sa), sext:s16(top.sb))"},
		{"size cast", "assign y = 4'(a);", "y", "zext:u16(trunc:u4(top.a))"},
		{"signed cast", "assign ys = signed'(a);", "ys", "sext:s16(top.a)"},
		{"inside", "assign r = c inside {1, [4:6]};", "r", "or:u1(eq:u1(zext:u32(top.c), 32'd1), and:u1(le:u1(32'd4, zext:u32(top.c)), le:u1(zext:u32(top.c), 32'd6)))"},
		{"wildcard equality", "assign r = c ==? 4'b1?0?;", "r", "eq:u1(and:u4(top.c, 4'd10), 4'd8)"},
		{"replication", "assign y = {2{a}};", "y", "{2{top.a}}"},
		{"x bits kept for the warning, read as zero at run time", "assign c = 4'b1x0z;", "c", "4'b1x0z"},
		{"string literal", `assign y = "AB";`, "y", "16'd16706"},
		{"countones", "assign y = $countones(a);", "y", "trunc:s16($countones:s32(top.a))"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "module top;" + decls + "  " + tc.assign + "\nendmodule\n"
			d := mustElab(t, src)
			if got := rhsOf(t, d, "top."+tc.target); got != tc.want {
				t.Errorf("%s\n got  %s\n want %s", tc.assign, got, tc.want)
			}
		})
	}
}
