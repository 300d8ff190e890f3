package sim_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/sim"
)

func readmemDesign(file string) string {
	return "module t;\n  logic [7:0] m [0:1023];\n  initial begin\n    $readmemh(\"" + file + "\", m);\n  end\nendmodule\n"
}

func TestReadmemSizeLimit(t *testing.T) {
	hex := filepath.Join(t.TempDir(), "m.hex")
	if err := os.WriteFile(hex, []byte(strings.Repeat("ab\n", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	src := readmemDesign(hex)
	_, err := compile.NewBuilder().Source("t.sv", src).MaxMemFileBytes(2999).Build()
	want := "sim: step 0: $readmemh: t.sv:4:5: $readmemh file " + hex + " is larger than 2999 bytes, the limit on memory files (raise it with --max-memfile-mb)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	var se *sim.Error
	if !errors.As(err, &se) {
		t.Errorf("%T is not a *sim.Error", err)
	}
	// At the limit, and with the default, it loads.
	for _, n := range []int64{3000, 0} {
		p, err := compile.NewBuilder().Source("t.sv", src).MaxMemFileBytes(n).Build()
		if err != nil {
			t.Fatalf("limit %d: %v", n, err)
		}
		h, ok := p.Sim.Lookup("m")
		if !ok {
			t.Fatal("no memory m")
		}
		m, _ := p.Sim.GetMem(h)
		if m[999] != 0xab || m[1000] != 0 {
			t.Errorf("limit %d: m[999], m[1000] = %x, %x", n, m[999], m[1000])
		}
		p.Close()
	}
}

// A file that holds more words than the memory stops at the first extra
// word, however long it goes on.
func TestReadmemStopsAtFirstExtraWord(t *testing.T) {
	hex := filepath.Join(t.TempDir(), "m.hex")
	if err := os.WriteFile(hex, []byte(strings.Repeat("1 ", 1024)+"2\n"+strings.Repeat("zz_not_a_word ", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := compile.NewBuilder().Source("t.sv", readmemDesign(hex)).Build()
	if err == nil || !strings.Contains(err.Error(), "t.sv:4:5: "+hex+":1: more words than the range [0:1023] of t.m holds") {
		t.Errorf("got %v", err)
	}
}
