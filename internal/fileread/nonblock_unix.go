//go:build unix

package fileread

import "syscall"

const openNonblock = syscall.O_NONBLOCK
