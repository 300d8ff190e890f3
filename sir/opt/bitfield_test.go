package opt

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// fold reads a field of x straight from x: trunc(x >> k) and
// extract(x >> k, lo) become extracts of x, unless x or the shift was
// assigned again in between, or the field runs past x.
func TestFoldShiftedField(t *testing.T) {
	src := `unit "f"
b0:
  r1:64 = load.8 h0+0
  r2:64 = const 5
  r3:64 = lshr r1, r2
  r4:1 = trunc r3
  storebits h1+0, 0, r4
  r5:8 = extract r3, 2
  store.1 h1+1, r5
  r6:4 = extract r3, 58
  storebits h1+2, 0, r6
  r1:64 = load.8 h0+8
  r7:1 = trunc r3
  storebits h1+3, 0, r7
  ret ok
`
	u, err := sir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	orig := u.Clone()
	if err := RunPass(u, "fold"); err != nil {
		t.Fatal(err)
	}
	got := u.String()
	for _, want := range []string{
		"r4:1 = extract r1, 5\n",  // trunc of the shift
		"r5:8 = extract r1, 7\n",  // extract of the shift: offsets add
		"r6:4 = extract r3, 58\n", // 5+58+4 > 64: left alone
		"r7:1 = trunc r3\n",       // r1 assigned again since the shift
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if msg := sameBehaviour(orig, u, rand.New(rand.NewSource(1))); msg != "" {
		t.Error(msg)
	}
}
