package cache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// helperEnv marks a child process started by TestCacheConcurrentProcesses and
// names its cache directory.
const helperEnv = "WEFT_CACHE_TEST_HELPER_DIR"

// sharedPayload is what every process stores: 1 MiB, the same in each, as
// a content-addressed entry would be.
func sharedPayload() []byte {
	p := make([]byte, 1<<20)
	for i := range p {
		p[i] = byte(i*31 + i>>11)
	}
	return p
}

// TestHelperProcess is the child of TestCacheConcurrentProcesses; run on its
// own it does nothing.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process for TestCacheConcurrentProcesses")
	}
	c, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	payload := sharedPayload()
	k := key("shared")
	for i := range 4 {
		if err := c.Put(k, payload); err != nil {
			t.Fatalf("round %d: Put: %v", i, err)
		}
		got, err := c.Get(k)
		if err != nil {
			t.Fatalf("round %d: Get: %v", i, err)
		}
		if !bytes.Equal(got, payload) {
			t.Fatalf("round %d: Get returned different bytes", i)
		}
	}
}

func TestCacheConcurrentProcesses(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("in a helper process")
	}
	dir := t.TempDir()
	// A hang guard, not a measure: the helpers take seconds even on a
	// loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"="+dir)
		wg.Go(func() {
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("process %d: %v\n%s", i, err, out)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}

	c, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := key("shared")
	files, err := os.ReadDir(filepath.Dir(c.path(k)))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name() != k.String()+".wimg" {
		var names []string
		for _, f := range files {
			names = append(names, f.Name())
		}
		t.Fatalf("the key's subdirectory holds %q, want exactly its entry", names)
	}
	s, err := c.Info()
	if err != nil || s.Entries != 1 || s.Temps != 0 {
		t.Fatalf("Info: %+v, %v; want one entry and no temporary files", s, err)
	}
	got, err := c.Get(k)
	if err != nil || !bytes.Equal(got, sharedPayload()) {
		t.Fatalf("Get after the processes: %d bytes, %v", len(got), err)
	}
}

func TestCacheConcurrentGoroutines(t *testing.T) {
	// A bound of about three entries keeps trimming busy while others read.
	payloadFor := func(k int) []byte { return bytes.Repeat([]byte{byte(k)}, 4096+k) }
	c := open(t, int64(3*(headerSize+4096+8)))
	const keys = 8
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			for i := range 40 {
				k := (g + i) % keys
				if (g+i)%3 == 0 {
					if err := c.Put(key(fmt.Sprint(k)), payloadFor(k)); err != nil {
						errs <- fmt.Errorf("goroutine %d: Put: %w", g, err)
						return
					}
					continue
				}
				got, err := c.Get(key(fmt.Sprint(k)))
				if errors.Is(err, ErrMiss) {
					continue
				}
				if err != nil {
					errs <- fmt.Errorf("goroutine %d: Get: %w", g, err)
					return
				}
				if !bytes.Equal(got, payloadFor(k)) {
					errs <- fmt.Errorf("goroutine %d: Get of key %d returned other bytes", g, k)
					return
				}
			}
		})
	}
	// Clear at the same time: it may empty the cache, never break it.
	wg.Go(func() {
		for range 5 {
			if _, err := c.Clear(); err != nil {
				errs <- fmt.Errorf("Clear: %w", err)
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s, err := c.Info()
	if err != nil || s.Bytes > c.MaxBytes() || s.Temps != 0 {
		t.Errorf("after the goroutines: %+v, %v", s, err)
	}
}

// TestPutDirectoryRemovedMeanwhile: a Put whose subdirectory another
// writer made and a Clear removed while MkdirAll was making it (MkdirAll
// then fails with "file exists", as it once did in CI) makes it again.
func TestPutDirectoryRemovedMeanwhile(t *testing.T) {
	c, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lost := 0
	defer func(f func(string, os.FileMode) error) { mkdirAll = f }(mkdirAll)
	mkdirAll = func(path string, perm os.FileMode) error {
		if lost < 2 {
			lost++
			return &os.PathError{Op: "mkdir", Path: path, Err: fs.ErrExist}
		}
		return os.MkdirAll(path, perm)
	}
	k := key("removed meanwhile")
	if err := c.Put(k, []byte("payload")); err != nil {
		t.Fatalf("Put: %v", err)
	}
	if got, err := c.Get(k); err != nil || string(got) != "payload" {
		t.Fatalf("Get: %q %v", got, err)
	}
}
