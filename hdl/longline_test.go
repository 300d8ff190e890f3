package hdl

import (
	"fmt"
	"math/big"
	"math/rand"
	"runtime"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/internal/tier"
)

// setBounds lowers the token and line bounds for the test (0 keeps one).
func setBounds(t *testing.T, token, line int) {
	t.Helper()
	oldT, oldL := maxTokenBytes, maxLineBytes
	if token > 0 {
		maxTokenBytes = token
	}
	if line > 0 {
		maxLineBytes = line
	}
	t.Cleanup(func() { maxTokenBytes, maxLineBytes = oldT, oldL })
}

// loadBytes preprocesses, lexes and parses src as t.sv and returns the
// diagnostics' first lines and the bytes the heap allocated doing it.
func loadBytes(t *testing.T, src string) (diags []string, allocated uint64) {
	t.Helper()
	in := []Input{{Name: "t.sv", Src: []byte(src)}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fs := NewFileSet()
	ds := NewDiagnostics(fs)
	Load(fs, in, PreprocessOptions{}, ds)
	runtime.ReadMemStats(&after)
	for _, d := range ds.List {
		diags = append(diags, strings.SplitN(d.Error(), "\n", 2)[0])
	}
	return diags, after.TotalAlloc - before.TotalAlloc
}

// hasDiag fails t unless one of diags is want.
func hasDiag(t *testing.T, what string, diags []string, want string) {
	t.Helper()
	for _, d := range diags {
		if d == want {
			return
		}
	}
	t.Errorf("%s: want\n  %s\ngot\n  %s", what, want, strings.Join(diags, "\n  "))
}

// Every kind of token longer than the bound is one error at its start,
// naming the bound; lexing goes on after it. The bound is lowered to 64 KiB
// so that 100 KB tokens show it (the long tier runs 10 MB ones at the real
// bound).
func TestTokenBound(t *testing.T) {
	const bound = 64 << 10
	setBounds(t, bound, 0)
	long := 100_000
	a, d := strings.Repeat("a", long), strings.Repeat("7", long)
	cases := []struct {
		name, src, want string
	}{
		{"identifier", "module m; wire " + a + "; endmodule\n",
			"t.sv:1:16: error: identifier aaaaaaaaaaaaaaaa... is 100000 bytes long, more than 65536 bytes, the limit on one token (fixed)"},
		{"escaped identifier", "module m; wire \\" + a + " ; endmodule\n",
			"t.sv:1:16: error: escaped identifier \\aaaaaaaaaaaaaaa... is 100001 bytes long, more than 65536 bytes, the limit on one token (fixed)"},
		{"system name", "module m; initial $" + a + "; endmodule\n",
			"t.sv:1:19: error: system name $aaaaaaaaaaaaaaa... is 100001 bytes long, more than 65536 bytes, the limit on one token (fixed)"},
		{"decimal", "module m; localparam P = " + d + "; endmodule\n",
			"t.sv:1:26: error: number literal 7777777777777777... is 100000 bytes long, more than 65536 bytes, the limit on one token (fixed); write a wide constant as a concatenation or replication of shorter literals"},
		{"hex", "module m; localparam P = 'h" + strings.Repeat("f", long) + "; endmodule\n",
			"t.sv:1:26: error: number literal 'hffffffffffffff... is 100002 bytes long, more than 65536 bytes, the limit on one token (fixed); write a wide constant as a concatenation or replication of shorter literals"},
		{"sized binary", "module m; localparam P = 8'b" + strings.Repeat("1", long) + "; endmodule\n",
			"t.sv:1:26: error: number literal 8'b1111111111111... is 100003 bytes long, more than 65536 bytes, the limit on one token (fixed); write a wide constant as a concatenation or replication of shorter literals"},
		{"real", "module m; localparam real P = 1." + d + "; endmodule\n",
			"t.sv:1:31: error: number literal 1.77777777777777... is 100002 bytes long, more than 65536 bytes, the limit on one token (fixed); write a wide constant as a concatenation or replication of shorter literals"},
		{"string", "module m; initial $display(\"" + strings.Repeat("x\\n", long/3) + "\"); endmodule\n",
			"t.sv:1:28: error: string literal \"x\\nx\\nx\\nx\\nx\\n... is 100001 bytes long, more than 65536 bytes, the limit on one token (fixed); split it into a concatenation {\"...\", \"...\"}"},
		{"unterminated string", "module m; initial $display(\"" + a + "\nendmodule\n",
			"t.sv:1:28: error: string literal \"aaaaaaaaaaaaaaa... is 100001 bytes long, more than 65536 bytes, the limit on one token (fixed); split it into a concatenation {\"...\", \"...\"}"},
		{"macro name", "`" + a + "\nmodule m; endmodule\n",
			"t.sv:1:1: error: directive or macro name aaaaaaaaaaaaaaaa... is 100000 bytes long, more than 65536 bytes, the limit on one token (fixed)"},
		{"define", "`define " + a + " 1\nmodule m; endmodule\n",
			"t.sv:1:1: error: macro name aaaaaaaaaaaaaaaa... is 100000 bytes long, more than 65536 bytes, the limit on one token (fixed)"},
		{"ifdef", "`ifdef " + a + "\n`endif\nmodule m; endmodule\n",
			"t.sv:1:8: error: macro name aaaaaaaaaaaaaaaa... is 100000 bytes long, more than 65536 bytes, the limit on one token (fixed)"},
		{"include", "`include \"" + a + "\"\nmodule m; endmodule\n",
			"t.sv:1:1: error: `include file name \"aaaaaaaaaaaaaaa... is 100000 bytes long; no path is longer than 4096 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A later error is still found: the long token was skipped.
			diags, allocated := loadBytes(t, tc.src+"module n; wire 8x; endmodule\n")
			hasDiag(t, tc.name, diags, tc.want)
			next := fmt.Sprintf("t.sv:%d:", strings.Count(tc.src, "\n")+1)
			if len(diags) < 2 || !strings.HasPrefix(diags[len(diags)-1], next) {
				t.Errorf("%s: the error after the long token is missing: %q", tc.name, diags)
			}
			// Nothing the size of the token is built (a big.Int of its
			// digits, a decoded string, a copy per message): the text
			// itself is copied a few times by the front end, no more.
			if allocated > allocSlack*12*uint64(len(tc.src)) {
				t.Errorf("%s: %d bytes allocated for %d bytes of source", tc.name, allocated, len(tc.src))
			}
		})
	}

	// A token at the bound is a token.
	for _, src := range []string{
		"module m; wire " + strings.Repeat("b", bound) + "; endmodule\n",
		"module m; localparam P = 'h" + strings.Repeat("f", bound-2) + "; endmodule\n",
		"module m; initial $display(\"" + strings.Repeat("y", bound-2) + "\"); endmodule\n",
	} {
		if diags, _ := loadBytes(t, src); len(diags) != 0 {
			t.Errorf("a token of %d bytes: %q", bound, diags)
		}
	}
}

