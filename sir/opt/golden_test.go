package opt

import (
	"bytes"
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestGolden runs the pass named by each testdata/PASS_case.sir file
// ("all": the whole pipeline) and compares the printed result with
// PASS_case.golden. It also checks the unit before and after behave the
// same on random states.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.sir")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sir")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			u, err := sir.Parse(string(text))
			if err != nil {
				t.Fatal(err)
			}
			if err := sir.Check(u); err != nil {
				t.Fatal(err)
			}
			before := u.Clone()
			pass := name[:strings.IndexByte(name, '_')]
			if pass == "all" {
				err = Run(u, Options{Check: true})
			} else {
				err = RunPass(u, pass)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := sir.Check(u); err != nil {
				t.Fatalf("%v\n%s", err, u)
			}
			got := u.String()
			golden := strings.TrimSuffix(file, ".sir") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s after %s:\n--- got\n%s--- want\n%s", file, pass, got, want)
			}
			rng := rand.New(rand.NewSource(1))
			for i := 0; i < 50; i++ {
				if msg := sameBehaviour(before, u, rng); msg != "" {
					t.Fatalf("%s changed behaviour: %s", pass, msg)
				}
			}
		})
	}
}

// testLayout places homes h0..h7 (64 bytes each) and an event ring.
func testLayout() (*sir.MapLayout, int) {
	return sir.PackedLayout([]int{64, 64, 64, 64, 64, 64, 64, 64}, 4096)
}

// sameBehaviour runs both units on the same random state and returns a
// description of the first difference ("" when none).
func sameBehaviour(a, b *sir.Unit, rng *rand.Rand) string {
	l, size := testLayout()
	fa, err := interp.Compile(a, l, interp.Options{MaxSteps: 1 << 20})
	if err != nil {
		return "before: " + err.Error()
	}
	fb, err := interp.Compile(b, l, interp.Options{MaxSteps: 1 << 20})
	if err != nil {
		return "after: " + err.Error()
	}
	sa := make([]byte, size)
	rng.Read(sa[:l.Offsets[sir.RingHome]])
	// Small values make equal operands, in-range indexes and taken branches likely.
	for i := range sa[:l.Offsets[sir.RingHome]] {
		if rng.Intn(3) == 0 {
			sa[i] &= 3
		}
	}
	ring := l.Offsets[sir.RingHome]
	sir.InitRing(sa[ring:], 4096)
	sb := append([]byte(nil), sa...)
	sta, stb := fa.Run(sa), fb.Run(sb)
	if sta != stb {
		return "status " + sta.String() + " became " + stb.String()
	}
	if !bytes.Equal(sa, sb) {
		for i := range sa {
			if sa[i] != sb[i] {
				return "state differs at byte " + strconv.Itoa(i)
			}
		}
	}
	return ""
}
