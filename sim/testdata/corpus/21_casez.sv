// casez: ? and z in labels are wildcards (priority encoder); the first
// matching item wins.
module t(input logic clk);
  logic [7:0] req = 8'b0000_0001;
  logic [2:0] enc;
  logic [1:0] cls;
  int cyc = 0;
  always_comb begin
    casez (req)
      8'b1???????: enc = 3'd7;
      8'b01??????: enc = 3'd6;
      8'b001?????: enc = 3'd5;
      8'b0001????: enc = 3'd4;
      8'b00001???: enc = 3'd3;
      8'b000001??: enc = 3'd2;
      8'b0000001?: enc = 3'd1;
      default:     enc = 3'd0;
    endcase
    casez (req[3:0])
      4'bzz11: cls = 2'd3;
      4'b?1?0: cls = 2'd2;
      4'b1zz?: cls = 2'd1;
      default: cls = 2'd0;
    endcase
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    req <= req * 8'd3 + 8'd1;
  end
  always @(posedge clk) begin
    $display("%0d: req=%b enc=%0d cls=%0d", cyc, req, enc, cls);
    if (cyc == 12) $finish;
  end
endmodule
