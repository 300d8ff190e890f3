package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultMaxBytes is the size bound when none is given: 1 GiB.
const DefaultMaxBytes int64 = 1 << 30

// ErrMiss is what Get returns when the cache holds no entry for the key.
var ErrMiss = errors.New("cache: miss")

// ErrCorrupt is wrapped by the error Get returns when an entry's file is
// damaged or foreign; the error says which file and what was wrong, and
// whether the file was removed (it is, unless it is not a regular file or
// another process replaced it meanwhile).
var ErrCorrupt = errors.New("corrupt cache entry")

// Options tune a Cache.
type Options struct {
	// MaxBytes bounds the total size of the entry files; 0 means
	// DefaultMaxBytes.
	MaxBytes int64
}

// Cache is a cache directory. A nil *Cache is a disabled cache: every method
// may be called on it and does nothing.
type Cache struct {
	dir      string
	maxBytes int64
}

// Open returns the cache in dir. The directory is created (0o755) when the
// first entry is stored, so Open, Info and Clear leave the file system as
// they found it.
func Open(dir string, opts Options) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("cache: open: empty directory name")
	}
	if opts.MaxBytes < 0 {
		return nil, fmt.Errorf("cache: open %s: negative MaxBytes %d", dir, opts.MaxBytes)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cache: open %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("cache: open %s: not a directory", abs)
	}
	maxBytes := opts.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	return &Cache{dir: abs, maxBytes: maxBytes}, nil
}

// Dir is the cache's directory (absolute); "" for a disabled cache.
func (c *Cache) Dir() string {
	if c == nil {
		return ""
	}
	return c.dir
}

// MaxBytes is the bound on the entries' total size; 0 for a disabled cache.
func (c *Cache) MaxBytes() int64 {
	if c == nil {
		return 0
	}
	return c.maxBytes
}

// Frame layout; see the package comment.
const (
	frameMagic   = "weft-cache\x00"
	frameVersion = 1
	headerSize   = len(frameMagic) + 1 + 8 + sha256.Size
	entrySuffix  = ".wimg"
	tempPrefix   = ".tmp-"
)

// path is where key's entry lives.
func (c *Cache) path(key Key) string {
	h := key.String()
	return filepath.Join(c.dir, h[:2], h+entrySuffix)
}

// Get returns the payload stored under key: ErrMiss when there is none, an
// error wrapping ErrCorrupt (after removing the file) when the entry is
// damaged. A hit marks the entry as just used.
func (c *Cache) Get(key Key) ([]byte, error) {
	if c == nil {
		return nil, ErrMiss
	}
	path := c.path(key)
	// Lstat first: opening a FIFO someone left at the path would block.
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrMiss
	}
	if err != nil {
		return nil, fmt.Errorf("cache: get %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, c.corrupt(path, nil, fmt.Errorf("not a regular file (%s)", fi.Mode().Type()))
	}
	f, err := os.Open(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ErrMiss // trimmed or cleared since the Lstat
	case errors.Is(err, fs.ErrPermission):
		return nil, c.corrupt(path, fi, err)
	case err != nil:
		// Such as too many open files: the entry may be fine.
		return nil, fmt.Errorf("cache: get %s: %w", path, err)
	}
	defer f.Close()
	// Stat the open file: that is the inode read below, even if a writer
	// renames a new entry onto the path meanwhile.
	ofi, err := f.Stat()
	if err != nil {
		return nil, c.corrupt(path, fi, err)
	}
	if !ofi.Mode().IsRegular() {
		return nil, c.corrupt(path, nil, fmt.Errorf("not a regular file (%s)", ofi.Mode().Type()))
	}
	payload, err := c.readFrame(f, ofi.Size())
	if err != nil {
		return nil, c.corrupt(path, ofi, err)
	}
	now := time.Now()
	// Best effort: a failure only makes trimming less accurate.
	_ = os.Chtimes(path, now, now)
	return payload, nil
}

// readFrame reads and checks a framed payload from a file of the given size.
func (c *Cache) readFrame(r io.Reader, size int64) ([]byte, error) {
	if size < int64(headerSize) {
		return nil, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", size, headerSize)
	}
	var hdr [headerSize]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	if string(hdr[:len(frameMagic)]) != frameMagic {
		return nil, errors.New("bad magic: not a weft cache file")
	}
	if v := hdr[len(frameMagic)]; v != frameVersion {
		return nil, fmt.Errorf("frame version %d, want %d", v, frameVersion)
	}
	n := binary.BigEndian.Uint64(hdr[len(frameMagic)+1:])
	// Checked before allocating: the length field may be anything.
	if have := uint64(size - int64(headerSize)); n != have {
		return nil, fmt.Errorf("header says %d payload bytes, file holds %d", n, have)
	}
	if n > uint64(c.maxBytes) {
		return nil, fmt.Errorf("%d payload bytes, more than the cache bound of %d", n, c.maxBytes)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, fmt.Errorf("reading the payload: %w", err)
	}
	// The file's inode never changes after its rename, but a foreign file
	// might still be growing.
	var extra [1]byte
	if m, _ := r.Read(extra[:]); m != 0 {
		return nil, errors.New("more bytes than the file's size said")
	}
	sum := sha256.Sum256(payload)
	if !bytes.Equal(sum[:], hdr[len(frameMagic)+1+8:]) {
		return nil, errors.New("checksum mismatch")
	}
	return payload, nil
}

