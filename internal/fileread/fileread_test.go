package fileread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.sv")
	text := strings.Repeat("module m; endmodule\n", 100)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{0, int64(len(text)), 1 << 20} {
		got, err := Read(path, limit)
		if err != nil || string(got) != text {
			t.Errorf("limit %d: %d bytes, %v; want the file", limit, len(got), err)
		}
	}
	_, err := Read(path, int64(len(text))-1)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Path != path || big.Limit != int64(len(text))-1 {
		t.Errorf("one byte over: err = %v, want a *TooLargeError", err)
	}
	if _, err := Read(filepath.Join(dir, "none.sv"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err = %v, want fs.ErrNotExist", err)
	}
}

func TestReadRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		path, kind string
	}{
		{dir, "a directory"},
		{"/dev/zero", "a character device"},
		{"/dev/null", "a character device"},
	}
	for _, tc := range cases {
		if _, err := os.Stat(tc.path); err != nil {
			t.Logf("%s: %v; skipped", tc.path, err)
			continue
		}
		_, err := Read(tc.path, 1<<20)
		var nr *NotRegularError
		if !errors.As(err, &nr) || Kind(nr.Mode) != tc.kind || nr.Path != tc.path {
			t.Errorf("%s: err = %v, want a *NotRegularError for %s", tc.path, err, tc.kind)
			continue
		}
		want := tc.path + " is not a regular file (" + tc.kind + "); weft reads only regular files"
		if err.Error() != want {
			t.Errorf("%s: message %q, want %q", tc.path, err, want)
		}
		if err := Check(tc.path); !errors.As(err, &nr) {
			t.Errorf("Check(%s) = %v, want a *NotRegularError", tc.path, err)
		}
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{64 << 20: "64 MiB", 1 << 20: "1 MiB", 1000: "1000 bytes", 3<<20 + 1: "3145729 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// Files under /proc are regular but report size 0: the read itself must
// stop at the limit, whatever stat said.
func TestReadStopsAtLimitWhateverStatSays(t *testing.T) {
	const path = "/proc/self/status"
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() != 0 {
		t.Skipf("%s: no size-0 regular file to test with", path)
	}
	all, err := Read(path, 1<<20)
	if err != nil || len(all) < 200 {
		t.Fatalf("Read: %d bytes, %v", len(all), err)
	}
	_, err = Read(path, 100)
	var big *TooLargeError
	if !errors.As(err, &big) {
		t.Errorf("limit 100: err = %v, want a *TooLargeError", err)
	}
}
