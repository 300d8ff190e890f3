package cache

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCacheFromEnv(t *testing.T) {
	for _, off := range []string{"off", "OFF", "0", "none", " off "} {
		t.Setenv(EnvDir, off)
		t.Setenv(EnvMax, "not a size") // not read when disabled
		c, err := FromEnv()
		if c != nil || err != nil {
			t.Errorf("%s=%q: %v, %v; want a disabled cache", EnvDir, off, c, err)
		}
	}

	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	t.Setenv(EnvMax, "")
	c, err := FromEnv()
	if err != nil || c.Dir() != dir || c.MaxBytes() != DefaultMaxBytes {
		t.Fatalf("%s=%s: %+v, %v", EnvDir, dir, c, err)
	}

	t.Setenv(EnvMax, "64M")
	if c, err := FromEnv(); err != nil || c.MaxBytes() != 64<<20 {
		t.Fatalf("%s=64M: %+v, %v", EnvMax, c, err)
	}
	t.Setenv(EnvMax, "12X")
	_, err = FromEnv()
	if err == nil || !strings.Contains(err.Error(), `WEFT_CACHE_MAX="12X"`) || !strings.Contains(err.Error(), "K, M or G") {
		t.Fatalf("%s=12X: %v, want an error naming the variable and the form", EnvMax, err)
	}

	// Unset: the weft directory under the user's cache directory.
	t.Setenv(EnvMax, "")
	t.Setenv(EnvDir, "")
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("HOME", home)
	t.Setenv("LocalAppData", home)
	c, err = FromEnv()
	if err != nil || c == nil || filepath.Base(c.Dir()) != "weft" || !strings.HasPrefix(c.Dir(), home) {
		t.Fatalf("%s unset: %+v, %v; want %s/.../weft", EnvDir, c, err, home)
	}

	// A relative directory is made absolute.
	t.Chdir(t.TempDir())
	t.Setenv(EnvDir, "rel")
	if c, err := FromEnv(); err != nil || !filepath.IsAbs(c.Dir()) || filepath.Base(c.Dir()) != "rel" {
		t.Fatalf("%s=rel: %+v, %v", EnvDir, c, err)
	}
}

func TestCacheParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"1": 1, "4096": 4096, "1000B": 1000,
		"1K": 1 << 10, "2k": 2 << 10, "3KiB": 3 << 10, "4 KB": 4 << 10,
		"500M": 500 << 20, "1G": 1 << 30, "2gib": 2 << 30, " 7G ": 7 << 30,
		"8589934591G": 8589934591 << 30,
	} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "G", "0", "-1", "1.5G", "1T", "12X", "1 G B", "8589934592G", "99999999999999999999"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}
