package bus_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/bus"
	"github.com/weft-hdl/weft/compile"
)

const busSrc = `module t(input logic clk, input logic [7:0] s_axis_tdata, input logic s_axis_tvalid,
  output logic s_axis_tready, input logic M_TVALID, output logic [3:0] m_tdata);
  assign s_axis_tready = 1'b1;
  always_ff @(posedge clk) m_tdata <= s_axis_tdata[3:0];
endmodule`

func TestBind(t *testing.T) {
	p, err := compile.NewBuilder().Source("t.sv", busSrc).Top("t").Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var fails []string
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { fails = append(fails, m) }})
	defer tb.Close()

	b := bus.Bind(tb, "s_axis", []string{"tdata", "tvalid"}, []string{"tready", "tlast"})
	if b == nil || b.Signal("tdata").Name() != "s_axis_tdata" || !b.Has("tready") || b.Has("tlast") || b.Signal("tlast") != nil {
		t.Fatalf("s_axis: %+v, failures %v", b, fails)
	}
	m := bus.Bind(tb, "m", []string{"tvalid", "tdata"}, nil)
	if m == nil || m.Signal("tvalid").Name() != "M_TVALID" || m.Signal("tdata").Name() != "m_tdata" {
		t.Fatalf("m: upper-case and plain names: %+v, failures %v", m, fails)
	}
	if len(fails) > 0 {
		t.Fatalf("failures: %v", fails)
	}
	if x := bus.Bind(tb, "s_axis", []string{"tdata", "tkeep"}, nil); x != nil || len(fails) != 1 ||
		!strings.Contains(fails[0], `bus "s_axis": no signal for tkeep`) || !strings.Contains(fails[0], "s_axis_tvalid") {
		t.Fatalf("a missing signal: %v, failures %q", x, fails)
	}
}