// A line longer than the bound is one error at its start; its tokens are
// never made, and the lines after it are lexed.
func TestLineBound(t *testing.T) {
	const bound = 64 << 10
	setBounds(t, 0, bound)
	n := 100_000
	for _, tc := range []struct{ name, line string }{
		{"tokens", strings.Repeat("a ", n/2)},
		{"semicolons", strings.Repeat(";", n)},
		{"comment", "// " + strings.Repeat("c", n)},
		{"block comment", "/* " + strings.Repeat("c", n) + " */"},
	} {
		src := "module m;\n" + tc.line + "\nwire 8x;\nendmodule\n"
		diags, allocated := loadBytes(t, src)
		hasDiag(t, tc.name, diags, fmt.Sprintf("t.sv:2:1: error: this line is %d bytes long, more than 65536 bytes, the limit on one line (fixed); break it into shorter lines", len(tc.line)))
		if len(diags) != 2 || !strings.HasPrefix(diags[1], "t.sv:3:") {
			t.Errorf("%s: want the line's error and one on line 3, got %q", tc.name, diags)
		}
		// The line's tokens (50,000 of them, 100 bytes each) were not made.
		if allocated > 12*uint64(len(src)) {
			t.Errorf("%s: %d bytes allocated for %d bytes of source", tc.name, allocated, len(src))
		}
	}
	// A line at the bound is a line.
	src := "module m; wire " + strings.Repeat("a, ", (bound-30)/3) + "b; endmodule\n"
	if diags, _ := loadBytes(t, src); len(diags) != 0 {
		t.Errorf("a line of %d bytes: %q", len(src), diags[:min(len(diags), 3)])
	}
}

