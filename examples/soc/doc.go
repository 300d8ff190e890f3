// Package soc is weft's example of a multi-core system: soc_smp
// (smp/soc_smp.sv), 1 to 16 RV32IM harts, each with its own RAM and local
// registers in one tile, sharing a console, a timer, a small RAM and
// atomic counters behind a round-robin arbiter, running C and assembly
// firmware (fw/). Its Ginkgo specs boot 1, 2 and 4 harts, run the ISA
// self-tests and a multi-hart program, compare console output and final
// registers with Icarus Verilog and Verilator when they are installed, run
// the 4-hart build on 2 and 4 lanes against the sequential kernels, and
// check that the 2-lane plan keeps whole tiles (RAM included) in a lane.
// rtl/ holds the older single-core soc_top demo. See README.md.
package soc

// Files are the RTL sources of soc_smp, relative to this directory;
// IncludeDir is the directory of rv_core.v's include file.
var Files = []string{
	"smp/soc_smp.sv", "smp/soc_tile.sv", "smp/soc_shared.sv",
	"rtl/rv_core.v", "rtl/rv_alu.v", "rtl/rv_regfile.v",
}

// IncludeDir is the `include search directory of Files.
const IncludeDir = "rtl"

// Top is the top module; its parameters are NCORES (1..16), RAM_WORDS,
// FIRMWARE (a $readmemh file) and FW_ARG.
const Top = "soc_smp"

// Firmware images (fw/build.sh rebuilds them from fw/*.c and fw/*.S),
// relative to this directory.
const (
	ISAFirmware   = "fw/isa.hex"
	SMPFirmware   = "fw/smp.hex"
	BenchFirmware = "fw/bench.hex"
)
