package hdl

import (
	"fmt"
	"strings"
	"testing"
)

// rawSource makes a Source from text without preprocessing, so lexer tests
// see exactly what they wrote.
func rawSource(name, text string) (*Source, *Diagnostics) {
	fs := NewFileSet()
	f := fs.Add(name, []byte(text))
	src := &Source{Files: fs}
	src.AppendVerbatim(f, 0, len(f.Src))
	return src, NewDiagnostics(fs)
}

func lexString(t *testing.T, text string) ([]Token, *Diagnostics) {
	t.Helper()
	src, diags := rawSource("lex.sv", text)
	return Lex(src, diags), diags
}

func TestLexNumbers(t *testing.T) {
	tests := []struct {
		in     string
		width  int
		signed bool
		base   byte
		value  string // hex
		xz, z  string // hex
		fill   byte
		real   bool
	}{
		{in: "12", signed: true, value: "c", xz: "0", z: "0"},
		{in: "1_000", signed: true, value: "3e8", xz: "0", z: "0"},
		{in: "8'hFF", width: 8, base: 'h', value: "ff", xz: "0", z: "0"},
		{in: "8'HfF", width: 8, base: 'h', value: "ff", xz: "0", z: "0"},
		{in: "'b101", base: 'b', value: "5", xz: "0", z: "0"},
		{in: "4'sd3", width: 4, signed: true, base: 'd', value: "3", xz: "0", z: "0"},
		{in: "16'h_dead", width: 16, base: 'h', value: "dead", xz: "0", z: "0"},
		{in: "8'bxx0z", width: 8, base: 'b', value: "0", xz: "fd", z: "1"},
		{in: "8'bz1", width: 8, base: 'b', value: "1", xz: "fe", z: "fe"},
		{in: "3'b?1?", width: 3, base: 'b', value: "2", xz: "5", z: "5"},
		{in: "8 'h ff", width: 8, base: 'h', value: "ff", xz: "0", z: "0"},
		{in: "8'o17", width: 8, base: 'o', value: "f", xz: "0", z: "0"},
		{in: "12'hx", width: 12, base: 'h', value: "0", xz: "fff", z: "0"},
		{in: "8'dx", width: 8, base: 'd', value: "0", xz: "ff", z: "0"},
		{in: "'hx", base: 'h', value: "0", xz: "ffffffff", z: "0"},
		{in: "4'b1", width: 4, base: 'b', value: "1", xz: "0", z: "0"},
		{in: "80'hFFFF_FFFF_FFFF_FFFF_FFFF", width: 80, base: 'h', value: "ffffffffffffffffffff", xz: "0", z: "0"},
		{in: "'0", value: "0", xz: "0", z: "0", fill: '0'},
		{in: "'1", value: "1", xz: "0", z: "0", fill: '1'},
		{in: "'x", value: "0", xz: "1", z: "0", fill: 'x'},
		{in: "'Z", value: "0", xz: "1", z: "1", fill: 'z'},
		{in: "1.5", value: "0", xz: "0", z: "0", real: true},
		{in: "1e3", value: "0", xz: "0", z: "0", real: true},
		{in: "2.5E-3", value: "0", xz: "0", z: "0", real: true},
		{in: "10ns", value: "0", xz: "0", z: "0", real: true},
	}
	for _, tc := range tests {
		toks, diags := lexString(t, tc.in)
		if err := diags.Err(); err != nil {
			t.Errorf("%q: unexpected error %v", tc.in, err)
			continue
		}
		if len(toks) != 2 || toks[0].Kind != TokNumber {
			t.Errorf("%q: want one number token, got %v", tc.in, toks)
			continue
		}
		n := toks[0].Num
		got := fmt.Sprintf("w=%d s=%v b=%q v=%x xz=%x z=%x fill=%q real=%v text=%s",
			n.Width, n.Signed, n.Base, n.Value, n.XZ, n.Z, n.Fill, n.Real, n.Text)
		want := fmt.Sprintf("w=%d s=%v b=%q v=%s xz=%s z=%s fill=%q real=%v text=%s",
			tc.width, tc.signed, tc.base, tc.value, tc.xz, tc.z, tc.fill, tc.real, tc.in)
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, got, want)
		}
	}
}

func TestLexNumberErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"x = 4'hZZG;", "lex.sv:1:10: error: invalid digit 'G' in hexadecimal literal 4'hZZG"},
		{"x = 'q;", "lex.sv:1:5: error: invalid literal 'q: expected a base (b, o, d, h) or 0, 1, x, z after '''"},
		{"x = 8'b102;", "lex.sv:1:10: error: invalid digit '2' in binary literal 8'b102"},
		{"x = 0'h1;", "lex.sv:1:5: error: literal size must be at least 1, not 0"},
		{"x = 8'h;", "lex.sv:1:8: error: missing digits after 8'h"},
		{"x = 8'd1x;", "lex.sv:1:8: error: a decimal literal cannot mix x or z with digits: 8'd1x"},
		{"x = 99999999999'h1;", "lex.sv:1:5: error: literal size 99999999999 is too large (at most 16777216 bits)"},
		{"x = '10;", "lex.sv:1:5: error: invalid literal '10: an unbased unsized literal is '0, '1, 'x or 'z"},
		{"x = \"abc\ny", "lex.sv:1:5: error: unterminated string literal"},
		{"/* open", "lex.sv:1:1: error: unterminated comment: '/*' without '*/'"},
		{"(* keep", "lex.sv:1:1: error: unterminated attribute: '(*' without '*)'"},
		{"a ` b", "lex.sv:1:3: error: compiler directive '`' reached the parser; directives must be handled by the preprocessor"},
		{"`timescale 1ns/1ps", "lex.sv:1:1: error: compiler directive '`timescale' reached the parser; directives must be handled by the preprocessor"},
		{"a \x01 b", "lex.sv:1:3: error: unexpected character 0x01"},
		{"a ' b", "lex.sv:1:3: error: stray ''': expected a literal, '{ or '("},
	}
	for _, tc := range tests {
		toks, diags := lexString(t, tc.in)
		err := diags.Err()
		if err == nil {
			t.Errorf("%q: no error", tc.in)
			continue
		}
		first := err.(*ErrorList).First()
		got := fmt.Sprintf("%s: %s: %s", first.Pos, first.Severity, first.Msg)
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if toks[len(toks)-1].Kind != TokEOF {
			t.Errorf("%q: tokens do not end with EOF", tc.in)
		}
	}
}

func TestLexTruncationWarning(t *testing.T) {
	toks, diags := lexString(t, "4'hFF")
	if diags.Err() != nil || len(diags.Warnings()) != 1 {
		t.Fatalf("want one warning, got %v", diags.List)
	}
	if n := toks[0].Num; n.Value.Int64() != 0xf {
		t.Errorf("value %x, want f", n.Value)
	}
}

func TestLexOperators(t *testing.T) {
	ops := []string{
		"<<<=", ">>>=", "<<<", ">>>", "===", "!==", "==?", "!=?", "<->", "<<=", ">>=",
		"**", "->", "+:", "-:", "::", "'{", "'(", "++", "--", "+=", "-=", "*=", "/=",
		"%=", "&=", "|=", "^=", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "~&",
		"~|", "~^", "^~", "#", "##", ".*", "+", "-", "*", "/", "%", "&", "|", "^", "~",
		"!", "<", ">", "=", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "@",
	}
	toks, diags := lexString(t, strings.Join(ops, " "))
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	if len(toks) != len(ops)+1 {
		t.Fatalf("got %d tokens for %d operators", len(toks)-1, len(ops))
	}
	for i, op := range ops {
		if toks[i].Kind != TokOp || toks[i].Text != op {
			t.Errorf("token %d: got %v %q, want %q", i, toks[i].Kind, toks[i].Text, op)
		}
	}
	// Maximal munch without spaces.
	toks, _ = lexString(t, "a<<<=b>>>c===d!==e==?f")
	var got []string
	for _, tk := range toks[:len(toks)-1] {
		got = append(got, tk.Text)
	}
	if strings.Join(got, " ") != "a <<<= b >>> c === d !== e ==? f" {
		t.Errorf("maximal munch: %q", got)
	}
}

func TestLexTokens(t *testing.T) {
	text := "module \\bus+idx  a$b $display $unit // c\n/* c */ (* keep = 1 *) @(*) @( * ) \"a\\n\\t\\\\\\\"\\101\\x41\" 8'(x)"
	toks, diags := lexString(t, text)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks[:len(toks)-1] {
		got = append(got, fmt.Sprintf("%s:%s", tk.Kind, tk.Text))
	}
	want := []string{
		"keyword:module", "identifier:bus+idx", "identifier:a$b", "system name:$display",
		"system name:$unit", "operator:@", "operator:(", "operator:*", "operator:)",
		"operator:@", "operator:(", "operator:*", "operator:)",
		`string:"a\n\t\\\"\101\x41"`, "number:8", "operator:'(", "identifier:x", "operator:)",
	}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("tokens:\n got %s\nwant %s", strings.Join(got, " | "), strings.Join(want, " | "))
	}
	for _, tk := range toks {
		if tk.Kind == TokString && tk.Str != "a\n\t\\\"AA" {
			t.Errorf("string value %q", tk.Str)
		}
	}
	if p := toks[1].Pos; p.Line != 1 || p.Col != 8 {
		t.Errorf("escaped identifier at %v, want 1:8", p)
	}
	if p := toks[5].Pos; p.Line != 2 || p.Col != 24 {
		t.Errorf("'@' at %v, want 2:24", p)
	}
}

func TestKeywordsAreReserved(t *testing.T) {
	for _, kw := range []string{"module", "logic", "always_ff", "unique0", "interface", "endgroup", "wait_order", "nettype"} {
		if !IsKeyword(kw) {
			t.Errorf("%s is not a keyword", kw)
		}
	}
	_, _, err := ParseString("k.sv", "module m; logic interface; endmodule")
	list, ok := err.(*ErrorList)
	if !ok || len(list.List) != 1 || !strings.HasPrefix(err.Error(), "k.sv:1:17: error: expected a name to declare, found keyword 'interface'") {
		t.Errorf("keyword as a name: %v", err)
	}
}
