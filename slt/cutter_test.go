package slt

import (
	"fmt"
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
// when every cut scanned every part.
func TestSplitLargeConcat(t *testing.T) {
	var items []string
	for i := 0; i < 1<<16; i++ {
		items = append(items, []string{"a", "b"}[i%2])
	}
	d := elabSV(t, fmt.Sprintf(`module t(input logic a, b, output logic [65535:0] y);
  assign y = {%s};
endmodule`, strings.Join(items, ", ")))
	start := time.Now()
	if _, err := Analyze(d, Options{}); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v", el)
	}
}
