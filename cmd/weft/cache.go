package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/weft-hdl/weft/cache"
)

const cacheUsage = `usage: weft cache info|clear

Compiled designs are kept in an on-disk cache, so that the next run, and
the other processes of a parallel test run, skip the compile.

  info    print the cache directory, its entries, their total size and the bound
  clear   remove every entry (other files in the directory are left alone)

Environment:
  WEFT_CACHE      the cache directory. Unset or empty: weft under the user's
                  cache directory ($XDG_CACHE_HOME/weft or ~/.cache/weft on
                  Linux). off, 0 or none: no cache.
  WEFT_CACHE_MAX  the bound on the entries' total size: bytes, or a whole
                  number followed by K, M or G (powers of 1024). Default 1G.
                  When a new entry takes the cache past it, the least
                  recently used entries are removed.

Exit status: 0 on success, 1 when the cache cannot be read or cleared (or
WEFT_CACHE_MAX is bad), 2 for bad usage.
`

// cacheMain is `weft cache`.
func cacheMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weft cache", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, cacheUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		fmt.Fprintln(stderr, "weft cache: no command (info or clear)")
		return 2
	}
	verb := fs.Arg(0)
	if verb != "info" && verb != "clear" {
		fmt.Fprintf(stderr, "weft cache: unknown command %q (want info or clear)\n", verb)
		return 2
	}
	// The verbs take no options, but -h after them should still help.
	vs := flag.NewFlagSet("weft cache "+verb, flag.ContinueOnError)
	vs.SetOutput(stderr)
	vs.Usage = fs.Usage
	if err := vs.Parse(fs.Args()[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if vs.NArg() > 0 {
		fmt.Fprintf(stderr, "weft cache %s: unexpected argument %q\n", verb, vs.Arg(0))
		return 2
	}

	c, err := cache.FromEnv()
	if err != nil {
		fmt.Fprintf(stderr, "weft cache %s: %v\n", verb, err)
		return 1
	}
	if c == nil {
		// A nil cache with no error: WEFT_CACHE is an "off" word, or it is
		// unset and the system has no user cache directory.
		why := fmt.Sprintf("%s=%s", cache.EnvDir, os.Getenv(cache.EnvDir))
		if os.Getenv(cache.EnvDir) == "" {
			why = "no user cache directory; set " + cache.EnvDir
		}
		fmt.Fprintf(stdout, "cache: disabled (%s)\n", why)
		return 0
	}
	switch verb {
	case "info":
		s, err := c.Info()
		if err != nil {
			fmt.Fprintf(stderr, "weft cache info: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "dir:     %s\n", s.Dir)
		fmt.Fprintf(stdout, "entries: %d\n", s.Entries)
		fmt.Fprintf(stdout, "size:    %s (%d bytes)\n", humanBytes(s.Bytes), s.Bytes)
		fmt.Fprintf(stdout, "max:     %s (%d bytes, %s)\n", humanBytes(s.MaxBytes), s.MaxBytes, cache.EnvMax)
		if s.Entries > 0 {
			fmt.Fprintf(stdout, "used:    %s to %s\n", s.Oldest.Format(time.DateTime), s.Newest.Format(time.DateTime))
		}
		if s.Temps > 0 {
			fmt.Fprintf(stdout, "writing: %d temporary file(s)\n", s.Temps)
		}
	case "clear":
		n, err := c.Clear()
		if err != nil {
			fmt.Fprintf(stderr, "weft cache clear: removed %d entries, then: %v\n", n, err)
			return 1
		}
		fmt.Fprintf(stdout, "removed %d entries from %s\n", n, c.Dir())
	}
	return 0
}

// humanBytes writes n in the largest binary unit that keeps it at least 1,
// with one decimal ("3.4 MiB"); bytes below 1 KiB are written whole.
func humanBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1<<10 {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/(1<<10), 0
	for v >= 1<<10 && i < len(units)-1 {
		v /= 1 << 10
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, units[i])
}
