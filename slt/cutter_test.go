package slt

import (
	"fmt"
	"github.com/weft-hdl/weft/internal/bound"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/weft-hdl/weft/design"
)

// concatCutter must cut exactly as narrow does, only without scanning
// every part for every cut.
func TestConcatCutterMatchesNarrow(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	h := &design.Home{Name: "x", Width: 7}
	leafOf := func() design.Expr {
		switch r.Intn(3) {
		case 0:
			w := 1 + r.Intn(7)
			return &design.Slice{X: &design.HomeRef{Home: h}, Lsb: u32(r.Intn(7)), T: unsignedT(w)}
		case 1:
			x := &design.HomeRef{Home: h}
			return &design.Repl{X: x, N: 1 + r.Intn(5), T: unsignedT(7 * (1 + r.Intn(5)))}
		}
		cw := 1 + r.Intn(9)
		return design.ConstInt(unsignedT(cw), r.Int63n(1<<cw))
	}
	for round := 0; round < 60; round++ {
		var parts []design.Expr
		w := 0
		for range 1 + r.Intn(12) {
			p := leafOf()
			if rp, ok := p.(*design.Repl); ok {
				rp.T = unsignedT(7 * rp.N)
			}
			parts = append(parts, p)
			w += p.Type().Width
		}
		c := &design.Concat{Parts: parts, T: unsignedT(w)}
		k := newConcatCutter(c)
		for off := 0; off < w; off++ {
			for cw := 1; off+cw <= w; cw++ {
				want, wc := narrow(c, off, cw)
				got, gc := k.narrow(off, cw)
				if design.ExprString(got) != design.ExprString(want) || gc != wc {
					t.Fatalf("%s [%d+:%d]: cutter %s (%v), narrow %s (%v)", design.ExprString(c), off, cw,
						design.ExprString(got), gc, design.ExprString(want), wc)
				}
			}
		}
	}
}

// Splitting an assignment of a concatenation of 64K parts took minutes
// when every cut scanned every part: the time must grow in proportion to
// the parts, 8 times the parts about 8 times the CPU time (64 times when
// every cut scanned every part), the two sizes measured back to back so
// that a loaded machine slows both alike.
func TestSplitLargeConcat(t *testing.T) {
	concat := func(n int) *design.Design {
		var items []string
		for i := 0; i < n; i++ {
			items = append(items, []string{"a", "b"}[i%2])
		}
		return elabSV(t, fmt.Sprintf(`module t(input logic a, b, output logic [%d:0] y);
  assign y = {%s};
endmodule`, n-1, strings.Join(items, ", ")))
	}
	small, large := concat(1<<13), concat(1<<16)
	analyze := func(d *design.Design) func() {
		return func() {
			if _, err := Analyze(d, Options{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	cSmall, cLarge := bound.CPUPerRun(analyze(small)), bound.CPUPerRun(analyze(large))
	ratio := float64(cLarge) / float64(max(cSmall, time.Microsecond))
	t.Logf("8192 parts: %v of CPU, 65536 parts: %v (%.1fx)", cSmall, cLarge, ratio)
	if ratio > 30 {
		t.Errorf("65536 parts take %.1f times the CPU time of 8192 (%v, %v): not linear", ratio, cLarge, cSmall)
	}
}
