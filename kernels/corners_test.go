package kernels

import (
	"math/big"
	"math/rand"
	"testing"
)

// Designs exercising 2-state corners Icarus reports as x: compared with
// the design.Machine reference on every home after every step.

const cornersSrc = `
module corners (
  input  logic clk, rst_n,
  input  logic [7:0] a, b,
  input  logic [4:0] i, j,
  input  logic [69:0] wa,
  input  logic we,
  output logic [7:0] q_div, q_mod, q_sdiv, q_smod, q_oob, q_sel, q_dyn, q_2d,
  output logic [69:0] q_wide, q_wsel,
  output logic [15:0] q_cat,
  output logic [3:0] q_nib,
  output logic [63:0] q_lp,
  output logic [139:0] q_lw
);
  // dynamic writes into register-held locals, nested dynamic selects
  always_comb begin
    logic [3:0][15:0] lp;
    logic [1:0][69:0] lw;
    lp = {a, b, a, b, a, b, a, b};
    lw = {wa, ~wa};
    lp[i[1:0]][j +: 3] = a[2:0];
    lp[j[1:0]] = {b, a};
    lw[i[0]][j*3 +: 5] = b[4:0];
    lw[j[0]][i] = ^a;
    q_lp = lp;
    q_lw = lw;
  end
  logic signed [7:0] sa, sb;
  assign sa = a;
  assign sb = b;
  assign q_div = a / b;
  assign q_mod = a % b;
  assign q_sdiv = sa / sb;
  assign q_smod = sa % sb;

  logic [7:0] mem [0:11];
  logic [69:0] wmem [0:5];
  logic [7:0] m2 [0:2][0:3];
  logic [15:0] pk;
  logic [7:0] lat;

  // out-of-range reads give 0, writes are ignored
  assign q_oob = mem[i];
  assign q_wide = wmem[i[2:0]];
  assign q_2d = m2[i[1:0]][j[2:0]];
  assign q_sel = a[i +: 8];
  assign q_wsel = wa >> j;
  always_comb begin
    q_dyn = b;
    q_dyn[i[2:0]] = a[0];
    q_dyn[j +: 2] = 2'b10;
  end
  always_comb begin
    logic [15:0] t;
    t = {a, b};
    {q_cat[3:0], q_cat[15:4]} = {t[11:0], t[15:12]};
  end
  assign q_nib = pk[j +: 4];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pk <= 16'h1234;
    end else begin
      if (we) mem[i] <= a ^ b;
      if (we) mem[j][3:0] <= a[3:0];
      if (!we) mem[j][i[2:0] +: 3] <= b[2:0];
      wmem[j[2:0]] <= wa ^ {a, b, 54'd0};
      wmem[i[2:0]][i +: 7] <= a[6:0];
      m2[i[1:0]][j[1:0]] <= a + b;
      pk[i +: 4] <= b[3:0];
      pk[j] <= ~pk[j];
    end
  end
endmodule
`

func TestCornersVsMachine(t *testing.T) {
	runDiff(t, diffCase{name: "corners", top: "corners", srcs: []string{cornersSrc}, clk: "clk", cycles: 300, seed: 5, noIcarus: true,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen,
			"i": func(k int, r *rand.Rand, w int) *big.Int { return big.NewInt(int64(r.Intn(20))) },
			"j": func(k int, r *rand.Rand, w int) *big.Int { return big.NewInt(int64(r.Intn(20))) }}})
}

const tasksSrc = `
module tasks (
  input  logic clk, rst_n,
  input  logic [15:0] x, y,
  output logic [15:0] s, c, g,
  output logic [31:0] h
);
  task automatic addsub(input logic [15:0] a, b, output logic [15:0] sum, output logic [15:0] diff);
    sum = a + b;
    diff = a - b;
  endtask
  function automatic logic [15:0] gcd(input logic [15:0] a, b);
    logic [15:0] t;
    while (b != 0) begin
      t = b;
      b = a % b;
      a = t;
    end
    return a;
  endfunction
  function automatic logic [31:0] hashf(input logic [15:0] a);
    logic [7:0] tbl [0:3];
    logic [31:0] acc;
    for (int k = 0; k < 4; k++) tbl[k] = a[k*4 +: 4] * 8'd37;
    acc = 32'h811c9dc5;
    for (int k = 0; k < 4; k++) acc = (acc ^ {24'd0, tbl[k]}) * 32'h01000193;
    return acc;
  endfunction
  always_comb addsub(x, y, s, c);
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin g <= 0; h <= 0; end
    else begin g <= gcd(x, y); h <= hashf(x ^ g); end
endmodule
`

func TestTasksVsMachine(t *testing.T) {
	runDiff(t, diffCase{name: "tasks", top: "tasks", srcs: []string{tasksSrc}, clk: "clk", cycles: 100, seed: 6,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}})
}
