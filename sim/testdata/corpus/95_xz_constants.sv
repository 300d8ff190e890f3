// Constant expressions with x and z bits fold exactly, in IEEE 1800's
// four-state arithmetic: case matching of constant subjects and labels,
// === and !==, ==? and !=?, x-propagating operators, the conditional
// operator's merge, parameters that hold x and z, $isunknown and
// $countbits of constants, and an if whose condition is x. Run-time
// values are 2-state: a run-time value never === a constant with x bits,
// and the x and z bits of a constant on the right of ==? are don't-care.
module t(input logic clk);
  logic y1, y2, y3, y4, y5, y6, y7, y8;
  logic [3:0] a = 4'b1001;
  localparam logic [3:0] PX = 4'b1x0z;
  localparam P2 = PX === 4'b1x0z;
  localparam [7:0] PW = {2{PX}};
  localparam logic [3:0] PZ = 'z;
  localparam logic [7:0] PE = PX;             // zero-extended: 8'b00001x0z
  localparam logic signed [3:0] PS = 4'bx001;
  localparam logic [7:0] PSE = PS;            // sign-extended: 8'bxxxxx001
  always @(posedge clk) begin
    y1 = 0; y2 = 0; y3 = 0; y4 = 0; y5 = 0; y6 = 0; y7 = 0; y8 = 0;
    case (1'bx) 1'bx: y1 = 1; endcase
    case (2'b1x) 2'b10: y2 = 1; default: y2 = 0; endcase
    case (1'bx == 1'bx) 1'bx: y3 = 1; endcase
    case (&1'bx) 1'bx: y4 = 1; endcase
    case (1'bx < 1'b1) 1'bx: y5 = 1; endcase
    casez (4'b1z01) 4'b1001: y6 = 1; endcase
    casex (4'b1x01) 4'b1101: y7 = 1; endcase
    casez (PX) 4'b1x0?: y8 = 1; endcase
    $display("case: %b %b %b %b %b %b %b %b", y1, y2, y3, y4, y5, y6, y7, y8);
    $display("ceq: %b %b %b %b %b", (2'b1x === 2'b10), (2'b1x !== 2'b10), (2'b1x === 2'b1x),
             (4'bz === 4'bx), (4'bz === 4'bzzzz));
    $display("eq: %b %b %b %b", (2'b1x == 2'b10) === 1'bx, (2'b1x == 2'b00), (2'b1x != 2'b00),
             (4'b10x1 >= 4'b0000) === 1'bx);
    $display("weq: %b %b %b %b %b", a ==? 4'b1xx1, a ==? 4'b0xx1, a !=? 4'b1zz1,
             (4'b1x10 ==? 4'b1010) === 1'bx, 4'b1010 ==? 4'b1x1z);
    $display("run ceq: %b %b %b", a === 4'bx001, a !== 4'bx001, a === 4'b1001);
    $display("params: %b %b %b %0d %b %b", PX === 4'b1x0z, P2, PW === 8'b1x0z1x0z, $bits(PX),
             PZ === 4'bzzzz, PE === 8'b00001x0z);
    $display("sign: %b", PSE === 8'bxxxxx001);
    $display("ops: %b %b %b %b", (4'b1x01 & 4'b0011) === 4'b0001, (4'b1x01 | 4'b0100) === 4'b1101,
             (4'b0001 + 4'b000x) === 4'bxxxx, (4'b1x01 ^ 4'b0000) === 4'b1x01);
    $display("red: %b %b %b %b", &4'b1x11 === 1'bx, &4'b0x11 === 1'b0, |4'b0x00 === 1'bx, |4'b1x00 === 1'b1);
    $display("shift: %b %b", (4'b1x01 << 1) === 4'bx010, (4'b0001 << 2'bx1) === 4'bxxxx);
    $display("isunknown: %b %b %b %b", $isunknown(4'b10x0), $isunknown(4'b1010), $isunknown(a), $isunknown(PZ));
    $display("countbits: %0d %0d %0d", $countbits(4'b1xz0, 1'bx), $countbits(4'b1xz0, 1'bz, 1'b1),
             $countbits(8'bxxxx_1111, 'x));
    $display("cond: %b %b", (1'bx ? 4'b1100 : 4'b1010) === 4'b1xx0, (1'bz ? 2'b11 : 2'b11) === 2'b11);
    if (1'bx) $display("if x taken"); else $display("if x not taken");
    if (PX[2]) $display("if PX[2] taken"); else $display("if PX[2] not taken");
    $finish;
  end
endmodule
