package lanepool

import (
	"fmt"
	"iter"
	"path"
	"strconv"
	"strings"
)

// UsableCPUs returns how many CPUs this process may run on at once, and why:
// on Linux the CPUs of the calling thread's affinity mask (sched_getaffinity),
// or fewer when a cgroup CPU quota (cgroup v2 cpu.max, or v1
// cpu.cfs_quota_us/cpu.cfs_period_us, in the process's cgroup or an ancestor)
// allows less than that, rounded up; elsewhere runtime.NumCPU. It is at least
// 1. why names the limit that set n, as in "sched_getaffinity allows 2 CPUs"
// or "cgroup cpu.max quota 150000/100000 allows 2 CPUs".
//
// A lane only hands off without a context switch while it has a core of its
// own; CapLanes applies this count to a requested number of lanes.
func UsableCPUs() (n int, why string) { return usableCPUs() }

// CapLanes returns min(requested, UsableCPUs()) and, when that is less than
// requested, a note saying so for the caller to show, as in "4 lanes
// requested, but the process may use 2 CPUs (sched_getaffinity allows 2
// CPUs): running 2 lanes". The note is empty when requested fits. The pool
// itself accepts more lanes than CPUs (it then parks through the scheduler,
// see New); capping is the caller's choice.
func CapLanes(requested int) (lanes int, note string) {
	n, why := UsableCPUs()
	return capLanes(requested, n, why)
}

func capLanes(requested, cpus int, why string) (int, string) {
	if requested <= cpus {
		return requested, ""
	}
	return cpus, fmt.Sprintf("%d lanes requested, but the process may use %s (%s): running %s", requested, cpusWord(cpus), why, plural(cpus, "lane"))
}

func cpusWord(n int) string { return plural(n, "CPU") }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// limitByCgroup returns n and why, or the tightest cgroup CPU quota found
// through read (os.ReadFile, or a fake in tests) and its reason when that
// allows fewer CPUs. Whatever read cannot find or parse sets no limit.
func limitByCgroup(n int, why string, read func(string) ([]byte, error)) (int, string) {
	n = max(n, 1)
	if c, cwhy, ok := cgroupCPULimit(read); ok && c < n {
		return c, cwhy
	}
	return n, why
}

// cgroupMount is where a cgroup hierarchy is mounted: root is the hierarchy's
// directory that appears at dir.
type cgroupMount struct{ root, dir string }

// cgroupCPULimit finds the process's cgroups in /proc/self/cgroup, their
// mounts in /proc/self/mountinfo (or the usual places if that cannot be read),
// and returns the smallest CPU count a quota allows in them or their
// ancestors, rounded up. ok is false when no quota applies.
func cgroupCPULimit(read func(string) ([]byte, error)) (cpus int, why string, ok bool) {
	data, err := read("/proc/self/cgroup")
	if err != nil {
		return 0, "", false
	}
	var v1Path, v2Path string
	var haveV1, haveV2 bool
	for line := range strings.Lines(string(data)) {
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 || !strings.HasPrefix(f[2], "/") {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "":
			v2Path, haveV2 = f[2], true
		case hasOption(f[1], "cpu"):
			v1Path, haveV1 = f[2], true
		}
	}
	v1Mount, v2Mount := cgroupMounts(read)
	best := 0
	consider := func(c int, w string) {
		if c > 0 && (best == 0 || c < best) {
			best, why = c, w
		}
	}
	if haveV2 {
		for dir := range cgroupDirs(v2Mount, v2Path) {
			consider(cpuMaxLimit(read, dir))
		}
	}
	if haveV1 {
		for dir := range cgroupDirs(v1Mount, v1Path) {
			consider(cfsLimit(read, dir))
		}
	}
	return best, why, best > 0
}

