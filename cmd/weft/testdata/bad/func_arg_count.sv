// want: 6:14: missing argument 'y' in call to 'add'
module top(input logic [3:0] a, output logic [3:0] b);
  function automatic logic [3:0] add(input logic [3:0] x, y);
    return x + y;
  endfunction
  assign b = add(a);
endmodule