// Diagnostics on a long line quote a window of it: fifty errors on a 1 MB
// line used to copy the line fifty times.
func TestDiagnosticsOnLongLineCopyLittle(t *testing.T) {
	line := strings.Repeat(strings.Repeat("a", 10_000)+"\x01", 100) // fifty errors, then too many
	diags, allocated := loadBytes(t, "module m; "+line+"\nendmodule\n")
	if len(diags) < MaxErrors {
		t.Fatalf("%d diagnostics, want %d", len(diags), MaxErrors)
	}
	if allocated > allocSlack*12<<20 {
		t.Errorf("%d MiB allocated for %d errors on a 1 MB line", allocated>>20, len(diags))
	}
	fs := NewFileSet()
	ds := NewDiagnostics(fs)
	Load(fs, []Input{{Name: "t.sv", Src: []byte("module m; " + line)}}, PreprocessOptions{}, ds)
	for _, d := range ds.List {
		if len(d.LineText) > maxQuote+6 {
			t.Fatalf("a diagnostic quotes %d bytes", len(d.LineText))
		}
	}
}

// The token slice is sized by what the text can hold: a file of a few long
// tokens does not reserve a hundred bytes per byte of source.
func TestTokenSliceFitsTheText(t *testing.T) {
	for _, src := range []string{
		"module m; wire " + strings.Repeat("a", 1_000_000) + "; endmodule\n",
		"module m; initial $display(\"" + strings.Repeat("a b ", 250_000) + "\"); endmodule\n",
		"module m; /* " + strings.Repeat("a b ", 250_000) + " */ endmodule\n",
		"module m;\n" + strings.Repeat("// a b c d e f g h\n", 50_000) + " endmodule\n",
	} {
		if _, allocated := loadBytes(t, src); allocated > allocSlack*12*uint64(len(src)) {
			t.Errorf("%.30s...: %d MB allocated lexing %d MB", src, allocated>>20, len(src)>>20)
		}
	}
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"a bb ccc += 12'h3f;", 9},
		{"a /* b c */ d // e f\n g", 3},
		{"$display(\"a b \\\" c\", x)", 6},
		{"\"a \\\n b\" c", 2},
	} {
		if got, _ := prescan(tc.src); got < tc.want || got > 2*tc.want {
			t.Errorf("prescan(%q) = %d for %d tokens", tc.src, got, tc.want)
		}
	}
}

// Based literals are built word by word and decimal ones by halves: a 1 MiB
// hexadecimal literal took a minute when each digit shifted the value.
// Bytes allocated measure the work: 8 times the digits, about 8 times the
// bytes (the quadratic build allocated a new value per digit).
func TestLongLiteralsAreLinear(t *testing.T) {
	lit := func(n int, base string, digit string) string {
		return "module m; localparam P = " + base + strings.Repeat(digit, n) + "; endmodule\n"
	}
	for _, tc := range []struct{ base, digit string }{{"'h", "f"}, {"'b", "1"}, {"'o", "7"}, {"'d", "9"}, {"", "9"}} {
		_, small := loadBytes(t, lit(100_000, tc.base, tc.digit))
		_, large := loadBytes(t, lit(800_000, tc.base, tc.digit))
		if large > 16*small {
			t.Errorf("%s literal: %d bytes allocated for 100000 digits, %d for 800000", tc.base, small, large)
		}
	}
	// And the value is right.
	st, _, err := ParseString("t.sv", lit(300_000, "'h", "f"))
	if err != nil {
		t.Fatal(err)
	}
	if v := firstParam(t, st); v.BitLen() != 1_200_000 || v.Cmp(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1_200_000), big.NewInt(1))) != 0 {
		t.Errorf("'h of 300000 f digits: %d bits", v.BitLen())
	}
}

// firstParam is the value of the first parameter of st's first module.
func firstParam(t *testing.T, st *SourceText) *big.Int {
	t.Helper()
	for _, it := range st.Modules[0].Items {
		if p, ok := it.(*ParamDecl); ok {
			if n, ok := p.Names[0].Init.(*Number); ok {
				return n.Value
			}
		}
	}
	t.Fatal("no parameter")
	return nil
}

