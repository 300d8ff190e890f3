package sim

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mapState maps size bytes (rounded up to whole pages, at least one) of
// anonymous read-write memory, zero-filled. It returns the whole mapping.
func mapState(size int) ([]byte, error) {
	page := os.Getpagesize()
	n := (max(size, 1) + page - 1) / page * page
	mem, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("sim: mmap %d bytes of state: %w", n, err)
	}
	return mem, nil
}

func unmapState(mem []byte) error {
	if mem == nil {
		return nil
	}
	if err := unix.Munmap(mem); err != nil {
		return fmt.Errorf("sim: munmap state: %w", err)
	}
	return nil
}
