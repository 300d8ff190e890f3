package kernels

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
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
    $display("[%5d][%2d][%05d][%-4h][%03h][%6s][%3c][%-6m]|", sa, a, sa, a, a, "ab", 8'h41);
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

// val builds a sir.Value of the given width holding x (two's complement
// for a negative x).
func val(width int, signed bool, x int64) sir.Value {
	v := sir.Value{Width: width, Signed: signed}
	u := uint64(x)
	if width < 64 {
		u &= 1<<uint(width) - 1
	}
	v.Words = []uint64{u}
	for i := 64; i < width; i += 64 {
		v.Words = append(v.Words, 0)
	}
	return v
}

// strVal packs s into a value of n bytes, right-aligned as a Verilog
// string literal assigned to a wider variable.
func strVal(n int, s string) sir.Value {
	v := sir.Value{Width: 8 * n, Words: make([]uint64, (8*n+63)/64)}
	for i := 0; i < len(s); i++ {
		b := uint64(s[len(s)-1-i])
		v.Words[i/8] |= b << (8 * uint(i%8))
	}
	return v
}

// TestFormatWidths: explicit field widths and flags, with the results
// Icarus Verilog 12 prints for the same specifiers and values.
func TestFormatWidths(t *testing.T) {
	i3 := val(32, true, 3)
	neg := val(32, true, -21)
	h := val(16, false, 0xab)
	b := val(8, false, 200)
	nib := val(4, false, 0xa)
	sn := val(8, true, -5)
	hi := strVal(5, "hi")
	hello := strVal(5, "hello")
	cases := []struct {
		format string
		args   []sir.Value
		want   string
	}{
		// %d: N is a minimum width, no automatic width when N is given.
		{"[%5d][%2d][%1d][%12d]", []sir.Value{i3, val(8, false, 6), b, val(32, false, 77)}, "[    3][ 6][200][          77]"},
		{"[%d][%0d][%00d][%d]", []sir.Value{i3, i3, i3, b}, "[          3][3][3][200]"},
		// %0Nd: zeros after the sign.
		{"[%05d][%05d][%03d][%06d][%02d]", []sir.Value{neg, i3, sn, sn, val(32, false, 1234)}, "[-0021][00003][-05][-00005][1234]"},
		{"[%5d][%0d][%3d][%d][%6d]", []sir.Value{neg, neg, sn, sn, sn}, "[  -21][-21][ -5][  -5][    -5]"},
		{"[%010d]", []sir.Value{val(64, true, -1)}, "[-000000001]"},
		// "-" left-justifies (and beats "0"); "+" signs.
		{"[%-5d][%-d][%-2d][%-06d][%-0d][%-5d]|", []sir.Value{val(8, false, 3), h, h, h, h, sn}, "[3    ][171  ][171][171   ][171][-5   ]|"},
		{"[%+d][%+0d][%+05d][%+0d]", []sir.Value{val(8, false, 3), i3, i3, neg}, "[ +3][+3][+0003][-21]"},
		// %h/%b/%o: all the digits, then spaces to N; "%0N" zeros to N.
		{"[%2h][%4h][%6h][%0h][%06h][%03h][%01h]", []sir.Value{h, h, h, h, h, h, h}, "[00ab][00ab][  00ab][ab][0000ab][00ab][00ab]"},
		{"[%-h][%-0h][%-3h][%-03h][%-6h]", []sir.Value{h, h, h, h, h}, "[00ab][ab][00ab][ab ][00ab  ]"},
		{"[%2b][%4b][%10b][%0b][%010b][%06b][%-10b]", []sir.Value{nib, nib, nib, nib, b, b, nib}, "[1010][1010][      1010][1010][0011001000][11001000][1010      ]"},
		{"[%1o][%3o][%5o][%0o][%05o][%02o]", []sir.Value{b, b, b, b, b, b}, "[310][310][  310][310][00310][310]"},
		{"[%5h][%5x][%5X][%5D][%5B][%5O]", []sir.Value{h, h, h, b, nib, b}, "[ 00ab][ 00ab][ 00ab][  200][ 1010][  310]"},
		// %s: N is a minimum width, never zero-filled; zero bytes dropped.
		{"[%3s][%8s][%0s][%08s][%s][%8s][%0s]", []sir.Value{hello, hello, hello, hello, hi, hi, hi}, "[hello][   hello][hello][   hello][   hi][      hi][hi]"},
		{"[%05s][%02s][%-8s][%-s][%-0s]", []sir.Value{hi, hi, hi, hi, hi}, "[   hi][hi][hi      ][hi   ][hi]"},
		{"[%s][%5s][%s][%5s]", []sir.Value{val(8, false, 0), val(16, false, 0), val(24, false, 0x410042), val(24, false, 0x410042)}, "[ ][     ][ AB][   AB]"},
		// %c
		{"[%3c][%03c][%0c][%-5c][%-05c]", []sir.Value{val(8, false, 65), val(8, false, 65), val(8, false, 65), val(8, false, 66), val(8, false, 66)}, "[  A][00A][A][B    ][B    ]"},
		// %t: 20 characters without N.
		{"[%5t][%0t][%t][%05t][%2t][%-5t]", []sir.Value{val(64, false, 0), val(64, false, 0), val(64, false, 0), val(64, false, 0), val(64, false, 123), val(64, false, 123)}, "[    0][0][                   0][00000][123][123  ]"},
		// %m takes a width too (spaces only).
		{"[%5m][%-5m][%05m][%0m][%m]", nil, "[    w][w    ][    w][w][w]"},
	}
	for _, c := range cases {
		if got := program.FormatArgs(c.format, true, "w", c.args); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.format, got, c.want)
		}
	}
}

// TestFormatsShared: the instances of one $display site share a format
// entry when its text cannot name the scope, and keep their own (with
// their scope) when it has %m; every instance prints the same as Icarus.
func TestFormatsShared(t *testing.T) {
	src := `
module leaf #(parameter int ID = 0) (input logic clk);
  logic [7:0] n = 8'(ID);
  always @(posedge clk) begin
    n <= n + 8'd1;
    $display("leaf %0d n=%0d", ID, n);
    $display("%m: n=%0d", n);
    $display(n);
  end
endmodule
module top(input logic clk);
  leaf #(1) u1(.clk);
  leaf #(2) u2(.clk);
  leaf #(3) u3(.clk);
endmodule
`
	d := elabSrc(t, "top", src)
	p := mustBuild(t, d, Options{})
	byText := map[string][]string{}
	for _, f := range p.Formats {
		byText[f.Text] = append(byText[f.Text], f.Scope)
	}
	if n := len(byText["leaf %0d n=%0d"]); n != 1 {
		t.Errorf("the plain display has %d format entries, want 1", n)
	}
	if n := len(byText["%d"]); n != 1 { // $display(n): elab writes the format
		t.Errorf("the display without a format has %d format entries, want 1", n)
	}
	if got := byText["%m: n=%0d"]; len(got) != 3 || got[0] == got[1] {
		t.Errorf("the %%m display has entries for scopes %q, want one per instance", got)
	}
	runDiff(t, diffCase{name: "fmtshare", top: "top", srcs: []string{src}, clk: "clk", cycles: 4, noIcarus: true})
	dr := newDriver(t, p)
	dr.set("clk", 1)
	dr.step()
	got := strings.TrimRight(dr.out.String(), "\n")
	for _, want := range []string{"leaf 1 n=1", "leaf 3 n=3", "top.u2: n=2"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
