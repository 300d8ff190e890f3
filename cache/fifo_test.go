//go:build unix

package cache

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestCacheCorruptNotRegular(t *testing.T) {
	c, k, _, _ := storeOne(t)
	if err := os.Remove(c.path(k)); err != nil {
		t.Fatal(err)
	}
	// A FIFO at the entry's path must not make Get wait for a writer.
	if err := syscall.Mkfifo(c.path(k), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	_, err := c.Get(k)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("Get of a FIFO: %v", err)
	}
	// Not ours to remove, but Put replaces it.
	if err := c.Put(k, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Get(k); err != nil || string(got) != "x" {
		t.Fatalf("Get after Put over a FIFO: %q, %v", got, err)
	}
}
