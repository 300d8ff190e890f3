package sir_test

import (
	"testing"

	"github.com/weft-hdl/weft/sir"
)

func TestDominators(t *testing.T) {
	// b0 -> b1 | b2; b1 -> b3; b2 -> b3 | b4 (loop back to b2 via b4);
	// b4 -> b2; b3 -> ret; b5 unreachable.
	u, err := sir.Parse(`unit x
b0:
  r1:1 = const 1
  branch r1, b1, b2
b1:
  jump b3
b2:
  branch r1, b3, b4
b3:
  ret ok
b4:
  jump b2
b5:
  jump b3
`)
	if err != nil {
		t.Fatal(err)
	}
	d := u.Dominators()
	wantIdom := []sir.BlockID{0, 0, 0, 0, 2, -1}
	for b, w := range wantIdom {
		if d.Idom[b] != w {
			t.Errorf("idom(b%d) = %d, want %d", b, d.Idom[b], w)
		}
	}
	cases := []struct {
		a, b sir.BlockID
		want bool
	}{
		{0, 3, true}, {0, 4, true}, {2, 4, true}, {4, 4, true},
		{1, 3, false}, {2, 3, false}, {4, 2, false}, {3, 0, false},
		{5, 3, false}, {0, 5, false},
	}
	for _, c := range cases {
		if got := d.Dominates(c.a, c.b); got != c.want {
			t.Errorf("Dominates(b%d, b%d) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestSplice(t *testing.T) {
	src, err := sir.Parse(`unit src
b0:
  r1:8 = load.1 h0+0
  r2:1 = const 1
  branch r2, b1, b2
b1:
  store.1 h1+0, r1
  ret ok
b2:
  ret finish
`)
	if err != nil {
		t.Fatal(err)
	}
	b := sir.NewBuilder("dst")
	x := b.Const(8, 7)
	u := b.U
	entry, exits := u.Splice(src, func(s sir.Status) bool { return s == sir.StatusOK })
	b.Jump(entry)
	for _, e := range exits {
		b.SetBlock(e.Block)
		b.Store(1, sir.Addr{Home: 2}, x)
		b.Return(sir.StatusStop)
	}
	if err := sir.Check(u); err != nil {
		t.Fatalf("%v\n%s", err, u)
	}
	want := `unit "dst"
b0:
  r1:8 = const 7
  jump b1
b1:
  r2:8 = load.1 h0+0
  r3:1 = const 1
  branch r3, b2, b3
b2:
  store.1 h1+0, r2
  store.1 h2+0, r1
  ret stop
b3:
  ret finish
`
	if got := u.String(); got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
	if len(exits) != 1 || exits[0].Status != sir.StatusOK {
		t.Fatalf("exits %+v, want the one ok return", exits)
	}
}