// setDecimal and setBasedDigits give what the straightforward conversions
// give, digit by digit.
func TestLiteralConversions(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 2, 19, 20, 1023, 1024, 1025, 2048, 3000, 5000, 9999} {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + rng.Intn(10)))
		}
		want, _ := new(big.Int).SetString(b.String(), 10)
		var got big.Int
		setDecimal(&got, b.String())
		if got.Cmp(want) != 0 {
			t.Errorf("setDecimal of %d digits differs", n)
		}
	}
	for _, base := range []struct {
		bpd    uint
		digits string
	}{{1, "01xz?"}, {3, "01234567xXzZ?"}, {4, "0123456789abcdefABCDEFxXzZ?"}} {
		for _, n := range []int{1, 5, 21, 22, 63, 64, 65, 200} {
			var b strings.Builder
			for range n {
				b.WriteByte(base.digits[rng.Intn(len(base.digits))])
			}
			got := newNumber("")
			setBasedDigits(got, b.String(), base.bpd)
			// The reference: shift in each digit.
			v, xz, z := new(big.Int), new(big.Int), new(big.Int)
			mask := big.NewInt(1<<base.bpd - 1)
			for _, c := range []byte(b.String()) {
				v.Lsh(v, base.bpd)
				xz.Lsh(xz, base.bpd)
				z.Lsh(z, base.bpd)
				switch c | 0x20 {
				case 'x':
					xz.Or(xz, mask)
				case 'z', '?':
					xz.Or(xz, mask)
					z.Or(z, mask)
				default:
					d := new(big.Int)
					d.SetString(string(c), 16)
					v.Or(v, d)
				}
			}
			if got.Value.Cmp(v) != 0 || got.XZ.Cmp(xz) != 0 || got.Z.Cmp(z) != 0 {
				t.Errorf("%d digits of %d bits (%s): got %x/%x/%x, want %x/%x/%x", n, base.bpd, b.String(), got.Value, got.XZ, got.Z, v, xz, z)
			}
		}
	}
}

// The held-out shapes at full size: a 10 MB line of one identifier, number,
// string, escaped identifier or comment, or of ten thousand tokens. Each is
// one error naming the line bound, and the front end allocates a small
// multiple of the file (a token slice sized by the file's length was half
// a gigabyte).
func TestTenMegabyteLines(t *testing.T) {
	tier.LongOnly(t, "10 MB one-line sources")
	n := 10_000_000
	for _, tc := range []struct{ name, src string }{
		{"identifier", "module m; wire " + strings.Repeat("a", n) + "; endmodule\n"},
		{"number", "module m; localparam P = " + strings.Repeat("1", n) + "; endmodule\n"},
		{"string", "module m; initial $display(\"" + strings.Repeat("x", n) + "\"); endmodule\n"},
		{"escaped identifier", "module m; wire \\" + strings.Repeat("a", n) + " ; endmodule\n"},
		{"tokens", "module m; " + strings.Repeat("a ", n/2) + " endmodule\n"},
		{"comment", "module m; // " + strings.Repeat("c", n) + "\nendmodule\n"},
	} {
		diags, allocated := loadBytes(t, tc.src)
		want := "t.sv:1:1: error: this line is "
		// (The comment's line held "module m;" too: 'endmodule' follows
		// without its start.)
		if len(diags) == 0 || len(diags) > 2 || !strings.HasPrefix(diags[0], want) || !strings.Contains(diags[0], "more than 8 MiB, the limit on one line (fixed)") {
			t.Errorf("%s: %q", tc.name, diags)
		}
		if allocated > 8*uint64(len(tc.src)) {
			t.Errorf("%s: %d MB allocated for %d MB of source", tc.name, allocated>>20, len(tc.src)>>20)
		}
	}
	// Under the line bound, 2 MB tokens trip the token bound.
	m := 2_000_000
	for _, src := range []string{
		"module m; wire " + strings.Repeat("a", m) + "; endmodule\n",
		"module m; localparam P = 'h" + strings.Repeat("f", m) + "; endmodule\n",
		"module m; initial $display(\"" + strings.Repeat("x", m) + "\"); endmodule\n",
	} {
		diags, allocated := loadBytes(t, src)
		if len(diags) != 1 || !strings.Contains(diags[0], "more than 1 MiB, the limit on one token (fixed)") {
			t.Errorf("%.40s...: %q", src, diags)
		}
		if allocated > 12*uint64(len(src)) {
			t.Errorf("%.40s...: %d MB allocated for %d MB of source", src, allocated>>20, len(src)>>20)
		}
	}
}
