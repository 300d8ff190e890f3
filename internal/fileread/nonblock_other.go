//go:build !unix

package fileread

// Elsewhere there are no FIFOs that block on open.
const openNonblock = 0
