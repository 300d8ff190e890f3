package main

import (
	"fmt"
	"strings"
	"testing"
)

// 100,000 $displays in one clock edge overflow the default 64 KiB ring:
// the run fails saying how many were lost and naming --ring, also when the
// same edge ran $finish; --ring makes room for them all.
func TestRunRingFlag(t *testing.T) {
	for _, finish := range []string{"", "$finish;"} {
		f := writeSV(t, fmt.Sprintf(`module t(input logic clk);
  always_ff @(posedge clk) begin
    for (int i = 0; i < 100000; i++) $display("line %%0d", i);
    %s
  end
endmodule`, finish))
		code, out, errs := weft("run", "--cycles", "1", f)
		if code != 1 || !strings.Contains(errs, "98362 dropped") && !strings.Contains(errs, "98363 runtime events were lost") || !strings.Contains(errs, "--ring") {
			t.Errorf("%q, default ring: exit %d, stderr:\n%s", finish, code, errs)
		}
		if !strings.Contains(out, "runtime events lost here") {
			t.Errorf("%q: no loss marker in the output", finish)
		}
		for _, ring := range []string{"4M", "4194304", "4096K", "4MiB"} {
			code, out, errs = weft("run", "--cycles", "1", "--ring", ring, f)
			if code != 0 || strings.Count(out, "\n") != 100000 || !strings.HasSuffix(out, "line 99999\n") {
				t.Errorf("%q, --ring %s: exit %d, %d lines, stderr:\n%s", finish, ring, code, strings.Count(out, "\n"), errs)
			}
		}
	}
}

// A $display with 20,000 arguments needs 320,016 bytes for its one record:
// a build error names the call and both sizes, until --ring is raised.
func TestRunEventLargerThanRing(t *testing.T) {
	var b strings.Builder
	b.WriteString("module t(input logic clk);\n  logic [31:0] v = 7;\n  always_ff @(posedge clk) $display(\"")
	b.WriteString(strings.Repeat("%0d ", 20000))
	b.WriteString("\"")
	for range 20000 {
		b.WriteString(", v")
	}
	b.WriteString(");\nendmodule\n")
	f := writeSV(t, b.String())
	code, out, errs := weft("run", "--cycles", "1", f)
	want := f + ":3:28: error: $display needs 320024 bytes in the runtime-event ring for one call, but the ring holds 65536; raise it to at least 320024 bytes with --ring"
	if code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant it to contain %q", code, errs, want)
	}
	code, out, errs = weft("run", "--cycles", "1", "--ring", "320024", f)
	if code != 0 || out != strings.Repeat("7 ", 20000)+"\n" {
		t.Errorf("--ring 320024: exit %d, stdout %.40q..., stderr:\n%s", code, out, errs)
	}
	for _, cmd := range [][]string{{"plan"}, {"bench", "--cycles", "1", "--runs", "1", "--lanes", "1"}} {
		args := append(append(cmd, "--ring", "1M"), f)
		if code, _, errs := weft(args...); code != 0 {
			t.Errorf("weft %s: exit %d\n%s", strings.Join(args, " "), code, errs)
		}
	}
}

// --max-state-mb bounds the state memory: a design past it fails to build,
// naming its largest memory.
func TestRunMaxStateFlag(t *testing.T) {
	f := writeSV(t, `module t(input logic clk, input logic [17:0] i, output logic [63:0] q);
  logic [63:0] mem [0:262143];
  always_ff @(posedge clk) begin mem[i] <= mem[i] + 1; q <= mem[i]; end
endmodule`)
	code, _, errs := weft("run", "--cycles", "2", "--max-state-mb", "1", f)
	want := "the design needs 2.1 MiB of state memory, over the limit of 1.0 MiB; largest: t.mem at " + f + ":2:16 (2.0 MiB: 262144 elements of 64 bits)"
	if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "--max-state-mb") {
		t.Errorf("exit %d, stderr:\n%s\nwant it to contain %q", code, errs, want)
	}
	if code, _, errs := weft("run", "--cycles", "2", "--max-state-mb", "3", f); code != 0 {
		t.Errorf("--max-state-mb 3: exit %d\n%s", code, errs)
	}
	if code, _, errs := weft("run", "--cycles", "2", f); code != 0 {
		t.Errorf("default limit: exit %d\n%s", code, errs)
	}
}

// --max-insts bounds the kernels' size: a design of 100,000-bit values
// passes 5,000 SIR instructions, and the error says why and how to raise it.
func TestRunMaxInstsFlag(t *testing.T) {
	f := writeSV(t, `module t(input logic clk, output logic [99999:0] a);
  always_ff @(posedge clk) a <= a + 1;
endmodule`)
	code, _, errs := weft("run", "--cycles", "2", "--max-insts", "5000", f)
	want := "the design needs more than 5000 SIR instructions"
	if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "100000 bits wide") || !strings.Contains(errs, "--max-insts") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	if code, _, errs := weft("run", "--cycles", "2", f); code != 0 {
		t.Errorf("default limit: exit %d\n%s", code, errs)
	}
}

func TestLimitFlagValues(t *testing.T) {
	f := writeSV(t, "module t(input logic clk); endmodule\n")
	for _, bad := range [][]string{{"--ring", "4"}, {"--ring", "2G"}, {"--ring", "-1"}, {"--ring", "x"}, {"--max-state-mb", "0"}, {"--max-state-mb", "1.5"}, {"--max-insts", "10"}, {"--max-insts", "-5"}} {
		if code, _, errs := weft(append(append([]string{"run"}, bad...), f)...); code != 2 || !strings.Contains(errs, "invalid value") {
			t.Errorf("%v: exit %d\n%s", bad, code, errs)
		}
	}
	_, _, help := weft("run", "-h")
	for _, want := range []string{"-ring BYTES", "(default 65536)", "-max-state-mb N", "(default 1024)", "-max-insts N", "(default 2097152)"} {
		if !strings.Contains(help, want) {
			t.Errorf("weft run -h lacks %q", want)
		}
	}
}
