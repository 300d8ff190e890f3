package hdl

import (
	"strings"
	"testing"
)

// TestParseErrors checks the position and message of the first error and
// that recovery keeps the error count at what the input deserves.
//
// Position rule: a missing terminating ';' is reported just after the
// previous token; every other problem at the offending token, except
// unterminated constructs, which are reported at their opening keyword.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		in, first string
		count     int
	}{
		{"module m;\n  wire a\nendmodule\n", "t.sv:2:9: expected ';' after declaration, found 'endmodule'", 1},
		{"module top;\n  wire a;\n", "t.sv:1:1: unterminated module 'top': expected 'endmodule' before end of file", 1},
		{"module m;\n  assign a = (b + c;\nendmodule\n", "t.sv:2:20: missing ')' to close '(' at 2:14, found ';'", 1},
		{"module bar;\nendmodule : foo\n", "t.sv:2:13: 'endmodule' label 'foo' does not match module name 'bar'", 1},
		{"module m;\n  always begin\n    a = 1;\nendmodule\n", "t.sv:2:10: unterminated 'begin': expected 'end' before 'endmodule'", 1},
		{"module m;\n  initial begin : a\n  end : b\nendmodule\n", "t.sv:3:9: 'end' label 'b' does not match block name 'a'", 1},
		{"module m;\n  assign a = ;\nendmodule\n", "t.sv:2:14: expected expression, found ';'", 1},
		{"module m;\n  sub (a, b);\nendmodule\n", "t.sv:2:7: expected an instance name after 'sub', found '('", 1},
		{"module m;\n  a = 1;\nendmodule\n", "t.sv:2:3: expected a module item, found 'a' (an assignment outside a procedural block needs 'assign')", 1},
		{"module m;\n  always @(posedge clk) q <= d\nendmodule\n", "t.sv:2:31: expected ';' after assignment, found 'endmodule'", 1},
		{"module m;\n  always_comb case (a)\n    1: x = 1;\n  end\nendmodule\n", "t.sv:2:15: unterminated 'case': expected 'endcase' before 'end'", 1},
		{"module m;\n  function f;\n    f = 1;\nendmodule\n", "t.sv:2:3: unterminated function 'f': expected 'endfunction' before 'endmodule'", 1},
		{"module m;\n  function int f(); return 1; endfunction : g\nendmodule\n", "t.sv:2:45: 'endfunction' label 'g' does not match function name 'f'", 1},
		{"module m;\n  assign a = 8'hZG;\nendmodule\n", "t.sv:2:18: invalid digit 'G' in hexadecimal literal 8'hZG", 1},
		{"module m;\n  always_comb case (a)\n    1 x = 1;\n  endcase\nendmodule\n", "t.sv:3:7: expected ':' after case item, found 'x'", 1},
		{"module m;\n  for (genvar i = 0 i < 4; i++) begin end\nendmodule\n", "t.sv:2:21: expected ';' after the generate-for initialisation, found 'i'", 1},
		{"module m(input a output b);\nendmodule\n", "t.sv:1:18: expected ',' or ')' after port 'a', found 'output'", 1},
		{"module m(input a,);\nendmodule\n", "t.sv:1:18: expected a port name, found ')'", 1},
		{"module m;\n  parameter W = ;\nendmodule\n", "t.sv:2:17: expected expression, found ';'", 1},
		{"module m;\n  initial $display(\"abc);\nendmodule\n", "t.sv:2:20: unterminated string literal", 1},
		{"endmodule\n", "t.sv:1:1: 'endmodule' without a matching start", 1},
		{"module m;\n  logic [3:0 a;\nendmodule\n", "t.sv:2:14: missing ']' to close '[' at 2:9, found 'a'", 1},
		{"module m;\n  typedef struct packed { logic a } t;\nendmodule\n", "t.sv:2:34: expected ';' after struct member, found '}'", 1},
		{"module m;\n  always_comb case a\n    1: x = 1;\n  endcase\nendmodule\n", "t.sv:2:20: expected '(' after 'case', found 'a'", 1},
		{"module m;\n  wire [7:0] 1a;\nendmodule\n", "t.sv:2:14: expected a name to declare, found '1'", 1},
		{"module m;\n  wire a\n  assign b = c d;\n  always_ff @(posedge clk) q <= ;\nendmodule\n", "t.sv:2:9: expected ';' after declaration, found 'assign'", 3},
		{"module m;\n  initial begin\n    if (a) x = 1\n    else x = 2;\n  end\nendmodule\n", "t.sv:3:17: expected ';' after assignment, found 'else'", 1},
		{"module m;\n  sub u0 (.a(x), .b(y)\nendmodule\n", "t.sv:3:1: missing ')' to close '(' at 2:10, found 'endmodule'", 1},
		{"module m\n  wire a;\nendmodule\n", "t.sv:1:9: expected ';' after module header, found 'wire'", 1},
		{"package p;\n  assign a = b;\nendpackage\n", "t.sv:2:3: 'assign' is not allowed in a package", 1},
		{"module m;\n  initial begin\n    x = y +;\n  end\nendmodule\n", "t.sv:3:12: expected expression, found ';'", 1},
		{"module m;\n  generate\n    assign a = 1;\nendmodule\n", "t.sv:2:3: unterminated 'generate': expected 'endgenerate' before 'endmodule'", 1},
		{"module m #(parameter W = 8 (input a);\nendmodule\n", "t.sv:1:28: expected ',' or ')' after parameter 'W', found '('", 1},
		{"module m;\n  initial x = {a, b;\nendmodule\n", "t.sv:2:20: missing '}' to close '{' at 2:15, found ';'", 1},
		{"module m;\n  typedef struct packed { logic a;\n  function f; endfunction\nendmodule\n", "t.sv:3:3: expected a member declaration, found 'function'", 1},
		{"module m;\n  if (W) begin : g\n    assign a = 1;\n  end : h\nendmodule\n", "t.sv:4:9: 'end' label 'h' does not match block name 'g'", 1},
		{"module m;\n  always_ff @(posedge clk)\n    q <= d;;\n  assign a = b[;\nendmodule\n", "t.sv:4:16: expected expression, found ';'", 1},
		{"module m;\n  initial begin\n    x = 1;\n  end\n  end\nendmodule\n", "t.sv:5:3: unexpected 'end' in module 'm'", 1},
		{"package p;\n  localparam X = 1;\n", "t.sv:1:1: unterminated package 'p': expected 'endpackage' before end of file", 1},
	}
	for _, tc := range tests {
		_, _, err := ParseString("t.sv", tc.in)
		list, ok := err.(*ErrorList)
		if !ok {
			t.Errorf("%q: want an error, got %v", tc.in, err)
			continue
		}
		f := list.First()
		if got := f.Pos.String() + ": " + f.Msg; got != tc.first {
			t.Errorf("%q: first error\n got %s\nwant %s", tc.in, got, tc.first)
		}
		if n := len(list.List); n != tc.count {
			t.Errorf("%q: %d diagnostics, want %d:\n%v", tc.in, n, tc.count, err)
		}
	}
}

