package compile

import (
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-hdl/weft/cache"
	"github.com/weft-hdl/weft/lanes"
)

func TestParseCalibration(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"350 0.134 1764975189\n", true},
		{"350 0.134", false},
		{"350 0.134 1764975189 9", false},
		{"-5 0.134 1764975189", false},
		{"350 0 1764975189", false},
		{"350 NaN 1764975189", false},
		{"x 0.1 1", false},
		{"", false},
	} {
		cal, ok := parseCalibration([]byte(tc.in), 2, BackendNative)
		if ok != tc.ok {
			t.Errorf("%q: ok = %v", tc.in, ok)
		}
		if ok && (cal.PerWait != 350 || cal.NsPerUnit != 0.134 || !cal.Cached || cal.Measured.Unix() != 1764975189) {
			t.Errorf("%q: %+v", tc.in, cal)
		}
	}
}

func TestCalibrationUnits(t *testing.T) {
	for _, tc := range []struct {
		per  time.Duration
		unit float64
		want int
	}{
		{370, 0.134, 2761},
		{600, 1, 600},
		{1, 1, lanes.MinSyncCost},
		{time.Second, 1e-3, lanes.MaxSyncCost},
		{500, 0, 500_000}, // a zero unit time counts as 1e-3 ns
	} {
		if got := (SyncCalibration{PerWait: tc.per, NsPerUnit: tc.unit}).Units(); got != tc.want {
			t.Errorf("%v at %g ns/unit: %d units, want %d", tc.per, tc.unit, got, tc.want)
		}
	}
}

// TestCalibrateSyncCache: the first calibration measures and stores, the
// next process (the memo cleared) reads it back, and one older than a day
// is measured again.
func TestCalibrateSyncCache(t *testing.T) {
	c, err := cache.Open(t.TempDir(), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	forget := func() { calibrations = sync.Map{} }
	forget()
	t.Cleanup(forget)
	first, err := CalibrateSync(c, 2, BackendNative)
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || first.PerWait <= 0 || first.NsPerUnit <= 0 || first.Lanes != 2 {
		t.Fatalf("first calibration %+v", first)
	}
	if again, _ := CalibrateSync(c, 2, BackendNative); again != first {
		t.Errorf("the memo gave %+v, want %+v", again, first)
	}
	forget()
	cached, err := CalibrateSync(c, 2, BackendNative)
	if err != nil {
		t.Fatal(err)
	}
	if !cached.Cached || cached.PerWait != first.PerWait || cached.NsPerUnit != first.NsPerUnit || cached.Units() != first.Units() {
		t.Errorf("read back %+v, stored %+v", cached, first)
	}
	if !strings.Contains(cached.String(), "cached") || strings.Contains(first.String(), "cached") {
		t.Errorf("String: %q / %q", first, cached)
	}
	old := time.Now().Add(-2 * calibrationTTL).Unix()
	if err := c.Put(calibrationKey(2, BackendNative), []byte("123 0.5 "+strconv.FormatInt(old, 10))); err != nil {
		t.Fatal(err)
	}
	forget()
	fresh, err := CalibrateSync(c, 2, BackendNative)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Cached || fresh.PerWait == 123 {
		t.Errorf("a stale calibration was used: %+v", fresh)
	}
	if _, err := MeasureSync(1); err == nil {
		t.Error("MeasureSync(1) measured something")
	}
}

// TestChargeSync: auto mode charges the calibration, always mode the
// backend's default, SyncCost what it says; the charge is part of the
// image's key.
func TestChargeSync(t *testing.T) {
	src := "module m(input logic clk, output logic [7:0] q);\n  always_ff @(posedge clk) q <= q + 1;\nendmodule\n"
	build := func(b *Builder) *Program {
		t.Helper()
		p, err := b.Source("m.sv", src).NoCache().Lanes(2).Build()
		if err != nil {
			t.Fatal(err)
		}
		p.Close()
		return p
	}
	auto := build(NewBuilder())
	if auto.Sync == nil || auto.SyncCost != auto.Sync.Units() {
		t.Errorf("auto: sync cost %d from %v", auto.SyncCost, auto.Sync)
	}
	if always := build(NewBuilder().Partition(PartitionAlways)); always.Sync != nil || always.SyncCost != lanes.SyncCostNative {
		t.Errorf("always: sync cost %d from %v", always.SyncCost, always.Sync)
	}
	if set := build(NewBuilder().SyncCost(1234)); set.Sync != nil || set.SyncCost != 1234 {
		t.Errorf("SyncCost(1234): sync cost %d from %v", set.SyncCost, set.Sync)
	}
	if _, err := NewBuilder().Source("m.sv", src).SyncCost(1).Build(); err == nil || !strings.Contains(err.Error(), "SyncCost(1)") {
		t.Errorf("SyncCost(1): %v", err)
	}
	b := NewBuilder().Source("m.sv", src).Lanes(2)
	if b.newCacheEntry(nil, 600).key == b.newCacheEntry(nil, 2000).key {
		t.Error("the sync cost is not part of the image key")
	}
}

// TestNothingPartitionedIsSequential: a build for two lanes in which no
// kernel is worth partitioning lays out the state exactly as the one-lane
// build (no lane rings or status words), so its speed is the same.
func TestNothingPartitionedIsSequential(t *testing.T) {
	// The second design's clock has two islands of logic, which read the
	// clock as data: its lane tick fails a late check, and must leave
	// nothing in the state.
	for _, src := range []string{`module m(input logic clk, input logic rst_n, output logic [31:0] sum);
  logic [511:0] s;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) s <= '1; else s <= {s[510:0], s[511] ^ s[3]};
  always_comb begin
    sum = 0;
    for (int i = 0; i < 16; i++) sum = sum ^ s[i*32+:32];
  end
endmodule
`, `module m(input logic clk, output logic [7:0] a, output logic [7:0] b);
  always_ff @(posedge clk) a <= a * 8'd3 + 8'(clk) + 8'd1;
  always_ff @(posedge clk) b <= (b ^ {7'd0, clk}) * 8'd5 + 8'd3;
endmodule
`} {
		build := func(b *Builder) *Program {
			t.Helper()
			p, err := b.Source("m.sv", src).NoCache().Output(io.Discard).Build()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { p.Close() })
			return p
		}
		one := build(NewBuilder())
		two := build(NewBuilder().Lanes(2).SyncCost(lanes.MaxSyncCost))
		if two.Program.Parallel == nil || len(two.Program.Parallel.Kernels()) != 0 || two.Program.Parallel.HasLaneTicks() || len(two.Program.Parallel.Reasons) == 0 {
			t.Fatalf("want a plan with reasons and no partitioned kernel: %+v", two.Program.Parallel)
		}
		l1, l2 := one.Program.Layout, two.Program.Layout
		if l1.StateSize() != l2.StateSize() || l1.Kind != l2.Kind || l1.Ring != l2.Ring || two.Sim.Lanes() != 1 {
			t.Fatalf("one lane: %d bytes %s ring %+v; two: %d bytes %s ring %+v, %d lanes", l1.StateSize(), l1.Kind, l1.Ring, l2.StateSize(), l2.Kind, l2.Ring, two.Sim.Lanes())
		}
		for i := range one.Program.Signals {
			if l1.Signal(i) != l2.Signal(i) {
				t.Errorf("signal %s at %+v, with two lanes at %+v", one.Program.Signals[i].Path, l1.Signal(i), l2.Signal(i))
			}
		}
	}
}
