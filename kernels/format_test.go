package kernels

import (
	"strings"
	"testing"
)

// $display formatting compared with Icarus: the initial block runs in the
// Initial unit; the simulator formats the ring records with Message.
func TestDisplayFormatsVsIcarus(t *testing.T) {
	src := `
module fmtm;
  logic [7:0] a;
  logic signed [7:0] sa;
  logic [99:0] w;
  logic signed [69:0] sw;
  logic [3:0] n;
  initial begin
    a = 8'd7; sa = -8'sd7; w = 100'h1_2345_6789_abcd_ef01_2345_6789; sw = -70'sd123456789012345; n = 4'ha;
    $display("[%d] [%0d] [%5d] [%05d] [%h] [%4h] [%04h] [%0h] [%b] [%0b] [%o]", sa, sa, a, a, a, a, a, a, a, a, a);
    $display("%d %h %0d|%d|%h", w, w, sw, sw, sw);
    $display("%c%c%c %s|%10s|%%|%m", 8'h77, 8'h65, 8'h66, "text", "hi");
    $write("a=%0d ", a);
    $write("b=%h\n", n);
    $display("%x %X %B %D", n, n, n, n);
    $display("no args");
    $display("%0d%0d%0d", n, a, sa);
  end
endmodule
`
	d := elabSrc(t, "fmtm", src)
	p := mustBuild(t, d, Options{})
	dr := newDriver(t, p)
	got := strings.TrimRight(dr.out.String(), "\n")
	if !hasIcarus() {
		t.Skip("iverilog not installed; weft output:\n" + got)
	}
	want := runIcarus(t, []string{src}, "")
	if got != want {
		t.Fatalf("weft:\n%s\nicarus:\n%s", got, want)
	}
}
