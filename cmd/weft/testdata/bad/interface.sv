// want: 9:21: cannot assign to 'p.valid': it is an input of modport 'rx'
interface bus_if;
  logic valid;
  logic [7:0] data;
  modport rx (input valid, data);
endinterface
module sink(bus_if.rx p, output logic [7:0] d);
  assign d = p.data;
  always_comb begin p.valid = 1'b0; end
endmodule
module top(output logic [7:0] d);
  bus_if bus ();
  sink u (.p(bus), .d);
endmodule
