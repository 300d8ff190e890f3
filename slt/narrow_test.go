package slt

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/design"
)

// narrow(e, off, w) must equal bits off..off+w-1 of e for every shape it
// rewrites, and be well typed.
func TestNarrowMatchesSlice(t *testing.T) {
	exprs := []struct {
		src   string
		cheap bool // every slice is cheap
	}{
		{"{a, b}", true},
		{"{a, 3'b101, b[2:0]}", true},
		{"{2{a}}", true},
		{"{3{a ^ b}}", false},
		{"~{a, b}", true},
		{"{a, b} & {b, a}", true},
		{"{a, b} | ~{b, a}", true},
		{"{a, b} ~^ {b, a}", true},
		{"s ? {a, b} : {b, a}", true},
		{"(s & a[0]) ? {a, b} : {b, a}", false},
		{"sa", true},       // sign-extended to 12 bits
		{"{sa, sa}", true}, // self-determined signed parts
		{"$signed({a[1:0], b[1:0]}) + $signed(a)", false},
		{"{4'b0, a} << 2", true},
		{"{a, b} >> 3", true},
		{"{a, b} << 9", true},
		{"{a, b} << 12", true},
		{"a + b", false},
		{"m[i]", true},
		{"{m[i], m[1]}", true},
		{"{a, b}[6:1]", true},
		{"v[i +: 4]", true},
		{"12'hA5C", true},
		{"{a, b} >>> 2", false},
	}
	for _, tc := range exprs {
		src := fmt.Sprintf(`module t(input logic [3:0] a, b, input logic s, input logic signed [3:0] sa, input logic [1:0] i, input logic [15:0] v, output logic [11:0] y);
  logic [3:0] m [0:3];
  assign m[0] = a; assign m[1] = b; assign m[2] = a ^ b; assign m[3] = ~a;
  assign y = %s;
endmodule`, tc.src)
		d := elabSV(t, src)
		yh := homeOf(t, d, "y")
		var e design.Expr
		for _, p := range d.Comb {
			design.WalkStmt(p.Body, func(st design.Stmt) bool {
				if a, ok := st.(*design.Assign); ok {
					if r, ok := a.LHS.(*design.HomeRef); ok && r.Home == yh {
						e = a.RHS
					}
				}
				return true
			})
		}
		if e == nil || e.Type().Width != 12 {
			t.Fatalf("%s: no 12-bit rhs", tc.src)
		}
		var procs []*design.Process
		type cut struct {
			off, w int
			n      design.Expr
		}
		var cuts []cut
		for off := 0; off < 12; off++ {
			for w := 1; off+w <= 12; w++ {
				n, cheap := narrow(e, off, w)
				if n.Type().Width != w {
					t.Fatalf("%s [%d+:%d]: width %d", tc.src, off, w, n.Type().Width)
				}
				if tc.cheap && !cheap {
					t.Errorf("%s [%d+:%d]: not cheap: %s", tc.src, off, w, design.ExprString(n))
				}
				lhs := &design.Slice{X: &design.HomeRef{Home: yh}, Lsb: u32(off), T: unsignedT(w)}
				procs = append(procs, &design.Process{ID: len(procs), Name: fmt.Sprintf("cut%d", len(procs)), Body: &design.Assign{LHS: lhs, RHS: n}})
				cuts = append(cuts, cut{off, w, n})
			}
		}
		for _, err := range design.Check(&design.Design{Homes: d.Homes, Comb: procs}) {
			t.Fatalf("%s: %v", tc.src, err)
		}
		r := rand.New(rand.NewSource(1))
		for k := 0; k < 20; k++ {
			m := machine(d, r)
			for _, p := range d.Comb[:4] { // the m[] assigns
				if err := m.Run(p.Body); err != nil {
					t.Fatal(err)
				}
			}
			full, err := m.Eval(e)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cuts {
				got, err := m.Eval(c.n)
				if err != nil {
					t.Fatalf("%s: %v", design.ExprString(c.n), err)
				}
				want := design.Mask(new(big.Int).Rsh(full, uint(c.off)), c.w)
				if got.Cmp(want) != 0 {
					t.Fatalf("%s [%d+:%d] = %s: got %x, want %x", tc.src, c.off, c.w, design.ExprString(c.n), got, want)
				}
			}
		}
	}
}
