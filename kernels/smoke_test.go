package kernels

import "testing"

func TestSmokeCounter(t *testing.T) {
	d := elabSrc(t, "cnt", `
module cnt(input logic clk, input logic rst_n, input logic en, output logic [7:0] q, output logic [8:0] q2);
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) q <= '0;
    else if (en) q <= q + 8'd1;
  assign q2 = {1'b0, q} + 9'd3;
endmodule`)
	p := mustBuild(t, d, Options{})
	dr := newDriver(t, p)
	dr.set("rst_n", 0)
	dr.step()
	dr.set("rst_n", 1)
	dr.set("en", 1)
	dr.step()
	for i := 0; i < 5; i++ {
		dr.tick("clk")
	}
	if got := dr.getU("q"); got != 5 {
		t.Fatalf("q = %d, want 5", got)
	}
	if got := dr.getU("q2"); got != 8 {
		t.Fatalf("q2 = %d, want 8", got)
	}
}
