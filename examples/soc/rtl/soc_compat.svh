// soc_compat.svh -- the one tool workaround of the SystemVerilog half.
//
// Icarus Verilog 11 parses neither the `var` keyword in ANSI port
// declarations (`input var logic clk`, IEEE 1800-2017 23.2.2) nor the
// `priority`/`unique` qualifiers on if statements (12.4.2). Every other tool
// gets the real keywords; under Icarus they expand to nothing, which changes
// nothing about what the design does.
`ifndef SOC_COMPAT_SVH
`define SOC_COMPAT_SVH

`ifdef __ICARUS__
  `define SOC_VAR
  `define SOC_PRIORITY
`else
  `define SOC_VAR var
  `define SOC_PRIORITY priority
`endif

`endif // SOC_COMPAT_SVH
