//go:build !(amd64 && (linux || darwin || freebsd || netbsd || openbsd))

package jit

import (
	"errors"
	"testing"
)

func TestUnsupported(t *testing.T) {
	if Supported {
		t.Fatal("Supported on a stub platform")
	}
	if _, err := NewCode([]byte{0xC3}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("NewCode: %v, want ErrUnsupported", err)
	}
}
