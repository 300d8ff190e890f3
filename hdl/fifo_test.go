//go:build linux || darwin

package hdl

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO named as an input or an include must be refused at once: opening
// one that has no writer would block forever, and one that has a writer
// can stream without end.
func TestFIFOInputsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.svh")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, tc := range []struct {
		in   Input
		want string
	}{
		{Input{Name: fifo}, fifo + ": error: not a regular file (a FIFO); weft reads only regular files"},
		{Input{Name: filepath.Join(dir, "top.sv"), Src: []byte("module t;\n`include \"pipe.svh\"\nendmodule\n")},
			filepath.Join(dir, "top.sv") + ":2:1: error: include file " + fifo + " is not a regular file (a FIFO); weft reads only regular files"},
	} {
		done := make(chan error, 1)
		go func() {
			fs := NewFileSet()
			diags := NewDiagnostics(fs)
			Load(fs, []Input{tc.in}, PreprocessOptions{}, diags)
			done <- diags.Err()
		}()
		select {
		case err := <-done:
			if err == nil || strings.SplitN(err.Error(), "\n", 2)[0] != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		case <-time.After(5 * time.Minute): // a hang guard, not a measure
			t.Fatalf("%s: reading a FIFO blocked", tc.in.Name)
		}
	}
}
