package hdl

import (
	"os"
	"strings"
	"testing"
)

func TestLoadIncludesAndDefines(t *testing.T) {
	files := map[string]string{
		"inc/defs.svh": "`define W 4\ntypedef logic [`W-1:0] nib_t;\n",
	}
	opts := PreprocessOptions{
		IncludeDirs: []string{"inc"},
		Defines:     map[string]string{"USE_B": ""},
		ReadFile: func(path string) ([]byte, error) {
			if s, ok := files[path]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		},
	}
	src := "`include \"defs.svh\"\nmodule m;\n`ifdef USE_B\n  nib_t b;\n`else\n  nib_t a;\n`endif\nendmodule\n"
	diags := NewDiagnostics(nil)
	st := Load(nil, []Input{{Name: "top.sv", Src: []byte(src)}}, opts, diags)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	got := flatDump(st)
	want := "(source (typedef nib_t (logic [(- 4 1):0])) (module m (var nib_t b)))"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if p := st.Items[0].Position(); p.File != "inc/defs.svh" || p.Line != 2 {
		t.Errorf("typedef at %v, want inc/defs.svh:2", p)
	}
}

func TestParseStringHasNoIncludes(t *testing.T) {
	st, fs, err := ParseString("a.sv", "`include \"x.svh\"\nmodule m; endmodule\n")
	if err == nil || !strings.Contains(err.Error(), "x.svh") {
		t.Errorf("want an include error, got %v", err)
	}
	if st == nil || fs == nil || len(st.Modules) != 1 {
		t.Errorf("ParseString must still return the tree and file set")
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "  \n// only a comment\n", "/* c */"} {
		st, _, err := ParseString("e.sv", src)
		if err != nil || st == nil || len(st.Modules) != 0 {
			t.Errorf("%q: %v", src, err)
		}
	}
}
