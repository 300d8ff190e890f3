package cache

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// staleTemp is how old a temporary file must be before trimming or Clear
// takes it for a crashed writer's: a live writer finishes in far less.
const staleTemp = 10 * time.Minute

// Stats describes a cache's contents.
type Stats struct {
	Dir      string // the cache directory; "" when disabled
	Disabled bool
	Entries  int   // entry files
	Bytes    int64 // their total size, headers included
	MaxBytes int64 // the bound on Bytes
	Temps    int   // temporary files: writes in progress, or a crashed writer's
	// Oldest and Newest are the least and most recent last use of an
	// entry; zero when there are none.
	Oldest, Newest time.Time
}

// file is one of the cache's own files, as found by scan.
type file struct {
	path  string
	size  int64
	mtime time.Time
}

// listing is what scan finds: the cache's own files and subdirectories.
type listing struct {
	entries, temps []file
	subdirs        []string
}

// scan lists the cache's own files. Anything else in the directory is left
// out. Files that vanish while being listed (another process removed them)
// are skipped; a missing cache directory is an empty cache.
func (c *Cache) scan() (listing, error) {
	var l listing
	top, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, err
	}
	for _, d := range top {
		// DirEntry.IsDir does not follow symbolic links: a linked
		// directory is not ours.
		if !d.IsDir() || !isHex(d.Name(), 2) {
			continue
		}
		sub := filepath.Join(c.dir, d.Name())
		l.subdirs = append(l.subdirs, sub)
		files, err := os.ReadDir(sub)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return l, err
		}
		for _, e := range files {
			if !e.Type().IsRegular() {
				continue
			}
			name := e.Name()
			isEntry := isEntryName(name, d.Name())
			if !isEntry && !isTempName(name) {
				continue
			}
			fi, err := e.Info()
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return l, err
			}
			f := file{path: filepath.Join(sub, name), size: fi.Size(), mtime: fi.ModTime()}
			if isEntry {
				l.entries = append(l.entries, f)
			} else {
				l.temps = append(l.temps, f)
			}
		}
	}
	return l, nil
}

// isHex reports whether s is n lowercase hex digits, as Key.String writes.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// isEntryName reports whether name is an entry's file name in the
// subdirectory sub.
func isEntryName(name, sub string) bool {
	h, ok := strings.CutSuffix(name, entrySuffix)
	return ok && isHex(h, 2*len(Key{})) && h[:2] == sub
}

// isTempName reports whether name is one of Put's temporary files.
func isTempName(name string) bool {
	return strings.HasPrefix(name, tempPrefix) && strings.HasSuffix(name, entrySuffix)
}

// remove removes path; a file already gone is not an error.
func remove(path string) (removed bool, err error) {
	err = os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// trim removes stale temporary files and, while the entries' total size
// exceeds the bound, the least recently used entry other than keep.
func (c *Cache) trim(keep string) error {
	l, err := c.scan()
	if err != nil {
		return err
	}
	var errs []error
	cutoff := time.Now().Add(-staleTemp)
	for _, t := range l.temps {
		if t.mtime.Before(cutoff) {
			if _, err := remove(t.path); err != nil {
				errs = append(errs, err)
			}
		}
	}
	var total int64
	for _, e := range l.entries {
		total += e.size
	}
	if total > c.maxBytes {
		slices.SortFunc(l.entries, func(a, b file) int {
			return cmp.Or(a.mtime.Compare(b.mtime), strings.Compare(a.path, b.path))
		})
		for _, e := range l.entries {
			if total <= c.maxBytes {
				break
			}
			if e.path == keep {
				continue
			}
			if _, err := remove(e.path); err != nil {
				errs = append(errs, err)
				continue
			}
			// Counted as gone even when another process removed it first.
			total -= e.size
		}
	}
	return errors.Join(errs...)
}

// Info describes the cache's contents. A disabled cache says so in
// Stats.Disabled.
func (c *Cache) Info() (Stats, error) {
	if c == nil {
		return Stats{Disabled: true}, nil
	}
	s := Stats{Dir: c.dir, MaxBytes: c.maxBytes}
	l, err := c.scan()
	if err != nil {
		return s, fmt.Errorf("cache: info %s: %w", c.dir, err)
	}
	s.Entries = len(l.entries)
	s.Temps = len(l.temps)
	for i, e := range l.entries {
		s.Bytes += e.size
		if i == 0 || e.mtime.Before(s.Oldest) {
			s.Oldest = e.mtime
		}
		if i == 0 || e.mtime.After(s.Newest) {
			s.Newest = e.mtime
		}
	}
	return s, nil
}

// Clear removes every entry and every stale temporary file, then the
// subdirectories left empty, and says how many entries it removed. It
// removes nothing else: not the cache directory, not files the cache did
// not write, and not a temporary file another process may still be
// writing (its entry appears after Clear, as if stored just after it).
func (c *Cache) Clear() (removed int, err error) {
	if c == nil {
		return 0, nil
	}
	l, err := c.scan()
	if err != nil {
		return 0, fmt.Errorf("cache: clear %s: %w", c.dir, err)
	}
	var errs []error
	for _, e := range l.entries {
		ok, err := remove(e.path)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			removed++
		}
	}
	cutoff := time.Now().Add(-staleTemp)
	for _, t := range l.temps {
		if t.mtime.Before(cutoff) {
			if _, err := remove(t.path); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, sub := range l.subdirs {
		// Fails, as it should, when the directory still holds anything:
		// a foreign file, a fresh temporary file, a new entry.
		_ = os.Remove(sub)
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("cache: clear %s: %w", c.dir, err)
	}
	return removed, nil
}
