package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/cache"
)

// weftCache runs `weft cache ARGS...`.
func weftCache(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = cacheMain(args, &o, &e)
	return code, o.String(), e.String()
}

func TestCacheInfoAndClear(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("WEFT_CACHE", dir)
	t.Setenv("WEFT_CACHE_MAX", "64M")

	code, out, errs := weftCache("info")
	if code != 0 || errs != "" {
		t.Fatalf("info of an empty cache: exit %d stderr %q", code, errs)
	}
	for _, want := range []string{"dir:     " + dir, "entries: 0", "size:    0 B (0 bytes)", "max:     64.0 MiB (67108864 bytes, WEFT_CACHE_MAX)"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}

	c, err := cache.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if err := c.Put(cache.NewKey().AddString("name", name).Sum(), make([]byte, 3000)); err != nil {
			t.Fatal(err)
		}
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = weftCache("info")
	if code != 0 || !strings.Contains(out, "entries: 2\n") || !strings.Contains(out, "size:    6.0 KiB (6104 bytes)") || !strings.Contains(out, "used:") {
		t.Errorf("info of two entries: exit %d:\n%s", code, out)
	}

	code, out, errs = weftCache("clear")
	if code != 0 || out != "removed 2 entries from "+dir+"\n" || errs != "" {
		t.Errorf("clear: exit %d stdout %q stderr %q", code, out, errs)
	}
	if _, err := os.Stat(notes); err != nil {
		t.Errorf("clear removed a file that is not the cache's: %v", err)
	}
	if _, out, _ := weftCache("info"); !strings.Contains(out, "entries: 0") {
		t.Errorf("info after clear:\n%s", out)
	}
}

func TestCacheDisabled(t *testing.T) {
	t.Setenv("WEFT_CACHE", "off")
	for _, verb := range []string{"info", "clear"} {
		code, out, errs := weftCache(verb)
		if code != 0 || out != "cache: disabled (WEFT_CACHE=off)\n" || errs != "" {
			t.Errorf("%s with WEFT_CACHE=off: exit %d stdout %q stderr %q", verb, code, out, errs)
		}
	}
}

func TestCacheUsage(t *testing.T) {
	t.Setenv("WEFT_CACHE", t.TempDir())
	for _, args := range [][]string{{"-h"}, {"info", "-h"}} {
		code, _, errs := weftCache(args...)
		if code != 0 || !strings.Contains(errs, "WEFT_CACHE ") || !strings.Contains(errs, "WEFT_CACHE_MAX") {
			t.Errorf("weft cache %q: exit %d, help:\n%s", args, code, errs)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"purge"}, `unknown command "purge"`},
		{[]string{"info", "extra"}, `unexpected argument "extra"`},
		{[]string{"--bogus"}, "flag provided but not defined"},
	} {
		code, out, errs := weftCache(tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("weft cache %q: exit %d stdout %q stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}

	t.Setenv("WEFT_CACHE_MAX", "lots")
	code, _, errs := weftCache("info")
	if code != 1 || !strings.Contains(errs, `WEFT_CACHE_MAX="lots"`) {
		t.Errorf("bad WEFT_CACHE_MAX: exit %d stderr %q", code, errs)
	}
}

func TestCacheHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB",
		1 << 30: "1.0 GiB", 1<<62 + 1<<61: "6.0 EiB",
	} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
