// Package fileread reads the files a design names (sources, `include files,
// $readmem files) with a size limit, refusing anything that is not a regular
// file. A device such as /dev/zero or a FIFO never ends (or never opens), so
// an unguarded read of one grows until the process dies; a directory is
// never what the design meant.
package fileread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError says that Path is a device, FIFO, socket or directory.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s); weft reads only regular files", e.Path, Kind(e.Mode))
}

// TooLargeError says that Path holds more than Limit bytes.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the limit on its size", e.Path, Size(e.Limit))
}

// Kind names what a non-regular file is, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a plain file"
}

// Size formats a byte count the way the limits are set: in MiB when it is
// a whole number of them.
func Size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Check returns a *NotRegularError when path (followed through symbolic
// links) exists and is not a regular file, and the stat error when it cannot
// be examined.
func Check(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return nil
}

// Read returns the contents of the regular file path, or a *NotRegularError,
// a *TooLargeError when it holds more than limit bytes, or the error of
// opening or reading it. It never reads more than limit+1 bytes, whatever the
// file turns out to be. A limit of 0 or less means none (the callers always
// pass one; tests may not).
func Read(path string, limit int64) ([]byte, error) {
	// Stat first: opening a FIFO that has no writer blocks forever.
	if err := Check(path); err != nil {
		return nil, err
	}
	// The file may have been replaced since; nonblocking mode keeps even
	// that open from hanging, and the second check catches it.
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	if limit > 0 && st.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	var r io.Reader = f
	size := st.Size()
	if limit > 0 {
		// A file that grows while it is read still stops at the limit.
		r = io.LimitReader(f, limit+1)
		size = min(size, limit)
	}
	buf := make([]byte, 0, size+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if limit > 0 && int64(len(buf)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return buf, nil
}