// TestParseErrorFormat checks the complete rendering of a diagnostic: the
// source line and a caret under the column.
func TestParseErrorFormat(t *testing.T) {
	_, _, err := ParseString("top.sv", "module top;\n\twire a\nendmodule\n")
	want := "top.sv:2:8: error: expected ';' after declaration, found 'endmodule'\n    \twire a\n    \t      ^"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestParseRecovery checks that independent errors are each reported once
// and that parsing goes on in later modules.
func TestParseRecovery(t *testing.T) {
	src := `module a;
  wire x
  assign y = ;
  always_comb begin
    z = = 1;
    w = 2;
  end
  sub u (.p(q);
endmodule
module b;
  initial begin
    if (c d) e = 1;
    case (f)
      1 g = 1;
      2: g = 2;
    endcase
  end
endmodule
module c; endmodule
`
	st, _, err := ParseString("r.sv", src)
	list, _ := err.(*ErrorList)
	if list == nil {
		t.Fatal("no errors")
	}
	var lines []string
	for _, d := range list.List {
		lines = append(lines, d.Pos.String())
	}
	want := "r.sv:2:9 r.sv:3:14 r.sv:5:9 r.sv:8:15 r.sv:12:11 r.sv:14:9"
	if strings.Join(lines, " ") != want {
		t.Errorf("errors at\n %s\nwant\n %s\n%v", strings.Join(lines, " "), want, err)
	}
	if len(st.Modules) != 3 || st.Modules[2].Name != "c" {
		t.Errorf("modules after errors: %d", len(st.Modules))
	}
}

// TestParseDeepNesting checks that absurd nesting is an error, not a stack
// overflow or a hang.
func TestParseDeepNesting(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"parens", "module m; assign a = " + strings.Repeat("(", 20000) + "b" + strings.Repeat(")", 20000) + "; endmodule"},
		{"unary", "module m; assign a = " + strings.Repeat("~", 20000) + "b; endmodule"},
		{"begin", "module m; initial " + strings.Repeat("begin ", 5000) + strings.Repeat("end ", 5000) + " endmodule"},
		{"generate", "module m; " + strings.Repeat("if (1) begin ", 5000) + strings.Repeat("end ", 5000) + " endmodule"},
		{"concat", "module m; assign a = " + strings.Repeat("{", 5000) + "b" + strings.Repeat("}", 5000) + "; endmodule"},
		{"ternary", "module m; assign a = " + strings.Repeat("c ? ", 5000) + "b" + strings.Repeat(" : d", 5000) + "; endmodule"},
		{"power", "module m; assign a = b" + strings.Repeat(" ** b", 4000) + "; endmodule"},
	} {
		_, _, err := ParseString("deep.sv", tc.src)
		list, _ := err.(*ErrorList)
		if tc.name == "power" {
			// Left-associative chains are read in a loop: only the tree
			// depth bound (MaxExprDepth) limits them.
			if err != nil {
				t.Errorf("%s: left-associative chains are iterative and must parse: %v", tc.name, list.First().Msg)
			}
			continue
		}
		if list == nil {
			t.Errorf("%s: no error", tc.name)
		} else if !strings.Contains(list.First().Msg, "nesting too deep") || len(list.List) != 1 {
			t.Errorf("%s: %d errors, first: %s", tc.name, len(list.List), list.First().Msg)
		}
	}
	// 200 levels is fine.
	if _, _, err := ParseString("ok.sv", "module m; assign a = "+strings.Repeat("(", 200)+"b"+strings.Repeat(")", 200)+"; endmodule"); err != nil {
		t.Errorf("200 parentheses: %v", err)
	}
}

// TestParseErrorLimit checks that a file full of errors stops at MaxErrors.
func TestParseErrorLimit(t *testing.T) {
	src := "module m;\n" + strings.Repeat("  assign = ;\n  wire ;\n", 200) + "endmodule\n"
	_, _, err := ParseString("many.sv", src)
	list, _ := err.(*ErrorList)
	if list == nil || len(list.List) != MaxErrors {
		t.Fatalf("want %d errors, got %v", MaxErrors, err)
	}
}
