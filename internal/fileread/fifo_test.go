//go:build linux || darwin

package fileread

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO without a writer blocks a plain open forever; Read must refuse it
// at once.
func TestReadRefusesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.hex")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Read(path, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		var nr *NotRegularError
		if !errors.As(err, &nr) || Kind(nr.Mode) != "a FIFO" {
			t.Errorf("err = %v, want a *NotRegularError for a FIFO", err)
		}
	case <-time.After(5 * time.Minute): // a hang guard, not a measure
		t.Fatal("Read blocked on a FIFO")
	}
}
