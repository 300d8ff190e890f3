// fifo, BROKEN on purpose for the mutation check (see the bug at
// in_ready): a valid/ready FIFO of DEPTH entries (a power of two) whose beat
// is two payload fields, data (WIDTH bits) and user (UW bits), so that a
// stream component binds several payload signals of different widths.
// out_data/out_user show the oldest entry (first-word fall-through).
module fifo #(
    parameter int WIDTH = 8,
    parameter int UW    = 4,
    parameter int DEPTH = 4
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic [WIDTH-1:0] in_data,
    input  logic [UW-1:0]    in_user,
    input  logic             in_valid,
    output logic             in_ready,
    output logic [WIDTH-1:0] out_data,
    output logic [UW-1:0]    out_user,
    output logic             out_valid,
    input  logic             out_ready
);
  localparam int AW = $clog2(DEPTH);

  logic [WIDTH+UW-1:0] mem[DEPTH];
  logic [AW-1:0] rd, wr;
  logic [AW:0] count;  // one bit more than a pointer: 0..DEPTH
  logic push, pop;

  // The bug: an off-by-one full test. A full FIFO still takes a beat and
  // writes it over the oldest entry, the one out_data shows: the output
  // payload changes while out_valid && !out_ready, and a beat is lost.
  assign in_ready = count <= DEPTH;
  assign out_valid = count != 0;
  assign {out_data, out_user} = mem[rd];
  assign push = in_valid && in_ready;
  assign pop = out_valid && out_ready;

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      rd    <= '0;
      wr    <= '0;
      count <= '0;
    end else begin
      if (push) wr <= wr + 1'b1;
      if (pop) rd <= rd + 1'b1;
      case ({push, pop})
        2'b10:   count <= count + 1'b1;
        2'b01:   count <= count - 1'b1;
        default: count <= count;
      endcase
    end

  // The storage has no reset: its contents matter only below count.
  always_ff @(posedge clk)
    if (push) mem[wr] <= {in_data, in_user};
endmodule
