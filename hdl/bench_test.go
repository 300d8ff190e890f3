package hdl

import (
	"fmt"
	"strings"
	"testing"
)

// bigDesign generates nmod modules of about 50 lines each, every module
// instantiating the previous one: realistic RTL density (declarations,
// always_ff/always_comb, case, expressions, instances).
func bigDesign(nmod int) string {
	var b strings.Builder
	for i := 0; i < nmod; i++ {
		fmt.Fprintf(&b, `// generated module %[1]d
module m%[1]d #(parameter int W = 8, parameter int D = 4) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic [W-1:0] a,
  input  logic [W-1:0] b,
  input  logic [1:0]   op,
  output logic [W-1:0] y
);
  logic [W-1:0] r0, r1, s, t;
  logic [D-1:0][W-1:0] pipe;
  logic [W-1:0] mem [0:D-1];

  always_comb begin
    unique case (op)
      2'd0: s = a + b;
      2'd1: s = a - b;
      2'd2: s = (a & b) | (~a & r0);
      default: s = {a[W/2-1:0], b[W-1:W/2]};
    endcase
    t = s ^ (r1 >> 1) ^ {W{op[0]}};
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      r0 <= '0;
      r1 <= '0;
      pipe <= '0;
    end else begin
      r0 <= s;
      r1 <= r0 + 8'h1;
      pipe <= {pipe[D-2:0], t};
      mem[r0[1:0]] <= t;
    end
  end
`, i)
		if i > 0 {
			fmt.Fprintf(&b, "  logic [W-1:0] sub_y;\n  m%d #(.W(W), .D(D)) u_prev (.clk, .rst_n, .a(r1), .b(t), .op(op ^ 2'b01), .y(sub_y));\n", i-1)
			b.WriteString("  assign y = pipe[D-1] ^ sub_y ^ mem[op];\n")
		} else {
			b.WriteString("  assign y = pipe[D-1] ^ mem[op];\n")
		}
		b.WriteString("endmodule\n\n")
	}
	return b.String()
}

func BenchmarkParse(b *testing.B) {
	text := bigDesign(1000)
	lines := strings.Count(text, "\n")
	fs := NewFileSet()
	diags := NewDiagnostics(fs)
	src := Preprocess(fs, []Input{{Name: "big.sv", Src: []byte(text)}}, PreprocessOptions{}, diags)
	if err := diags.Err(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		d := NewDiagnostics(fs)
		st := Parse(src, d)
		if d.Err() != nil || len(st.Modules) != 1000 {
			b.Fatalf("parse failed: %v", d.Err())
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkLoad includes the preprocessor.
func BenchmarkLoad(b *testing.B) {
	text := []byte(bigDesign(1000))
	lines := strings.Count(string(text), "\n")
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		diags := NewDiagnostics(nil)
		Load(nil, []Input{{Name: "big.sv", Src: text}}, PreprocessOptions{}, diags)
		if diags.Err() != nil {
			b.Fatal(diags.Err())
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestBigDesign keeps the benchmark input honest: it parses without errors.
func TestBigDesign(t *testing.T) {
	st, _, err := ParseString("big.sv", bigDesign(20))
	if err != nil || len(st.Modules) != 20 {
		t.Fatalf("%d modules, %v", len(st.Modules), err)
	}
}
