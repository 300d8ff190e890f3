// Packed structs: field access, whole-struct assignment, member writes,
// a nested struct, and the flat bit layout (first field is the MSB);
// a packed union viewing the same bits as a word, bytes and a struct.
// (Icarus 11 cannot elaborate two-level member selects such as p.h.op,
// so the nested header is read through h2.)
module t(input logic clk);
  typedef struct packed {
    logic [3:0] op;
    logic       valid;
    logic [2:0] tag;
  } hdr_t;
  typedef struct packed {
    hdr_t       h;
    logic [7:0] data;
  } pkt_t;
  typedef struct packed { logic [3:0] hi; logic [11:0] lo; } split_t;
  typedef union packed {
    logic [15:0]     word;
    logic [1:0][7:0] bytes;
    split_t          parts;
  } u_t;
  pkt_t p = '0;
  hdr_t h2;
  u_t u = 16'h1234;
  int cyc = 0;
  assign h2 = p.h;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    p.h <= {h2.op + 4'd3, ~h2.valid, p.data[2:0]};
    p.data <= p.data + 8'd29;
    if (cyc == 6) p <= 16'hbeef;
    if (cyc[0]) u.word <= u.word + 16'h0f0f;
    else u.bytes <= {u.bytes[0], u.bytes[1]};
  end
  always @(posedge clk) begin
    $display("%0d: p=%h op=%0d valid=%b tag=%0d data=%h h=%b bits=%0d/%0d", cyc, p, h2.op, h2.valid, h2.tag,
             p.data, p.h, $bits(pkt_t), $bits(p.h));
    $display("   word=%h b1=%h b0=%h hi=%h lo=%h", u.word, u.bytes[1], u.bytes[0], u.parts.hi, u.parts.lo);
    if (cyc == 9) $finish;
  end
endmodule
