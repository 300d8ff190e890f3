// want: 3:3: class is not supported yet
module top;
  class packet;
  endclass
endmodule
