package compile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/weft-hdl/weft/cache"
	"github.com/weft-hdl/weft/lanepool"
	"github.com/weft-hdl/weft/lanes"
)

// SyncCalibration is what a cross-lane hand-off costs on this machine, in
// time and in the planner's cost units: what the planner charges per
// cross-lane wait in PartitionAuto mode (Builder.SyncCost overrides it).
type SyncCalibration struct {
	Lanes   int
	Backend BackendKind
	// PerWait is one hand-off: the lane pool's run time of a chain kernel
	// (lane 0, then each lane waiting for the one before, then lane 0
	// again) divided by the lanes+1 syncs the planner would charge for it
	// (one per wait and one for the dispatch).
	PerWait time.Duration
	// NsPerUnit is what one cost unit of the planner takes on the backend:
	// a reference design's clock kernel, timed, over its estimated cost.
	// Units are SIR instructions before optimization, so native code runs
	// them far faster than a nanosecond each.
	NsPerUnit float64
	// Measured is when it was measured; Cached says it came from the
	// cache directory instead of a measurement by this process.
	Measured time.Time
	Cached   bool
}

// Units is c's hand-off in cost units, within [lanes.MinSyncCost,
// lanes.MaxSyncCost].
func (c SyncCalibration) Units() int {
	u := int(float64(c.PerWait.Nanoseconds()) / max(c.NsPerUnit, 1e-3))
	return min(max(u, lanes.MinSyncCost), lanes.MaxSyncCost)
}

func (c SyncCalibration) String() string {
	from := "measured"
	if c.Cached {
		from = "measured " + c.Measured.Format(time.DateTime) + ", cached"
	}
	return fmt.Sprintf("%v per cross-lane hand-off on %d lanes, %.3g ns per cost unit on the %s backend (%s)",
		c.PerWait.Round(10*time.Nanosecond), c.Lanes, c.NsPerUnit, c.Backend, from)
}

// calibrationTTL is how long a cached calibration is used: a machine that
// was busy when it measured gets another chance the next day.
const calibrationTTL = 24 * time.Hour

type calibrationFor struct {
	lanes   int
	backend BackendKind
}

// calibrations memoizes, per process, what CalibrateSync found, so builds
// without a cache measure once.
var calibrations sync.Map // calibrationFor -> SyncCalibration

// CalibrateSync returns the hand-off cost on lanes lanes for backend k:
// from c when it holds a calibration of this machine and weft build
// younger than a day, otherwise measured now (a few hundred milliseconds:
// it compiles and times a small reference design) and stored in c (nil:
// not stored).
func CalibrateSync(c *cache.Cache, lanes int, k BackendKind) (SyncCalibration, error) {
	memo := calibrationFor{lanes, k}
	if v, ok := calibrations.Load(memo); ok {
		return v.(SyncCalibration), nil
	}
	key := calibrationKey(lanes, k)
	if data, err := c.Get(key); err == nil {
		if cal, ok := parseCalibration(data, lanes, k); ok && time.Since(cal.Measured) < calibrationTTL {
			calibrations.Store(memo, cal)
			return cal, nil
		}
	}
	per, err := MeasureSync(lanes)
	if err != nil {
		return SyncCalibration{}, err
	}
	nsPerUnit, err := measureUnit(k)
	if err != nil {
		return SyncCalibration{}, err
	}
	cal := SyncCalibration{Lanes: lanes, Backend: k, PerWait: per, NsPerUnit: nsPerUnit, Measured: time.Now()}
	// A calibration that cannot be stored is measured again next time.
	_ = c.Put(key, fmt.Appendf(nil, "%d %g %d\n", per.Nanoseconds(), nsPerUnit, cal.Measured.Unix()))
	calibrations.Store(memo, cal)
	return cal, nil
}

// calibrationKey names this machine's calibration for lanes lanes and
// backend k: the weft build (the lane pool's and the backend's code), the
// CPU model, the CPUs the process may use and GOMAXPROCS.
func calibrationKey(lanes int, k BackendKind) cache.Key {
	n, _ := lanepool.UsableCPUs()
	return cache.NewKey().AddString("sync calibration", weftVersion()).
		AddString("backend", k.String()).
		AddString("cpu", cpuModel()).
		AddUint64("usable", uint64(n)).
		AddUint64("gomaxprocs", uint64(runtime.GOMAXPROCS(0))).
		AddUint64("lanes", uint64(lanes)).Sum()
}

// parseCalibration reads "NANOSECONDS NS_PER_UNIT UNIXTIME".
func parseCalibration(data []byte, lanes int, k BackendKind) (SyncCalibration, bool) {
	f := strings.Fields(string(data))
	if len(f) != 3 {
		return SyncCalibration{}, false
	}
	ns, err1 := strconv.ParseInt(f[0], 10, 64)
	unit, err2 := strconv.ParseFloat(f[1], 64)
	at, err3 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || ns <= 0 || !(unit > 0) {
		return SyncCalibration{}, false
	}
	return SyncCalibration{Lanes: lanes, Backend: k, PerWait: time.Duration(ns), NsPerUnit: unit, Measured: time.Unix(at, 0), Cached: true}, true
}

