package hdl

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fuzzSeeds are small inputs covering every parser path; the fuzzer
// mutates them (testdata files are added too).
var fuzzSeeds = []string{
	"module m; endmodule",
	"module m #(parameter W=8, type T=logic) (input wire clk, input var logic [W-1:0] d, output logic q [4]); endmodule : m",
	"module m(a, b); input a; output reg [3:0] b; endmodule",
	"module m; assign a = b ? c : d ** e -> f; assign {g, h} = {2{i[3:0]}}; endmodule",
	"module m; always_ff @(posedge clk or negedge rst_n) if (!rst_n) q <= '0; else q <= d; endmodule",
	"module m; always @* begin unique case (s) inside [0:3], 5: x = 1; default: x = 'x; endcase end endmodule",
	"module m; for (genvar i = 0; i < 4; i++) begin : g sub #(8, .D(2)) u (.a(x[i]), .b, .*); end endmodule",
	"module m; if (W > 1) begin : a end else if (W) begin end else assign x = 1; case (W) 1: ; default: ; endcase endmodule",
	"module m; function automatic logic [7:0] f(input logic [7:0] a, b); return a + b; endfunction endmodule",
	"module m; function [7:0] f; input [7:0] a; begin f = a; end endfunction task t; input x; $display(x); endtask endmodule",
	"package p; typedef enum logic [1:0] {A, B=2} e; typedef struct packed signed {logic a; e b;} s; endpackage",
	"module m; initial begin for (int i = 0; i < 3; i++) begin if (i) break; end while (x) x--; do x++; while (x < 2); end endmodule",
	"module m; initial begin fork #1 a = 1; join -> e; @(e); wait (a) b = 1; disable t; void'(f(x)); end endmodule",
	"module m; assign x = '{default: 0}; assign y = '{a: 1, b: 2}; assign z = T'(w) + 8'(v) + (N+1)'(u) + signed'(t); endmodule",
	"module m; assign x = a inside {1, [2:3]} && $clog2(N) == $bits(logic [3:0]); endmodule",
	"interface i; modport m(input a); endinterface class c; endclass module m; assert property (a |-> b); endmodule",
	"`define W 8\nmodule m; wire [`W-1:0] a; `ifdef X wire b; `else wire c; `endif endmodule",
	"module m; wire a\nendmodule",
	"module m; assign a = (b + c; endmodule",
	"module m; always begin a = 1; endmodule",
	"module m(input a output b); endmodule",
	"module m; initial x = 8'hZG + 'q + 4'b102 + \"abc; endmodule",
	"module m; (* keep *) wire a; always @(*) (* x *) b = a; endmodule",
	"module m; assign a = {<<8{b}}; assign c = {>>{d, e}}; endmodule",
	"module m; sub u[3:0] (.a(b)); sub #8 v (); sub #(.T(logic [3:0])) w (); endmodule",
	"module",
	"module m; always_comb case (a",
	"module m #(",
	"(* ",
	"/* ",
	"\"",
	"'",
	"8'h",
	"module m; assign a = ((((((b))))));",
}

var errNoInclude = errors.New("no include files while fuzzing")

// FuzzParse runs the whole front end (preprocessor, lexer, parser, dumper)
// on arbitrary input: it must never panic and always terminate.
//
//	go test ./hdl/ -run XXX -fuzz FuzzParse -fuzztime 3m
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, pattern := range []string{"testdata/parse/*.sv", "testdata/designs/*"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(string(data))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		fs := NewFileSet()
		diags := NewDiagnostics(fs)
		opts := PreprocessOptions{ReadFile: func(string) ([]byte, error) { return nil, errNoInclude }}
		st := Load(fs, []Input{{Name: "fuzz.sv", Src: []byte(src)}}, opts, diags)
		if st == nil {
			t.Fatal("Load returned nil")
		}
		_ = Dump(st)
		for _, d := range diags.List {
			if !d.Pos.IsValid() && d.Pos.File != "<command line>" && d.Pos.File != "fuzz.sv" {
				t.Fatalf("diagnostic without a position: %v", d)
			}
			_ = d.Error()
		}
	})
}
