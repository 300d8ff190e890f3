package opt

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

func TestRunDumpsEveryPass(t *testing.T) {
	u, err := sir.Parse("unit d\nb0:\n  r1:8 = const 1\n  r2:8 = add r1, r1\n  store.1 h0+0, r2\n  ret ok\n")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	var seen []string
	dump := DumpTo(&sb)
	if err := Run(u, Options{Check: true, Skip: map[string]bool{"coalesce": true}, Dump: func(p string, u *sir.Unit) {
		seen = append(seen, p)
		dump(p, u)
	}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"start"}
	for _, p := range Passes() {
		if p != "coalesce" { // skipped
			want = append(want, p)
		}
	}
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Errorf("dumped %v, want %v", seen, want)
	}
	if !strings.Contains(sb.String(), "## d after late fold\n") || !strings.HasSuffix(sb.String(), "  r2:8 = const 2\n  store.1 h0+0, r2\n  ret ok\n") {
		t.Errorf("dump:\n%s", sb.String())
	}
	if err := RunPass(u, "nope"); err == nil {
		t.Error("RunPass accepted an unknown pass")
	}
}
