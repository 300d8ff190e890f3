// Package cache owns weft's on-disk cache of compiled program images: it
// stores opaque byte blobs under 32-byte keys in a directory shared by every
// weft process of a user, finds them again, and keeps the directory under a
// size bound. It knows nothing about what the blobs mean; the caller derives
// the key from everything the blob depends on (KeyBuilder) and encodes the
// blob itself.
//
// # Layout and file format
//
// An entry for key K lives at
//
//	<dir>/<first two hex digits of K>/<64 hex digits of K>.wimg
//
// and is framed by this package, so that a truncated, bit-flipped or
// foreign file is recognised as such rather than handed to the decoder:
//
//	offset  size  field
//	0       11    magic "weft-cache\x00"
//	11      1     frame version (1)
//	12      8     payload length n, big-endian
//	20      32    SHA-256 of the payload
//	52      n     payload
//
// Get checks the magic, the version, that the file holds exactly 52+n bytes
// and the checksum; a file failing any check is removed and reported as an
// error wrapping ErrCorrupt (the caller warns and recompiles). The claimed
// length is compared with the file's size, and with the size bound, before
// anything is allocated; an entry larger than the bound (left from before
// WEFT_CACHE_MAX was lowered) is dropped the same way.
//
// Writers create a temporary file ".tmp-*.wimg" in the entry's
// subdirectory, write it, and rename it onto the entry's name (no fsync:
// an entry a crash cut short fails its checksum and is recompiled).
// Only files with these two shapes, in two-hex-digit subdirectories, are the
// cache's own: Clear and the trimming never touch anything else, so WEFT_CACHE
// may name a directory that holds other files.
//
// # Concurrency
//
// Any number of goroutines and processes may use one directory at once.
// Because an entry appears only by rename, which is atomic on POSIX file
// systems, a reader sees either no entry or a complete one, and concurrent
// writers of one key leave exactly one valid entry (the last rename wins;
// for a content-addressed key every writer stores the same bytes). A file
// that disappears between listing and stat or removal (another process
// trimmed or cleared it) is not an error. Temporary files are removed by
// trimming and Clear only when older than ten minutes (a crashed writer's),
// never while another process may still be writing them.
//
// # Size bound
//
// A hit refreshes the entry's modification time, so modification times
// order entries by last use. A process trims at its first Put and then
// each time it has stored a sixteenth of the bound (at most 64 MiB) since:
// if the entries' total size exceeds the bound, the least recently used
// are removed until it no longer does (the entry just stored is kept).
// Trimming lists the whole directory, which costs more than compiling a
// small design once there are thousands of entries, so the bound may be
// passed by that sixteenth per process in between. Processes trimming at
// the same moment may remove a little more than needed; nothing is lost
// but cached work.
//
// # Environment
//
// FromEnv reads two variables:
//
//	WEFT_CACHE      the cache directory. Unset or empty: the "weft"
//	                directory under os.UserCacheDir (on Linux
//	                $XDG_CACHE_HOME/weft or ~/.cache/weft); when there is no
//	                user cache directory the cache is disabled. "off", "0"
//	                or "none": disabled. Anything else: that directory.
//	WEFT_CACHE_MAX  the size bound: a whole number of bytes, optionally
//	                followed by K, M or G (powers of 1024; KB/KiB and so on
//	                are accepted too). Default 1G.
//
// A disabled cache is a nil *Cache. Its methods are safe to call and do
// nothing: Get always misses, Put stores nothing.
package cache
