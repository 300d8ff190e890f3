package kernels

import (
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// Static subroutine variables (IEEE 1800-2017 §13.3.1, §6.21) keep their
// value from call to call and are initialized once; automatic ones, and
// for-loop variables, are fresh on every call.
func TestStaticSubroutineLocals(t *testing.T) {
	d := elabSrc(t, "top", `
module top(input logic clk, input logic en, input logic [7:0] a,
           output logic [7:0] held, output logic [15:0] s, output logic [15:0] au,
           output logic [7:0] calls, output logic [7:0] m, output logic [7:0] loops);
  function logic [15:0] acc(input logic [7:0] x);
    static logic [15:0] sum = 16'd100;
    sum = sum + x;
    return sum;
  endfunction
  function automatic logic [15:0] acc_auto(input logic [7:0] x);
    logic [15:0] sum = 16'd100;
    sum = sum + x;
    return sum;
  endfunction
  function logic [7:0] hold(input logic e, input logic [7:0] v);
    logic [7:0] last;
    if (e) last = v;
    return last;
  endfunction
  function logic [7:0] count_bits(input logic [7:0] v);
    logic [7:0] n;
    n = 0;
    for (int i = 0; i < 8; i++) n = n + v[i];
    return n;
  endfunction
  task tick(output logic [7:0] c);
    logic [7:0] k;
    k = k + 1;
    c = k;
  endtask
  always_comb held = hold(en, a);
  always_ff @(posedge clk) begin
    static logic [7:0] mm = 8'd10;
    logic [7:0] c;
    mm = mm + 1;
    m <= mm;
    s <= acc(a);
    au <= acc_auto(a);
    tick(c);
    calls <= c;
    loops <= count_bits(a);
  end
endmodule`)
	p := mustBuild(t, d, Options{})
	dr := newDriver(t, p)
	sum := uint64(100)
	for i := 1; i <= 5; i++ {
		dr.set("a", uint64(i))
		dr.set("en", uint64(i%2))
		dr.tick("clk")
		if dr.status != sir.StatusOK {
			t.Fatalf("status %s", dr.status)
		}
		sum += uint64(i)
		held := uint64(i)
		if i%2 == 0 {
			held = uint64(i - 1)
		}
		if got := dr.getU("held"); got != held {
			t.Errorf("tick %d: held = %d, want %d", i, got, held)
		}
		if got := dr.getU("s"); got != sum {
			t.Errorf("tick %d: s = %d, want %d", i, got, sum)
		}
		if got := dr.getU("au"); got != uint64(100+i) {
			t.Errorf("tick %d: au = %d, want %d", i, got, 100+i)
		}
		if got := dr.getU("calls"); got != uint64(i) {
			t.Errorf("tick %d: calls = %d, want %d", i, got, i)
		}
		if got := dr.getU("m"); got != uint64(10+i) {
			t.Errorf("tick %d: m = %d, want %d", i, got, 10+i)
		}
		bits := uint64(0)
		for v := i; v != 0; v >>= 1 {
			bits += uint64(v & 1)
		}
		if got := dr.getU("loops"); got != bits {
			t.Errorf("tick %d: loops = %d, want %d", i, got, bits)
		}
	}
}