// corrupt removes the damaged file at path (when it is still the file fi
// that was read, and a regular file) and describes what was wrong.
func (c *Cache) corrupt(path string, fi fs.FileInfo, why error) error {
	if fi == nil {
		return fmt.Errorf("%w %s: %w (not removed)", ErrCorrupt, path, why)
	}
	// Another process may have renamed a good entry onto the path since
	// the read; leave that one alone.
	if now, err := os.Lstat(path); err != nil || !os.SameFile(now, fi) {
		return fmt.Errorf("%w %s: %w (already replaced or removed)", ErrCorrupt, path, why)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w %s: %w (removing it failed: %v)", ErrCorrupt, path, why, err)
	}
	return fmt.Errorf("%w %s: %w (removed)", ErrCorrupt, path, why)
}

// Put stores payload under key, replacing any entry there, then trims the
// cache to its bound. Readers in other processes see either the old entry,
// no entry, or the new one, never a partial file. A payload whose entry
// would not fit the bound by itself is not stored, and Put says so. When
// the entry was stored but trimming failed, the error says that too.
func (c *Cache) Put(key Key, payload []byte) error {
	if c == nil {
		return nil
	}
	path := c.path(key)
	if size := int64(headerSize) + int64(len(payload)); size > c.maxBytes {
		return fmt.Errorf("cache: put %s: the entry's %d bytes exceed the cache bound of %d (WEFT_CACHE_MAX)", path, size, c.maxBytes)
	}
	if err := c.write(path, payload); err != nil {
		return fmt.Errorf("cache: put %s: %w", path, err)
	}
	if !c.dueForTrim(int64(headerSize) + int64(len(payload))) {
		return nil
	}
	if err := c.trim(path); err != nil {
		return fmt.Errorf("cache: put %s: stored, but trimming the cache failed: %w", path, err)
	}
	return nil
}

// trimState is, per cache directory, what this process stored since it
// last trimmed there.
type trimState struct {
	mu      sync.Mutex
	trimmed bool  // trimmed once in this process
	written int64 // bytes stored since
}

var trimStates sync.Map // directory → *trimState

// dueForTrim says whether a Put of n bytes should trim now. Trimming
// lists the whole directory (tens of milliseconds for thousands of
// entries, more than a small compile), so a process trims at its first
// Put and then once it has stored a sixteenth of the bound (at most 64
// MiB) since: the bound may be passed by that much per process meanwhile.
func (c *Cache) dueForTrim(n int64) bool {
	v, _ := trimStates.LoadOrStore(c.dir, &trimState{})
	st := v.(*trimState)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.written += n
	if st.trimmed && st.written < min(c.maxBytes/16, 64<<20) {
		return false
	}
	st.trimmed, st.written = true, 0
	return true
}

// mkdirAll is os.MkdirAll (a test makes it lose the race described in
// write).
var mkdirAll = os.MkdirAll

// write writes the framed payload to a temporary file beside path and
// renames it onto path.
func (c *Cache) write(path string, payload []byte) error {
	sub := filepath.Dir(path)
	var f *os.File
	var err error
	// Clear removes empty subdirectories; if one goes between MkdirAll and
	// CreateTemp, or while MkdirAll makes it (another writer made it and
	// Clear removed it: MkdirAll then fails with "file exists"), make it
	// again. A subdirectory holding our temporary file is not empty, so it
	// stays until the rename.
	for range 3 {
		if err = mkdirAll(sub, 0o755); errors.Is(err, fs.ErrExist) {
			continue
		} else if err != nil {
			return err
		}
		f, err = os.CreateTemp(sub, tempPrefix+"*"+entrySuffix)
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	var hdr [headerSize]byte
	copy(hdr[:], frameMagic)
	hdr[len(frameMagic)] = frameVersion
	binary.BigEndian.PutUint64(hdr[len(frameMagic)+1:], uint64(len(payload)))
	sum := sha256.Sum256(payload)
	copy(hdr[len(frameMagic)+1+8:], sum[:])
	if _, err := f.Write(hdr[:]); err != nil {
		return err
	}
	if _, err := f.Write(payload); err != nil {
		return err
	}
	// CreateTemp makes 0o600 files; entries are as readable as their
	// 0o755 directories.
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	// No fsync before the rename: it cost more than compiling a small
	// design (about 70 ms on a VM disk), and what it guards against, a
	// name pointing at data a crash lost, is what the frame's checksum
	// already catches: such an entry reads as corrupt and is recompiled.
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}
