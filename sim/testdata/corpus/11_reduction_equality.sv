// Reduction operators on a stepping LFSR value; equality: == and !=
// compare after extension, === and !== agree with them on 2-state values,
// with mixed widths and signedness.
module t(input logic clk);
  logic [7:0] v = 8'h01;
  logic [2:0] z = 3'd0;
  logic [3:0] a = 4'd0;
  logic [5:0] b = 6'd0;
  logic signed [3:0] s = -4'sd1;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= {v[6:0], v[7] ^ v[5] ^ v[4] ^ v[3]};
    z <= z + 3'd3;
    a <= a + 4'd5;
    b <= b + 6'd21;
    s <= s + 4'sd2;
  end
  always @(posedge clk) begin
    $display("%0d: v=%b and=%b or=%b xor=%b nand=%b nor=%b xnor=%b | z=%b &z=%b |z=%b ~^z=%b", cyc, v,
             &v, |v, ^v, ~&v, ~|v, ~^v, z, &z, |z, ~^z);
    $display("   ones=%b mix=%b", &8'hff, ^v[3:0] ~^ |v[7:4]);
    $display("   a=%0d b=%0d s=%0d eq=%b ne=%b ceq=%b cne=%b seq=%b sneq=%b", a, b, s,
             a == b, a != b[3:0], a === b[3:0], a !== b, s == -4'sd1, s == 8'hff);
    $display("   s==8'shff %b  s===sext %b", s == 8'shff, {{4{s[3]}}, s} === 8'hff);
    if (cyc == 12) $finish;
  end
endmodule
