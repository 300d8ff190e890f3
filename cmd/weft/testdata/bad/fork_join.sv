// want: 4:5: fork/join is not supported yet
module top;
  initial begin
    fork
    join
  end
endmodule
