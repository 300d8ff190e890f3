package cache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func open(t *testing.T, max int64) *Cache {
	t.Helper()
	c, err := Open(t.TempDir(), Options{MaxBytes: max})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func key(s string) Key { return NewKey().AddString("name", s).Sum() }

func TestCacheRoundTrip(t *testing.T) {
	c := open(t, 0)
	if c.MaxBytes() != DefaultMaxBytes {
		t.Errorf("MaxBytes %d, want the default %d", c.MaxBytes(), DefaultMaxBytes)
	}
	k := key("a")
	if _, err := c.Get(k); !errors.Is(err, ErrMiss) {
		t.Fatalf("Get of an absent key: %v, want ErrMiss", err)
	}
	for _, payload := range [][]byte{[]byte("hello, image"), {}, bytes.Repeat([]byte{0, 1, 2}, 10000)} {
		if err := c.Put(k, payload); err != nil {
			t.Fatal(err)
		}
		got, err := c.Get(k)
		if err != nil || !bytes.Equal(got, payload) {
			t.Fatalf("Get after Put of %d bytes: %d bytes, %v", len(payload), len(got), err)
		}
	}
	if _, err := c.Get(key("b")); !errors.Is(err, ErrMiss) {
		t.Fatalf("Get of another key: %v, want ErrMiss", err)
	}
	want := filepath.Join(c.Dir(), k.String()[:2], k.String()+".wimg")
	if _, err := os.Stat(want); err != nil {
		t.Errorf("entry not at %s: %v", want, err)
	}
}

func TestCacheKeyBuilder(t *testing.T) {
	split1 := NewKey().Add("ab", []byte("c")).Sum()
	split2 := NewKey().Add("a", []byte("bc")).Sum()
	if split1 == split2 {
		t.Error(`"ab"+"c" and "a"+"bc" give the same key`)
	}
	one := NewKey().AddString("a", "bc").Sum()
	two := NewKey().AddString("a", "b").AddString("", "c").Sum()
	if one == two {
		t.Error("one field and two fields give the same key")
	}
	if NewKey().AddUint64("n", 5).Sum() == NewKey().Add("n", []byte{0, 0, 0, 0, 0, 0, 0, 5}).Sum() {
		t.Error("a number and its bytes give the same key")
	}
	if NewKey().AddString("top", "t").Sum() != NewKey().Add("top", []byte("t")).Sum() {
		t.Error("AddString differs from Add")
	}
	var zero KeyBuilder
	if zero.AddString("top", "t").Sum() != NewKey().AddString("top", "t").Sum() {
		t.Error("the zero KeyBuilder differs from NewKey")
	}
	k := NewKey().AddString("top", "t").Sum()
	if s := k.String(); len(s) != 64 || strings.Trim(s, "0123456789abcdef") != "" {
		t.Errorf("Key.String() = %q, want 64 lowercase hex digits", s)
	}
	b := NewKey().AddString("x", "1")
	if b.Sum() != b.Sum() {
		t.Error("Sum changed the builder")
	}
}

// age sets a file's modification time to d ago.
func age(t *testing.T, path string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func TestCacheTrimLRU(t *testing.T) {
	payload := make([]byte, 1000)
	entry := int64(headerSize + len(payload))
	c := open(t, 3*entry) // room for three entries
	for i, name := range []string{"a", "b", "c"} {
		if err := c.Put(key(name), payload); err != nil {
			t.Fatal(err)
		}
		// a is oldest, then b, then c: set, not left to the clock's
		// resolution.
		age(t, c.path(key(name)), time.Duration(3-i)*time.Hour)
	}
	if _, err := c.Get(key("a")); err != nil { // a is now the most recent
		t.Fatal(err)
	}
	if err := c.Put(key("d"), payload); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(key("e"), payload); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"a": true, "b": false, "c": false, "d": true, "e": true} {
		_, err := c.Get(key(name))
		if got := err == nil; got != want {
			t.Errorf("entry %s present %v, want %v (%v)", name, got, want, err)
		}
	}
	s, err := c.Info()
	if err != nil {
		t.Fatal(err)
	}
	if s.Entries != 3 || s.Bytes != 3*entry {
		t.Errorf("after trimming: %d entries, %d bytes; want 3, %d", s.Entries, s.Bytes, 3*entry)
	}

	// An entry that cannot fit by itself is refused, and nothing is lost.
	if err := c.Put(key("big"), make([]byte, 3*entry)); err == nil || !strings.Contains(err.Error(), "exceed") {
		t.Errorf("Put over the bound: %v", err)
	}
	if s2, _ := c.Info(); s2.Entries != 3 || s2.Temps != 0 {
		t.Errorf("a refused Put left %d entries, %d temporary files", s2.Entries, s2.Temps)
	}
}

func TestCacheTrimStaleTemps(t *testing.T) {
	// A small bound: a process trims after every sixteenth of it stored,
	// so here after every Put.
	c := open(t, 800)
	k := key("a")
	if err := c.Put(k, []byte("x")); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Dir(c.path(k))
	stale := filepath.Join(sub, ".tmp-111.wimg")
	fresh := filepath.Join(sub, ".tmp-222.wimg")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	age(t, stale, time.Hour)
	if err := c.Put(key("b"), []byte("y")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a crashed writer's temporary file survived a Put: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a live writer's temporary file was removed: %v", err)
	}
	s, err := c.Info()
	if err != nil || s.Temps != 1 || s.Entries != 2 {
		t.Errorf("Info: %+v, %v; want 2 entries, 1 temporary file", s, err)
	}
}

func TestCacheClearKeepsForeignFiles(t *testing.T) {
	c := open(t, 0)
	for _, name := range []string{"a", "b", "c"} {
		if err := c.Put(key(name), []byte(name)); err != nil {
			t.Fatal(err)
		}
	}
	ka := key("a").String()
	foreign := []string{
		filepath.Join(c.Dir(), "notes.txt"),
		filepath.Join(c.Dir(), ka[:2], "notes.txt"),
		filepath.Join(c.Dir(), ka+".wimg"),                        // an entry's name, but not in its subdirectory
		filepath.Join(c.Dir(), "zz", "x.wimg"),                    // not a two-hex-digit subdirectory
		filepath.Join(c.Dir(), "AB", strings.ToUpper(ka)+".wimg"), // upper case is not ours
	}
	for _, p := range foreign {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, err := c.Clear()
	if err != nil || n != 3 {
		t.Fatalf("Clear: %d, %v; want 3 removed", n, err)
	}
	for _, p := range foreign {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("Clear removed a foreign file: %v", err)
		}
	}
	ents, err := os.ReadDir(c.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	// Only the subdirectory holding a foreign file remains, besides the
	// foreign ones.
	want := []string{"AB", ka[:2], ka + ".wimg", "notes.txt", "zz"}
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("after Clear the directory holds %q, want %q", left, want)
	}
	s, err := c.Info()
	if err != nil || s.Entries != 0 || s.Bytes != 0 {
		t.Errorf("Info after Clear: %+v, %v", s, err)
	}
	if _, err := c.Get(key("a")); !errors.Is(err, ErrMiss) {
		t.Errorf("Get after Clear: %v, want ErrMiss", err)
	}
	// The cache still works afterwards.
	if err := c.Put(key("a"), []byte("again")); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Get(key("a")); err != nil || string(got) != "again" {
		t.Errorf("Get after Clear and Put: %q, %v", got, err)
	}
}

func TestCacheInfo(t *testing.T) {
	c, err := Open(filepath.Join(t.TempDir(), "not", "yet"), Options{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Info()
	if err != nil || s.Entries != 0 || s.MaxBytes != 1<<20 || !s.Oldest.IsZero() {
		t.Fatalf("Info of a cache not yet created: %+v, %v", s, err)
	}
	if _, err := os.Stat(c.Dir()); !os.IsNotExist(err) {
		t.Errorf("Open or Info created the directory: %v", err)
	}
	if err := c.Put(key("a"), []byte("12345")); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(key("b"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	age(t, c.path(key("a")), time.Hour)
	s, err = c.Info()
	if err != nil {
		t.Fatal(err)
	}
	if s.Dir != c.Dir() || s.Entries != 2 || s.Bytes != int64(2*headerSize+6) || s.Disabled {
		t.Errorf("Info: %+v", s)
	}
	if !s.Oldest.Before(s.Newest) || time.Since(s.Oldest) < 59*time.Minute {
		t.Errorf("Oldest %v, Newest %v", s.Oldest, s.Newest)
	}
}

func TestCacheOpenErrors(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(f, Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Open of a file: %v", err)
	}
	if _, err := Open("", Options{}); err == nil {
		t.Error("Open of an empty name succeeded")
	}
	if _, err := Open(t.TempDir(), Options{MaxBytes: -1}); err == nil {
		t.Error("Open with a negative bound succeeded")
	}
}

func TestCacheNilIsDisabled(t *testing.T) {
	var c *Cache
	if _, err := c.Get(key("a")); !errors.Is(err, ErrMiss) {
		t.Errorf("Get: %v", err)
	}
	if err := c.Put(key("a"), []byte("x")); err != nil {
		t.Errorf("Put: %v", err)
	}
	if s, err := c.Info(); err != nil || !s.Disabled {
		t.Errorf("Info: %+v, %v", s, err)
	}
	if n, err := c.Clear(); n != 0 || err != nil {
		t.Errorf("Clear: %d, %v", n, err)
	}
	if c.Dir() != "" || c.MaxBytes() != 0 {
		t.Errorf("Dir %q, MaxBytes %d", c.Dir(), c.MaxBytes())
	}
}

// TestCacheTrimsNotEveryPut: with a large bound a process does not list
// the directory at every Put (a crashed writer's file waits for the next
// trim).
func TestCacheTrimsNotEveryPut(t *testing.T) {
	c := open(t, 0)
	if err := c.Put(key("a"), []byte("x")); err != nil { // the first Put trims
		t.Fatal(err)
	}
	stale := filepath.Join(filepath.Dir(c.path(key("a"))), ".tmp-333.wimg")
	if err := os.WriteFile(stale, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	age(t, stale, time.Hour)
	if err := c.Put(key("b"), []byte("y")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("the second small Put trimmed: %v", err)
	}
}
