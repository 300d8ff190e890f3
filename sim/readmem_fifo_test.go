//go:build linux || darwin

package sim_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/sim"
)

// Elaboration refuses a $readmem file that is not a regular file; the
// simulator checks again when it reads, since the file may have been
// replaced in between (here: by a FIFO, whose open would block forever).
func TestReadmemFIFOAtRunTime(t *testing.T) {
	hex := filepath.Join(t.TempDir(), "m.hex")
	if err := os.WriteFile(hex, []byte("01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := compile.NewBuilder().Source("t.sv", readmemDesign(hex)).Backend(compile.BackendInterp).Build()
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if err := os.Remove(hex); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(hex, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		s, err := sim.New(p.Program, sim.Options{})
		if err == nil {
			s.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		want := "t.sv:4:5: $readmemh file " + hex + " is not a regular file (a FIFO); weft reads only regular files"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant it to hold %s", err, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the simulator blocked opening a FIFO")
	}
}
