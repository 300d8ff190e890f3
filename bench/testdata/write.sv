// Targets for Set, Deposit and Force: inputs of several widths, a
// counter whose value a second flop samples at the same edge and comb
// logic reads, a memory, a derived clock, a counter assigned with = and
// a variable that a clocked process assigns with = and reads back.
module write (
    input  logic              clk,
    input  logic              en,      // cnt counts while en
    input  logic [7:0]        din,
    input  logic signed [7:0] sdin,
    input  logic [11:0]       d12,
    input  logic [63:0]       d64,
    input  logic [99:0]       wide,
    input  logic [1:0]        waddr,
    output logic [7:0]        cnt,
    output logic [7:0]        cnt_q,   // cnt, one cycle late
    output logic [8:0]        cnt_p1,  // cnt + 1 (comb)
    output logic [8:0]        sum,     // din + 1 (comb)
    output logic [99:0]       wide_q,  // wide (comb)
    output logic [15:0]       rd,      // mem[waddr] (comb)
    output logic [7:0]        slow,    // counts on div
    output logic [7:0]        tmp_q,
    output logic [7:0]        bcnt     // counts, assigned with =
);
  logic [15:0] mem [0:3];
  logic        div;
  logic [7:0]  tmp;

  always_ff @(posedge clk) if (en) cnt <= cnt + 8'd1;
  always_ff @(posedge clk) cnt_q <= cnt;
  always_ff @(posedge clk) if (en) mem[waddr] <= {8'd0, din};
  always_ff @(posedge clk) div <= ~div;
  always_ff @(posedge div) slow <= slow + 8'd1;
  always @(posedge clk) bcnt = bcnt + 8'd1;
  always @(posedge clk) begin
    tmp = din + 8'd1;
    tmp_q <= tmp;
  end

  assign cnt_p1 = cnt + 9'd1;
  assign sum = din + 9'd1;
  assign wide_q = wide;
  assign rd = mem[waddr];
endmodule
