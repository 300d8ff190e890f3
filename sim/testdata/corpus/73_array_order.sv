// golden: hand — Icarus 11 connects unpacked array ports by storage offset
// and rejects whole-array assignment; IEEE 1800 §7.6 pairs elements left
// to right (Verilator agrees with the values below).
// Unpacked arrays whose ranges run in opposite directions are copied left
// to right: x[1:0] = v[0:1] puts v[0] in x[1] (regression: ports and
// assignments used to pair elements by index offset).
module sub(input logic [7:0] x [1:0], output logic [7:0] a, output logic [7:0] b,
           output logic [7:0] y [3:2]);
  assign a = x[1];
  assign b = x[0];
  assign y[3] = 8'h33;
  assign y[2] = 8'h22;
endmodule
module t(input logic clk);
  logic [7:0] v [0:1];
  logic [7:0] w [0:1];
  logic [7:0] a, b;
  logic [7:0] s [0:2];
  logic [7:0] z [2:0];
  logic [7:0] q [2:0];
  logic [3:0] m2 [0:1][1:0];
  logic [3:0] n2 [1:0][1:0];
  initial begin
    v[0] = 8'h10; v[1] = 8'h11;
    s[0] = 8'h20; s[1] = 8'h21; s[2] = 8'h22;
    m2[0][0] = 4'h0; m2[0][1] = 4'h1; m2[1][0] = 4'h2; m2[1][1] = 4'h3;
  end
  sub u(.x(v), .a(a), .b(b), .y(w));
  assign z = s;
  assign n2 = m2;
  always @(posedge clk) begin
    q = s;
    $display("a=%h b=%h w0=%h w1=%h", a, b, w[0], w[1]);
    $display("z=%h %h %h q=%h %h %h", z[2], z[1], z[0], q[2], q[1], q[0]);
    $display("n2=%h %h %h %h", n2[1][1], n2[1][0], n2[0][1], n2[0][0]);
    $finish;
  end
endmodule