// cgroupMounts finds the cgroup v1 hierarchy with the cpu controller and the
// cgroup v2 hierarchy in mountinfo, falling back to where systems usually
// mount them.
func cgroupMounts(read func(string) ([]byte, error)) (v1, v2 cgroupMount) {
	v1 = cgroupMount{"/", "/sys/fs/cgroup/cpu"}
	v2 = cgroupMount{"/", "/sys/fs/cgroup"}
	data, err := read("/proc/self/mountinfo")
	if err != nil {
		return v1, v2
	}
	var found1, found2 bool
	// A line is: id parent major:minor root mountpoint options [tags...]
	// - fstype source superoptions.
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+1 >= len(f) {
			continue
		}
		m := cgroupMount{unescapeMount(f[3]), unescapeMount(f[4])}
		switch f[sep+1] {
		case "cgroup2":
			if !found2 {
				v2, found2 = m, true
			}
		case "cgroup":
			if !found1 && sep+3 < len(f) && hasOption(f[sep+3], "cpu") {
				v1, found1 = m, true
			}
		}
	}
	return v1, v2
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func hasOption(list, opt string) bool {
	for o := range strings.SplitSeq(list, ",") {
		if o == opt {
			return true
		}
	}
	return false
}

// cgroupDirs yields the directory of cgroup path p under mount m, then each
// ancestor up to the mount's own directory: a quota on any of them applies.
// A path outside the mounted root (as seen from another cgroup namespace)
// yields the mount's directory alone.
func cgroupDirs(m cgroupMount, p string) iter.Seq[string] {
	return func(yield func(string) bool) {
		rel := ""
		switch {
		case m.root == "/":
			rel = p
		case p == m.root || strings.HasPrefix(p, m.root+"/"):
			rel = p[len(m.root):]
		}
		top := path.Clean(m.dir)
		dir := path.Join(top, rel)
		if dir != top && !strings.HasPrefix(dir, top+"/") {
			dir = top // ".." in the path
		}
		for {
			if !yield(dir) || dir == top {
				return
			}
			dir = path.Dir(dir)
		}
	}
}

// cpuMaxLimit reads a cgroup v2 cpu.max, "max PERIOD" or "QUOTA PERIOD".
func cpuMaxLimit(read func(string) ([]byte, error), dir string) (int, string) {
	data, err := read(path.Join(dir, "cpu.max"))
	if err != nil {
		return 0, ""
	}
	f := strings.Fields(string(data))
	if len(f) == 0 || f[0] == "max" {
		return 0, ""
	}
	quota, err1 := strconv.ParseInt(f[0], 10, 64)
	period := int64(100000) // the kernel's default, when a file omits it
	var err2 error
	if len(f) > 1 {
		period, err2 = strconv.ParseInt(f[1], 10, 64)
	}
	if err1 != nil || err2 != nil || len(f) > 2 {
		return 0, ""
	}
	c := quotaCPUs(quota, period)
	return c, fmt.Sprintf("cgroup cpu.max quota %d/%d allows %s", quota, period, cpusWord(c))
}

// cfsLimit reads a cgroup v1 cpu.cfs_quota_us (-1 when unlimited) and
// cpu.cfs_period_us.
func cfsLimit(read func(string) ([]byte, error), dir string) (int, string) {
	q, err1 := read(path.Join(dir, "cpu.cfs_quota_us"))
	p, err2 := read(path.Join(dir, "cpu.cfs_period_us"))
	if err1 != nil || err2 != nil {
		return 0, ""
	}
	quota, err1 := strconv.ParseInt(strings.TrimSpace(string(q)), 10, 64)
	period, err2 := strconv.ParseInt(strings.TrimSpace(string(p)), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, ""
	}
	c := quotaCPUs(quota, period)
	return c, fmt.Sprintf("cgroup cpu.cfs_quota_us/cpu.cfs_period_us %d/%d allows %s", quota, period, cpusWord(c))
}

// quotaCPUs is ceil(quota/period), at least 1, or 0 (no limit) for a
// non-positive quota or period.
func quotaCPUs(quota, period int64) int {
	if quota <= 0 || period <= 0 {
		return 0
	}
	c := quota / period
	if quota%period != 0 {
		c++
	}
	return int(min(c, 1<<30))
}
