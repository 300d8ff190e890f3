package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// storeOne puts one small entry and returns the cache, the key, the payload
// and the entry file's bytes.
func storeOne(t *testing.T) (*Cache, Key, []byte, []byte) {
	t.Helper()
	c := open(t, 0)
	k := key("victim")
	payload := []byte("a small compiled image \x00\x01\xff")
	if err := c.Put(k, payload); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(c.path(k))
	if err != nil {
		t.Fatal(err)
	}
	if len(good) != headerSize+len(payload) {
		t.Fatalf("entry file has %d bytes, want %d", len(good), headerSize+len(payload))
	}
	return c, k, payload, good
}

// wantCorrupt checks that Get reports the file as corrupt, names it, and
// removed it.
func wantCorrupt(t *testing.T, c *Cache, k Key, what string) {
	t.Helper()
	got, err := c.Get(k)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%s: Get = %d bytes, %v; want ErrCorrupt", what, len(got), err)
	}
	if got != nil {
		t.Fatalf("%s: Get returned %d bytes with its error", what, len(got))
	}
	if !strings.Contains(err.Error(), c.path(k)) {
		t.Fatalf("%s: the error does not name the file: %v", what, err)
	}
	if _, err := c.Get(k); !errors.Is(err, ErrMiss) {
		t.Fatalf("%s: the damaged entry was not removed: next Get: %v", what, err)
	}
}

func TestCacheCorruptBitFlips(t *testing.T) {
	c, k, _, good := storeOne(t)
	for off := range good {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(good)
			bad[off] ^= mask
			if err := os.WriteFile(c.path(k), bad, 0o644); err != nil {
				t.Fatal(err)
			}
			wantCorrupt(t, c, k, "flip at "+strconv.Itoa(off))
		}
	}
}

func TestCacheCorruptTruncations(t *testing.T) {
	c, k, _, good := storeOne(t)
	for n := range len(good) {
		if err := os.WriteFile(c.path(k), good[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		wantCorrupt(t, c, k, "truncated to "+strconv.Itoa(n))
	}
	// A longer file, however its length field is patched, is damaged too.
	if err := os.WriteFile(c.path(k), append(bytes.Clone(good), 'x'), 0o644); err != nil {
		t.Fatal(err)
	}
	wantCorrupt(t, c, k, "one byte appended")
}

func TestCacheCorruptForeignFiles(t *testing.T) {
	c, k, _, good := storeOne(t)
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	huge := bytes.Clone(good)
	binary.BigEndian.PutUint64(huge[len(frameMagic)+1:], 1<<62)
	maxLen := bytes.Clone(good)
	binary.BigEndian.PutUint64(maxLen[len(frameMagic)+1:], ^uint64(0))
	for what, data := range map[string][]byte{
		"empty file":             {},
		"random bytes":           random,
		"text":                   []byte("these are my notes\n"),
		"header only, no length": good[:len(frameMagic)+1],
		"length 2^62":            huge,
		"length 2^64-1":          maxLen,
	} {
		if err := os.WriteFile(c.path(k), data, 0o644); err != nil {
			t.Fatal(err)
		}
		wantCorrupt(t, c, k, what)
	}
}

func TestCacheCorruptOverBound(t *testing.T) {
	// Lowering the bound makes an entry larger than it unusable; Get says
	// why rather than allocating it.
	c, k, _, good := storeOne(t)
	small, err := Open(c.Dir(), Options{MaxBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.path(k), good, 0o644); err != nil {
		t.Fatal(err)
	}
	wantCorrupt(t, small, k, "entry over the bound")
}
