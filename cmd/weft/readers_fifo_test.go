//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO given as a source, named by `include or read by $readmemh is
// refused with its name (and the directive's position) instead of blocking
// on open or streaming forever.
func TestFIFOsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inc := write("inc.sv", "module top;\n  `include \"pipe\"\nendmodule\n")
	mem := write("mem.sv", "module top(input logic clk, output logic [7:0] q);\n  logic [7:0] m [0:3];\n  initial $readmemh(\"pipe\", m);\n  assign q = m[0];\nendmodule\n")
	const tail = " is not a regular file (a FIFO); weft reads only regular files"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lint", fifo}, fifo + ": error: not a regular file (a FIFO); weft reads only regular files"},
		{[]string{"lint", inc}, inc + ":2:3: error: include file " + fifo + tail},
		{[]string{"lint", mem}, mem + ":3:11: error: $readmemh file " + fifo + tail},
		{[]string{"run", "--cycles", "1", mem}, mem + ":3:11: error: $readmemh file " + fifo + tail},
	} {
		type result struct {
			code   int
			stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, _, stderr := weft(tc.args...)
			done <- result{code, stderr}
		}()
		select {
		case r := <-done:
			if r.code != 1 || firstError(r.stderr) != tc.want {
				t.Errorf("weft %v: exit %d\n got: %s\nwant: %s", tc.args, r.code, firstError(r.stderr), tc.want)
			}
		case <-time.After(5 * time.Minute): // a hang guard, not a measure
			t.Fatalf("weft %v blocked on a FIFO", tc.args)
		}
	}
}