// cpuModel is the first "model name" of /proc/cpuinfo, or GOARCH.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// MeasureSync measures one cross-lane hand-off on a pool of lanes lanes
// with the pool's own spin and park policy: the lower quartile, over
// rounds of runs, of a chain kernel's run time (lane 0, each lane waiting
// for the previous one, lane 0 again) divided by lanes+1. The lower
// quartile is what the machine does when the lanes have their cores; a
// neighbour that takes one now and then is the selector's business.
func MeasureSync(n int) (time.Duration, error) {
	if n < 2 {
		return 0, errors.New("compile: MeasureSync needs at least 2 lanes")
	}
	pool, err := lanepool.New(n)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	nop := func(unsafe.Pointer) lanepool.Status { return lanepool.OK }
	table := make([][]lanepool.Task, n)
	table[0] = []lanepool.Task{{Fn: nop, Index: 0}}
	for l := 1; l < n; l++ {
		table[l] = []lanepool.Task{{Fn: nop, Index: l, Waits: []lanepool.Wait{{Lane: l - 1, Count: 1}}}}
	}
	table[0] = append(table[0], lanepool.Task{Fn: nop, Index: n, Waits: []lanepool.Wait{{Lane: n - 1, Count: 1}}})
	k, err := pool.NewKernel(table)
	if err != nil {
		return 0, err
	}
	var state [8]byte
	run := func(runs int) (time.Duration, error) {
		t0 := time.Now()
		for range runs {
			if _, err := pool.Run(k, unsafe.Pointer(&state[0])); err != nil {
				return 0, err
			}
		}
		return time.Since(t0) / time.Duration(runs), nil
	}
	if _, err := run(64); err != nil { // wake the workers
		return 0, err
	}
	const rounds, runs = 16, 64
	per := make([]time.Duration, rounds)
	for i := range per {
		if per[i], err = run(runs); err != nil {
			return 0, err
		}
	}
	slices.Sort(per)
	return per[rounds/4] / time.Duration(n+1), nil
}

// referenceDesign is what measureUnit times: eight small datapaths (an
// LFSR, an accumulator with an add, xor-shift, subtract and rotate, an
// eight-word register file written round robin), the kind of logic that
// partitioned kernels split by instance.
const referenceDesign = `
module calib_unit #(parameter logic [31:0] SEED = 1) (
  input logic clk, input logic rst_n, output logic [31:0] out);
  logic [31:0] lfsr, acc;
  logic [31:0] rf [8];
  logic [2:0] wa;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      lfsr <= SEED; acc <= 0; wa <= 0;
    end else begin
      lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
      case (lfsr[1:0])
        2'd0: acc <= acc + rf[lfsr[4:2]];
        2'd1: acc <= acc ^ (rf[lfsr[7:5]] >> lfsr[10:8]);
        2'd2: acc <= acc - lfsr;
        default: acc <= {acc[15:0], acc[31:16]};
      endcase
      rf[wa] <= acc;
      wa <= wa + 3'd1;
    end
  assign out = acc ^ rf[0];
endmodule
module calib(input logic clk, input logic rst_n, output logic [31:0] sum);
  logic [31:0] o [8];
  for (genvar i = 0; i < 8; i++) begin : g
    calib_unit #(.SEED(32'h9e3779b9 * (i + 1))) u(.clk, .rst_n, .out(o[i]));
  end
  always_comb begin
    sum = 0;
    for (int i = 0; i < 8; i++) sum = sum ^ o[i];
  end
endmodule
`

// measureUnit times the reference design's clock cycles on backend k and
// divides by the cost the planner estimates for its clock kernel: the
// nanoseconds one cost unit takes.
func measureUnit(k BackendKind) (float64, error) {
	ref := func() *Builder {
		return NewBuilder().Source("calib.sv", referenceDesign).Top("calib").Backend(k).NoCache().Output(io.Discard)
	}
	planned, err := ref().Lanes(2).Partition(PartitionAlways).SyncCost(lanes.SyncCostNative).Build()
	if err != nil {
		return 0, fmt.Errorf("compile: calibration design: %w", err)
	}
	single := 0
	if planned.Plan != nil {
		for _, pk := range planned.Plan.Kernels {
			if pk.Name == "fused posedge calib.clk" {
				single = pk.SingleCost
			}
		}
	}
	planned.Close()
	if single == 0 {
		return 0, errors.New("compile: calibration design: the plan has no cost for its clock kernel")
	}
	p, err := ref().Build()
	if err != nil {
		return 0, fmt.Errorf("compile: calibration design: %w", err)
	}
	defer p.Close()
	d := p.DUT()
	clk := d.MustSignal("clk").Home()
	if err := d.MustSignal("rst_n").Set(0); err != nil {
		return 0, err
	}
	if _, err := p.Sim.Tick(clk, 2); err != nil {
		return 0, err
	}
	if err := d.MustSignal("rst_n").Set(1); err != nil {
		return 0, err
	}
	cycles := 20000
	if k == BackendInterp {
		cycles = 500
	}
	if _, err := p.Sim.Tick(clk, cycles/4); err != nil {
		return 0, err
	}
	per := make([]float64, 5) // ns per cycle
	for i := range per {
		t0 := time.Now()
		if _, err := p.Sim.Tick(clk, cycles); err != nil {
			return 0, err
		}
		per[i] = float64(time.Since(t0).Nanoseconds()) / float64(cycles)
	}
	slices.Sort(per)
	return per[len(per)/2] / float64(single), nil
}
