package sir_test

import (
	"os"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

func mustParse(t testing.TB, text string) *sir.Unit {
	t.Helper()
	u, err := sir.Parse(text)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	return u
}

func TestPrintParseRoundTrip(t *testing.T) {
	text, err := os.ReadFile("testdata/all_ops.sir")
	if err != nil {
		t.Fatal(err)
	}
	u := mustParse(t, string(text))
	if err := sir.Check(u); err != nil {
		t.Fatal(err)
	}
	if got := u.String(); got != string(text) {
		t.Errorf("round trip differs:\n--- got\n%s--- want\n%s", got, text)
	}
	// Every op appears in the sample.
	seen := map[sir.Op]bool{}
	for _, b := range u.Blocks {
		for _, in := range b.Insts {
			seen[in.Op] = true
		}
	}
	for op := sir.Op(1); op.Valid(); op++ {
		if !seen[op] {
			t.Errorf("testdata/all_ops.sir lacks %s", op)
		}
	}
	// Clone is deep and prints the same.
	c := u.Clone()
	c.Blocks[0].Insts[len(c.Blocks[0].Insts)-2].Ev.Args[0].Words[0] = 2
	if u.String() != string(text) || c.String() == u.String() {
		t.Error("Clone shares event arguments")
	}
}

func TestParseAcceptsComments(t *testing.T) {
	u := mustParse(t, `
; leading comment
unit weird_name   // ident name
entry:
  r1:8 = const 0x10 ; sixteen
  r2:1 = eq r1, r1
  branch r2, done, entry
done:
  ret 17
`)
	if err := sir.Check(u); err != nil {
		t.Fatal(err)
	}
	want := "unit \"weird_name\"\nb0:\n  r1:8 = const 0x10\n  r2:1 = eq r1, r1\n  branch r2, b1, b0\nb1:\n  ret 17\n"
	if got := u.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"", "no unit header"},
		{"b0:\n", "want unit header"},
		{"unit x\n  ret ok\n", "outside a block"},
		{"unit x\nb0:\n  r1:8 = frob r2\n", "unknown opcode"},
		{"unit x\nb0:\n  r1:65 = const 0\n", "outside 1..64"},
		{"unit x\nb0:\n  r1:8 = const 0\n  r1:9 = const 0\n", "earlier 8"},
		{"unit x\nb0:\n  r1:8 = copy r2\n  ret ok\n", "r2 is read but never assigned"},
		{"unit x\nb0:\n  jump nowhere\n", "unknown block"},
		{"unit x\nb0:\n  ret ok\n  ret ok\n", "after the block's terminator"},
		{"unit x\nb0:\nb0:\n", "defined twice"},
		{"unit x\nb0:\n  r1:8 = load.3 h0+0\n  r2:8 = add.1 r1, r1\n", "only load and store"},
		{"unit x\nb0:\n  store.1 h0+0\n", "unexpected end of line"},
		{"unit x\nb0:\n  r1:8 = const 0x1ffffffffffffffff\n", "bad number"},
		{"unit x\nb0:\n  ret bogus\n", "unknown status"},
		{"unit x\nb0:\n  event shout fmt=0 level=0 ()\n", "unknown event kind"},
		{"unit \"x\nb0:\n", "unterminated string"},
		{"unit x\nb0:\n  r1:8 = const 1 $\n", "unexpected character"},
		{"unit x\nb0:\n  r99999999:8 = const 1\n", "bad register"},
	}
	for _, c := range cases {
		_, err := sir.Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", c.text, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	if text, err := os.ReadFile("testdata/all_ops.sir"); err == nil {
		f.Add(string(text))
	}
	f.Add("unit x\nb0:\n  r1:8 = load.1 h0+0[r1*1<4]\n  ret ok\n")
	f.Add("unit x\nb0:\n  r1:1 = const 1\n  branch r1, b0, b1\nb1:\n  ret finish\n")
	f.Add("unit x\nb0:\n  event display fmt=1 level=2 ({r1, r2}:s70)\n  ret 3\n")
	f.Fuzz(func(t *testing.T, text string) {
		u, err := sir.Parse(text)
		if err != nil {
			return
		}
		s := u.String()
		_ = sir.Effects(u, &sir.MapLayout{})
		if sir.Check(u) != nil {
			return
		}
		u2, err := sir.Parse(s)
		if err != nil {
			t.Fatalf("printed unit does not parse: %v\n%s", err, s)
		}
		if s2 := u2.String(); s2 != s {
			t.Fatalf("print/parse not stable:\n%s\n---\n%s", s, s2)
		}
	})
}
