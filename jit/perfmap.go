package jit

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// PerfMapEnv names the environment variable that makes every compiled
// kernel announce its code to Linux perf: when it is set (to anything but
// "" or "0"), each block of each unit becomes a symbol
// "weft:UNIT:bN" in /tmp/perf-PID.map, the file `perf report` reads for
// code it finds no ELF symbols for. So
//
//	WEFT_PERFMAP=1 perf record -e cpu-clock -- weft run ...
//	perf report --sort sym
//
// tells which unit and block of the generated code the time goes to.
const PerfMapEnv = "WEFT_PERFMAP"

var perfMap struct {
	once sync.Once
	mu   sync.Mutex
	f    *os.File // nil when off or when the file could not be opened
}

func perfMapFile() *os.File {
	perfMap.once.Do(func() {
		if v := os.Getenv(PerfMapEnv); v == "" || v == "0" {
			return
		}
		name := fmt.Sprintf("%s/perf-%d.map", os.TempDir(), os.Getpid())
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(os.Stderr, "weft: %s: %v\n", PerfMapEnv, err)
			return
		}
		perfMap.f = f
	})
	return perfMap.f
}

// writePerfMap adds the blocks of a freshly mapped unit to the perf map, if
// it is on. Code that is closed later keeps its lines: perf takes the last
// symbol that covers an address, and a profile rarely spans a rebuild.
func writePerfMap(unit string, c *Code, blocks []blockCode) {
	f := perfMapFile()
	if f == nil || c == nil || c.Len() == 0 {
		return
	}
	lines := perfMapLines(unit, uintptr(c.entry(0).addr()), blocks)
	perfMap.mu.Lock()
	defer perfMap.mu.Unlock()
	_, _ = f.WriteString(lines)
}

// perfMapLines are the perf map lines ("START SIZE NAME", hex) of a unit's
// blocks with its code at base; empty blocks have none.
func perfMapLines(unit string, base uintptr, blocks []blockCode) string {
	name := strings.ReplaceAll(unit, " ", "_")
	var b strings.Builder
	for _, bc := range blocks {
		if bc.hi <= bc.lo {
			continue
		}
		fmt.Fprintf(&b, "%x %x weft:%s:b%d\n", base+uintptr(bc.lo), bc.hi-bc.lo, name, bc.id)
	}
	return b.String()
}
