package kernels

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Random expressions over random-width signed and unsigned inputs (1..130
// bits), lowered and run through the interpreter, compared with
// design.Machine on every home.

type exprGen struct {
	r      *rand.Rand
	inputs []string
	widths []int
}

func (g *exprGen) leaf() string {
	i := g.r.Intn(len(g.inputs))
	switch g.r.Intn(6) {
	case 0:
		w := 1 + g.r.Intn(70)
		return fmt.Sprintf("%d'h%x", w, g.r.Uint64()&(1<<uint(min(w, 63))-1))
	case 1:
		// part select with a constant or dynamic offset
		w := g.widths[i]
		k := 1 + g.r.Intn(w)
		if g.r.Intn(2) == 0 {
			return fmt.Sprintf("%s[%d +: %d]", g.inputs[i], g.r.Intn(w-k+1), k)
		}
		j := g.r.Intn(len(g.inputs))
		if g.widths[j] < 3 {
			return fmt.Sprintf("%s[%s +: %d]", g.inputs[i], g.inputs[j], k)
		}
		return fmt.Sprintf("%s[%s[2:0] +: %d]", g.inputs[i], g.inputs[j], k)
	}
	return g.inputs[i]
}

func (g *exprGen) expr(depth int) string {
	if depth == 0 || g.r.Intn(5) == 0 {
		return g.leaf()
	}
	a := func() string { return g.expr(depth - 1) }
	switch g.r.Intn(14) {
	case 0, 1, 2:
		ops := []string{"+", "-", "*", "/", "%", "&", "|", "^", "~^", "<<", ">>", ">>>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}
		return fmt.Sprintf("(%s %s %s)", a(), ops[g.r.Intn(len(ops))], a())
	case 3:
		ops := []string{"-", "~", "!", "&", "|", "^", "~&", "~|", "~^"}
		return fmt.Sprintf("(%s%s)", ops[g.r.Intn(len(ops))], a())
	case 4:
		return fmt.Sprintf("(%s ? %s : %s)", a(), a(), a())
	case 5:
		return fmt.Sprintf("{%s, %s}", a(), a())
	case 6:
		return fmt.Sprintf("{%d{%s}}", 1+g.r.Intn(3), a())
	case 7:
		return fmt.Sprintf("$signed(%s)", a())
	case 8:
		return fmt.Sprintf("$unsigned(%s)", a())
	case 9:
		return fmt.Sprintf("(%s ** %d)", a(), g.r.Intn(5))
	case 10:
		return fmt.Sprintf("$countones(%s)", a())
	case 11:
		return fmt.Sprintf("(%s %s %d)", a(), []string{"<<", ">>", ">>>"}[g.r.Intn(3)], g.r.Intn(140))
	}
	return g.leaf()
}

func randomModule(r *rand.Rand) string {
	g := &exprGen{r: r}
	var b strings.Builder
	b.WriteString("module rnd(\n")
	n := 2 + r.Intn(3)
	for i := 0; i < n; i++ {
		w := []int{1, 3, 8, 16, 31, 32, 33, 63, 64, 65, 100, 128, 130}[r.Intn(13)]
		sgn := ""
		if r.Intn(2) == 0 {
			sgn = "signed "
		}
		name := fmt.Sprintf("i%d", i)
		g.inputs = append(g.inputs, name)
		g.widths = append(g.widths, w)
		fmt.Fprintf(&b, "  input logic %s[%d:0] %s,\n", sgn, w-1, name)
	}
	outs := 6
	for k := 0; k < outs; k++ {
		w := []int{1, 7, 32, 64, 65, 129}[r.Intn(6)]
		sep := ","
		if k == outs-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  output logic [%d:0] o%d%s\n", w-1, k, sep)
	}
	b.WriteString(");\n")
	for k := 0; k < outs; k++ {
		fmt.Fprintf(&b, "  assign o%d = %s;\n", k, g.expr(4))
	}
	b.WriteString("endmodule\n")
	return b.String()
}

func TestRandomExpressions(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	for seed := 0; seed < n; seed++ {
		src := randomModule(rand.New(rand.NewSource(int64(seed))))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("source:\n%s", src)
				}
			}()
			runDiff(t, diffCase{name: "rnd", top: "rnd", srcs: []string{src}, cycles: 12, seed: int64(seed), noIcarus: true})
		})
	}
}
