package cache

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The environment variables FromEnv reads; see the package comment.
const (
	EnvDir = "WEFT_CACHE"
	EnvMax = "WEFT_CACHE_MAX"
)

// FromEnv returns the cache the environment asks for (WEFT_CACHE,
// WEFT_CACHE_MAX). When the cache is disabled, by WEFT_CACHE=off (or 0, or
// none) or because the system has no user cache directory, it returns a
// nil *Cache and no error; a nil *Cache does nothing. It returns an error
// only for a bad WEFT_CACHE_MAX or a WEFT_CACHE that is not a directory.
func FromEnv() (*Cache, error) {
	dir := strings.TrimSpace(os.Getenv(EnvDir))
	switch strings.ToLower(dir) {
	case "off", "0", "none":
		return nil, nil
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			// No home directory (a sandbox, a service account): run
			// without a cache rather than fail every compile.
			return nil, nil
		}
		dir = filepath.Join(base, "weft")
	}
	var opts Options
	if v := os.Getenv(EnvMax); strings.TrimSpace(v) != "" {
		n, err := parseSize(v)
		if err != nil {
			return nil, fmt.Errorf("cache: %s=%q: %w", EnvMax, v, err)
		}
		opts.MaxBytes = n
	}
	return Open(dir, opts)
}

// sizeUnits are the suffixes parseSize accepts, upper-cased.
var sizeUnits = map[string]int64{
	"": 1, "B": 1,
	"K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10,
	"M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
	"G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30,
}

// parseSize reads a byte count: a whole number, optionally followed by K, M
// or G (powers of 1024; KB, KiB and so on too, in any case).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	num, unit := s[:i], strings.ToUpper(strings.TrimSpace(s[i:]))
	mult, ok := sizeUnits[unit]
	if num == "" || !ok {
		return 0, fmt.Errorf("want a whole number of bytes, optionally followed by K, M or G (such as 500M)")
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%s is too large", s)
	}
	if n == 0 {
		return 0, fmt.Errorf("the bound must be at least 1 byte")
	}
	return n * mult, nil
}
