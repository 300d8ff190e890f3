// Package cores is weft's example for partitioned simulation: sixteen
// independent little CPUs on one clock (rtl/cores.sv), which a partitioner
// can spread over lanes whole. Its Ginkgo specs (cores_test.go) check the
// design against a Go model of a core on one, two and four lanes; its
// benchmarks (cores_bench_test.go) compare the sequential kernels with the
// partitioned ones. See README.md.
package cores

// Files are the RTL sources, relative to this directory. The top module is
// Top; its parameter N (default 16) is the number of cores.
var Files = []string{"rtl/cores.sv"}

// Top is the top module.
const Top = "cores"

// Seed is the SEED parameter of core i, as rtl/cores.sv computes it.
func Seed(i int) uint32 { return 0x9e37_79b9 * uint32(i+1) }
