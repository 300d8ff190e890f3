// want: 6:3: interface 'bus_if' (instantiated as 'bus') is not supported yet
interface bus_if;
  logic valid;
endinterface
module top(output logic b);
  bus_if bus ();
  assign b = 1'b0;
endmodule
