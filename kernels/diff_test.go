package kernels

import (
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"testing"
)

// aluSrc is a combinational ALU over W-bit operands: every operator,
// unsigned and signed, static and dynamic shifts and selects. Divisors are
// forced non-zero and dynamic selects kept in range because Icarus gives x
// there (the design.Machine comparison covers those corners elsewhere).
const aluSrc = `
module alu #(parameter int W = 8) (
  input  logic [W-1:0] a, b,
  input  logic [7:0]   s,
  input  logic [7:0]   k,
  output logic [W-1:0] o_add, o_sub, o_mul, o_divu, o_modu, o_divs, o_mods,
  output logic [W-1:0] o_and, o_or, o_xor, o_xnor, o_not, o_neg,
  output logic [W-1:0] o_shl, o_shr, o_sra, o_sru, o_shlb, o_shrb, o_srab, o_shlc, o_srac,
  output logic [W-1:0] o_mux, o_pow, o_pows, o_max,
  output logic [15:0]  o_cmp,
  output logic [2*W-1:0] o_wmul, o_cat,
  output logic [W+7:0] o_sext,
  output logic [3*W-1:0] o_rep,
  output logic [31:0]  o_pop, o_clog,
  output logic         o_bit, o_oh, o_oh0,
  output logic [3:0]   o_dsel
);
  logic signed [W-1:0] sa, sb, sbd;
  logic [W-1:0] bd;
  logic [7:0] kk;
  assign sa = a;
  assign sb = b;
  assign bd = (b <= 1) ? ((W > 1) ? 3 : 1) : b;  // Icarus 11 divides wide values by 1 wrongly
  assign sbd = bd;
  assign kk = (W > 4) ? (k % (W - 3)) : 8'd0;

  assign o_add = a + b;
  assign o_sub = a - b;
  assign o_mul = a * b;
  assign o_divu = a / bd;
  assign o_modu = a % bd;
  assign o_divs = sa / sbd;
  assign o_mods = sa % sbd;
  assign o_and = a & b;
  assign o_or = a | b;
  assign o_xor = a ^ b;
  assign o_xnor = a ~^ b;
  assign o_not = ~a;
  assign o_neg = -a;
  assign o_shl = a << s;
  assign o_shr = a >> s;
  assign o_sra = sa >>> s;
  assign o_sru = a >>> s;
  assign o_shlb = a << b;
  assign o_shrb = a >> b;
  assign o_srab = sa >>> b;
  assign o_shlc = a << 3;
  assign o_srac = sa >>> (W/2);
  assign o_mux = s[0] ? a : b;
  assign o_pow = a ** s[2:0];
  assign o_pows = sa ** 2;
  assign o_max = (sa > sb) ? sa : sb;
  assign o_cmp = {a < b, a <= b, a > b, a >= b, sa < sb, sa <= sb, sa > sb, sa >= sb,
                  a == b, a != b, &a, |a, ^a, !a, ~&b, ~^b};
  assign o_wmul = {{W{1'b0}}, a} * {{W{1'b0}}, b};
  assign o_cat = {a, b};
  assign o_sext = {{8{sa[W-1]}}, sa};
  assign o_rep = {3{a}};
  assign o_pop = $countones(a);
  assign o_clog = $clog2(a);
  assign o_bit = a[kk];
  assign o_oh = $onehot(a);
  assign o_oh0 = $onehot0(b);
  assign o_dsel = (W >= 4) ? a[kk +: 4] : 4'd0;
endmodule
`

func TestDiffALU(t *testing.T) {
	for _, w := range []int{1, 2, 3, 7, 8, 13, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 130} {
		w := w
		t.Run(fmt.Sprintf("W%d", w), func(t *testing.T) {
			runDiff(t, diffCase{name: "alu", top: "alu", srcs: []string{aluSrc},
				params: map[string]string{"W": fmt.Sprint(w)}, cycles: 40, seed: int64(w)})
		})
	}
}

const counterSrc = `
module counter (
  input  logic clk, rst_n, en, load, up,
  input  logic [11:0] d,
  output logic [11:0] q,
  output logic wrap, odd
);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      q <= '0;
      wrap <= 1'b0;
    end else if (load) begin
      q <= d;
    end else if (en) begin
      if (up) begin
        q <= q + 12'd1;
        wrap <= (q == 12'hfff);
      end else begin
        q <= q - 12'd1;
        wrap <= (q == 12'h000);
      end
    end
  end
  assign odd = q[0];
endmodule
`

func resetGen(k int, r *rand.Rand, w int) *big.Int {
	if k < 2 || r.Intn(40) == 0 {
		return big.NewInt(0)
	}
	return big.NewInt(1)
}

