package sim_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sim"
)

// One word of a memory file longer than the bound is an error naming the
// file and line, found before the word is copied: a file of one 256 MiB
// word took over a gigabyte.
func TestMemFileWordBound(t *testing.T) {
	word := strings.Repeat("f", sim.MaxMemWordBytes+1)
	text := []byte("00\n// a comment\n" + word + "\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := sim.ParseMem("m.hex", text, true)
	runtime.ReadMemStats(&after)
	want := fmt.Sprintf(`m.hex:3: a word of %d bytes ("ffffffffffffffffffffffffffffffffffffffff..."), more than %d, the limit on one word`, len(word), sim.MaxMemWordBytes)
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
		t.Errorf("refusing the word allocated %d bytes", a)
	}
	// A word at the bound is a word.
	ws, err := sim.ParseMem("m.hex", []byte(word[1:]+"\n"), true)
	if err != nil || len(ws) != 1 || ws[0].Value.BitLen() != 4*sim.MaxMemWordBytes {
		t.Errorf("a word of %d bytes: %v", sim.MaxMemWordBytes, err)
	}
}
