package elab

import "testing"

// Interface misuse: each must give the diagnostic, and no design.
func TestInterfaceErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"write to a modport input", `interface b_if; logic d, e; modport m (input d); endinterface
module s(b_if.m p); assign p.d = 1; endmodule
module t; b_if i (); s u (.p(i)); endmodule`, "t.sv:2:28: error: cannot assign to 'p.d': it is an input of modport 'm'"},
		{"name outside the modport", `interface b_if; logic d, e; modport m (input d); endinterface
module s(b_if.m p, output logic y); assign y = p.e; endmodule
module t; logic y; b_if i (); s u (.p(i), .y); endmodule`, "t.sv:2:48: error: 'e' is not in modport 'm' of interface 'b_if'"},
		{"wrong interface", `interface b_if; logic d; endinterface
interface c_if; logic d; endinterface
module s(b_if p); endmodule
module t; c_if i (); s u (.p(i)); endmodule`, "t.sv:4:30: error: interface port 'p' of 'u' needs interface 'b_if', but is connected to an instance of 'c_if'"},
		{"unconnected interface port", `interface b_if; logic d; endinterface
module s(b_if p); endmodule
module t; s u (); endmodule`, "t.sv:2:15: error: interface port 'p' of 'u' is not connected; connect it to an interface instance"},
		{"interface port on the top", `interface b_if; logic d; endinterface
module t(b_if p); endmodule`, "t.sv:2:15: error: the top module 't' has an interface port 'p'; instantiate it in a wrapper that connects an interface instance"},
		{"modport lists an unknown name", `interface b_if; logic d; modport m (input d, output q); endinterface
module t; b_if i (); endmodule`, "t.sv:1:53: error: modport 'm' lists 'q', which interface 'b_if' does not declare"},
		{"unknown modport", `interface b_if; logic d; modport m (input d); endinterface
module s(b_if.x p); endmodule
module t; b_if i (); s u (.p(i)); endmodule`, "t.sv:2:17: error: interface 'b_if' has no modport 'x'"},
		{"interface port connected to a signal", `interface b_if; logic d; endinterface
module s(b_if p); endmodule
module t; logic w; s u (.p(w)); endmodule`, "t.sv:3:28: error: interface port 'p' of 'u' must be connected to an interface instance or interface port"},
		{"function not imported", `interface b_if; logic d; function int f(); return 1; endfunction modport m (input d); endinterface
module s(b_if.m p, output int y); assign y = p.f(); endmodule
module t; int y; b_if i (); s u (.p(i), .y); endmodule`, "t.sv:2:46: error: 'f' is not imported by modport 'm' of interface 'b_if'"},
		{"write to an interface's input port", `interface b_if(input logic clk); logic d; endinterface
module t(input logic clk); b_if i (.clk); always_ff @(posedge clk) i.clk <= 1; endmodule`, "t.sv:2:68: error: cannot assign to 'i.clk': it is an input port of interface 'b_if'"},
		{"hierarchical call into a module", `module q; function int f(); return 1; endfunction endmodule
module t(output int y); q i (); assign y = i.f(); endmodule`, "t.sv:2:44: error: 'f(...)': only functions and tasks of an interface can be called through a hierarchical name"},
		{"modports differ", `interface b_if; logic d; modport a (input d); modport b (output d); endinterface
module s(b_if.a p); endmodule
module t; b_if i (); s u (.p(i.b)); endmodule`, "t.sv:3:30: error: interface port 'p' of 'u' uses modport 'a', but the connection names modport 'b'"},
		{"interface array size", `interface b_if; logic d; endinterface
module s(b_if p [3]); endmodule
module t; b_if i [1:0] (); s u (.p(i)); endmodule`, "t.sv:3:36: error: interface port 'p' of 'u' is an array of 3 interfaces, but is connected to an array of 2"},
		{"interface array to one instance", `interface b_if; logic d; endinterface
module s(b_if p [2]); endmodule
module t; b_if i (); s u (.p(i)); endmodule`, "t.sv:3:30: error: interface port 'p' of 'u' is an array of 2 interfaces; connect it to an array of interface instances of the same size"},
		{"one interface port to an array", `interface b_if; logic d; endinterface
module s(b_if p); endmodule
module t; b_if i [2] (); s u (.p(i)); endmodule`, "t.sv:3:34: error: interface port 'p' of 'u' is connected to an array of interfaces; select one element, or declare the port as an array"},
		{"hierarchical reference in a constant", `module q #(parameter K = 2); endmodule
module t; q i (); localparam P = i.K; endmodule`, "t.sv:2:34: error: hierarchical reference 'i.K' in value of localparam 'P': a constant expression cannot name another module instance (IEEE 1800 §23.10); pass the value as a parameter"},
		{"hierarchical reference before the instance", `module q; logic r; endmodule
module t; always_comb u.r = 1'b1; q u (); endmodule`, "t.sv:2:23: error: 'u' is instantiated further down (at t.sv:2:37); weft resolves a hierarchical name only into an instance declared above its use: move the instance up"},
		{"interface as the top", `interface b_if; logic d; endinterface`, "t.sv:1:1: error: 'b_if' is an interface; the top must be a module (instantiate the interface in a wrapper module)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}
			if tc.name == "interface as the top" {
				opts.Top = "b_if"
			}
			expectError(t, tc.src, opts, tc.want)
		})
	}
}

// An interface instance is one set of homes: a module reaches them through
// its port without copies, and modport directions do not create drivers.
func TestInterfaceSharesHomes(t *testing.T) {
	d := mustElab(t, `interface b_if #(parameter W = 4); logic [W-1:0] d; modport rx (input d); modport tx (output d); endinterface
module src(b_if.tx p); assign p.d = 4'd9; endmodule
module dst(b_if.rx p, output logic [p.W-1:0] y); assign y = p.d; endmodule
module t(output logic [3:0] y); b_if bus (); src s (.p(bus)); dst r (.p(bus), .y); endmodule`)
	h := home(t, d, "t.bus.d")
	if h.Width != 4 {
		t.Errorf("t.bus.d is %d bits, want 4", h.Width)
	}
	for _, path := range []string{"t.s.p.d", "t.r.p.d"} {
		if _, ok := d.Lookup(path); ok {
			t.Errorf("%s exists: an interface port must not copy the interface's signals", path)
		}
	}
	if y := home(t, d, "t.r.y"); y.Width != 4 {
		t.Errorf("t.r.y is %d bits, want 4 (its type reads the interface parameter through the port)", y.Width)
	}
}