func rareGen(p int) func(k int, r *rand.Rand, w int) *big.Int {
	return func(k int, r *rand.Rand, w int) *big.Int {
		if r.Intn(p) == 0 {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
}

func TestDiffCounter(t *testing.T) {
	runDiff(t, diffCase{name: "counter", top: "counter", srcs: []string{counterSrc}, clk: "clk", cycles: 200, seed: 1,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen, "load": rareGen(10)}})
}

const miscSrc = `
package mpkg;
  typedef struct packed { logic [3:0] tag; logic [11:0] val; logic v; } ent_t;
endpackage

module misc import mpkg::*; (
  input  logic clk, rst_n,
  input  logic [7:0] a, b,
  input  logic [2:0] idx,
  input  logic [3:0] sel,
  input  logic we,
  output logic [7:0] dec, prio, fsum, rev, memq, cnt1, lp,
  output logic [16:0] ent_o,
  output logic [15:0] cat,
  output logic [31:0] acc
);
  always_comb begin
    casez (sel)
      4'b1???: dec = 8'h80 | a;
      4'b01??: dec = 8'h40;
      4'b001?: dec = b;
      4'b0001: dec = a ^ b;
      default: dec = 8'h00;
    endcase
  end
  always_comb begin
    prio = 8'hff;
    for (int i = 0; i < 8; i++)
      if (a[i]) prio = i[7:0];
  end
  function automatic logic [7:0] reverse(input logic [7:0] x);
    for (int i = 0; i < 8; i++) reverse[i] = x[7-i];
  endfunction
  function automatic logic [7:0] add_sat(input logic [7:0] x, y);
    logic [8:0] s;
    s = x + y;
    return s[8] ? 8'hff : s[7:0];
  endfunction
  assign rev = reverse(a);
  assign fsum = add_sat(a, b);
  logic [7:0] mem [0:7];
  initial for (int i = 0; i < 8; i++) mem[i] = 8'(i * 17);
  always_ff @(posedge clk) if (we) mem[idx] <= a + b;
  assign memq = mem[idx ^ 3'd5];
  ent_t e;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) e <= '0;
    else begin
      e.tag <= a[3:0];
      e.val <= {b, a[7:4]};
      e.v <= ^a;
    end
  assign ent_o = e;
  assign cat = {e.tag, {2{a[1:0]}}, e.val[7:0]};
  always_comb begin
    cnt1 = 0;
    for (int i = 0; i < 8; i++) cnt1 = cnt1 + {7'd0, b[i]};
  end
  // a loop elaboration cannot unroll (data-dependent bound)
  always_comb begin
    int n;
    lp = 0;
    n = 0;
    while (n < b[2:0]) begin
      lp = lp + a;
      n = n + 1;
    end
  end
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) acc <= 32'd1;
    else if (sel[0]) acc <= acc * 3 + {24'd0, a};
    else if (sel[1]) acc <= {acc[30:0], acc[31]};
endmodule
`

func TestDiffMisc(t *testing.T) {
	runDiff(t, diffCase{name: "misc", top: "misc", srcs: []string{miscSrc}, clk: "clk", cycles: 150, seed: 2,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}})
}

const fifoWrapSrc = `
module fifo_w (
  input  logic clk, rst_n, push, pop,
  input  logic [7:0] push_data,
  output logic [7:0] pop_data,
  output logic empty, full, overflow
);
  logic [7:0] pd;
  uart_fifo #(.WIDTH(8), .DEPTH(4)) u (.clk, .rst_n, .push, .push_data, .pop, .pop_data(pd), .empty, .full, .overflow);
  assign pop_data = empty ? 8'h00 : pd;
endmodule
`

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDiffFIFO(t *testing.T) {
	runDiff(t, diffCase{name: "fifo", top: "fifo_w", srcs: []string{readFile(t, "../examples/uart/rtl/uart_fifo.sv"), fifoWrapSrc},
		clk: "clk", cycles: 300, seed: 3,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}})
}

const uartWrapSrc = `
module uart_w (
  input  logic clk, rst_n,
  input  logic [7:0] tx_data,
  input  logic tx_valid, rx_ready,
  output logic tx_ready, txd, rx_valid, rx_frame_err, rx_overflow,
  output logic [7:0] rx_data
);
  logic [7:0] rd;
  logic fe;
  uart_top #(.DIV_W(4), .FIFO_DEPTH(2)) u (.clk, .rst_n, .divisor(4'd3), .tx_data, .tx_valid, .tx_ready, .txd,
      .rxd(txd), .rx_data(rd), .rx_frame_err(fe), .rx_valid, .rx_ready, .rx_overflow);
  assign rx_data = rx_valid ? rd : 8'h00;
  assign rx_frame_err = rx_valid ? fe : 1'b0;
endmodule
`

func TestDiffUART(t *testing.T) {
	dir := "../examples/uart/rtl/"
	srcs := []string{readFile(t, dir+"uart_pkg.sv"), readFile(t, dir+"uart_fifo.sv"), readFile(t, dir+"uart_tx.sv"),
		readFile(t, dir+"uart_rx.sv"), readFile(t, dir+"uart_top.sv"), uartWrapSrc}
	runDiff(t, diffCase{name: "uart", top: "uart_w", srcs: srcs, clk: "clk", cycles: 400, seed: 4,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen, "tx_valid": rareGen(8), "rx_ready": rareGen(3)}})
}

// TestDiffCores runs four cores of the partitioning example against Icarus.
func TestDiffCores(t *testing.T) {
	src := readFile(t, "../examples/cores/rtl/cores.sv")
	runDiff(t, diffCase{name: "cores", top: "cores", srcs: []string{src}, params: map[string]string{"N": "4"}, clk: "clk", cycles: 300, seed: 5,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}})
}
