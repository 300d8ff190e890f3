package lanepool

import (
	"io/fs"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// fakeFS reads files from a map; anything else does not exist.
func fakeFS(files map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

const (
	mountV2     = "30 22 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
	mountHybrid = "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" +
		"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n" +
		"33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n" +
		"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	hybridCgroup = "4:memory:/x\n3:cpuset:/\n1:cpu,cpuacct:/docker/c1\n0::/docker/c1\n"
)

// TestUsableCPUsParsing covers the cgroup files: v2 and v1 quotas, limits on
// ancestors, namespaced mounts, missing files and garbage.
func TestUsableCPUsParsing(t *testing.T) {
	const aff = "sched_getaffinity allows 4 CPUs"
	cases := []struct {
		name    string
		files   map[string]string
		n       int
		why     string
		affinit int // affinity count; 4 when 0
	}{
		{"no files", nil, 4, aff, 0},
		{"v2 no quota", map[string]string{
			"/proc/self/cgroup": "0::/a/b\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/b/cpu.max": "max 100000\n",
		}, 4, aff, 0},
		{"v2 quota", map[string]string{
			"/proc/self/cgroup": "0::/a/b\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/b/cpu.max": "150000 100000\n",
		}, 2, "cgroup cpu.max quota 150000/100000 allows 2 CPUs", 0},
		{"v2 quota on an ancestor", map[string]string{
			"/proc/self/cgroup": "0::/a/b\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/b/cpu.max": "max 100000\n", "/sys/fs/cgroup/a/cpu.max": "300000 100000\n",
			"/sys/fs/cgroup/cpu.max": "100000 100000\n", // the root's; not a real file, but it must count
		}, 1, "cgroup cpu.max quota 100000/100000 allows 1 CPU", 0},
		{"v2 tightest wins", map[string]string{
			"/proc/self/cgroup": "0::/a/b\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/b/cpu.max": "250000 100000", "/sys/fs/cgroup/a/cpu.max": "350000 100000",
		}, 3, "cgroup cpu.max quota 250000/100000 allows 3 CPUs", 0},
		{"v2 quota above affinity", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/cpu.max": "800000 100000\n",
		}, 4, aff, 0},
		{"v2 quota equal to affinity", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/cpu.max": "400000 100000\n",
		}, 4, aff, 0},
		{"v2 tiny quota", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/cpu.max": "1000 100000\n",
		}, 1, "cgroup cpu.max quota 1000/100000 allows 1 CPU", 0},
		{"v2 without period", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/cpu.max": "200000\n",
		}, 2, "cgroup cpu.max quota 200000/100000 allows 2 CPUs", 0},
		{"v2 without mountinfo", map[string]string{
			"/proc/self/cgroup":          "0::/a\n",
			"/sys/fs/cgroup/a/cpu.max":   "150000 100000\n",
			"/sys/fs/cgroup/a/cpu.max.x": "garbage",
		}, 2, "cgroup cpu.max quota 150000/100000 allows 2 CPUs", 0},
		{"v2 namespaced mount", map[string]string{
			"/proc/self/cgroup":        "0::/kubepods/pod1/c\n",
			"/proc/self/mountinfo":     "30 22 0:27 /kubepods/pod1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"/sys/fs/cgroup/c/cpu.max": "50000 100000\n",
		}, 1, "cgroup cpu.max quota 50000/100000 allows 1 CPU", 0},
		{"v2 path outside the mount", map[string]string{
			"/proc/self/cgroup":         "0::/../elsewhere\n",
			"/proc/self/mountinfo":      mountV2,
			"/sys/fs/cgroup/cpu.max":    "200000 100000\n",
			"/sys/fs/elsewhere/cpu.max": "100000 100000\n",
		}, 2, "cgroup cpu.max quota 200000/100000 allows 2 CPUs", 0},
		{"v1 quota", map[string]string{
			"/proc/self/cgroup": hybridCgroup, "/proc/self/mountinfo": mountHybrid,
			"/sys/fs/cgroup/cpu,cpuacct/docker/c1/cpu.cfs_quota_us":  "250000\n",
			"/sys/fs/cgroup/cpu,cpuacct/docker/c1/cpu.cfs_period_us": "100000\n",
		}, 3, "cgroup cpu.cfs_quota_us/cpu.cfs_period_us 250000/100000 allows 3 CPUs", 0},
		{"v1 unlimited", map[string]string{
			"/proc/self/cgroup": hybridCgroup, "/proc/self/mountinfo": mountHybrid,
			"/sys/fs/cgroup/cpu,cpuacct/docker/c1/cpu.cfs_quota_us":  "-1\n",
			"/sys/fs/cgroup/cpu,cpuacct/docker/c1/cpu.cfs_period_us": "100000\n",
		}, 4, aff, 0},
		{"v1 quota without period", map[string]string{
			"/proc/self/cgroup": hybridCgroup, "/proc/self/mountinfo": mountHybrid,
			"/sys/fs/cgroup/cpu,cpuacct/docker/c1/cpu.cfs_quota_us": "250000\n",
		}, 4, aff, 0},
		{"v1 and v2, v2 tighter", map[string]string{
			"/proc/self/cgroup": hybridCgroup, "/proc/self/mountinfo": mountHybrid,
			"/sys/fs/cgroup/cpu,cpuacct/docker/c1/cpu.cfs_quota_us":  "300000\n",
			"/sys/fs/cgroup/cpu,cpuacct/docker/c1/cpu.cfs_period_us": "100000\n",
			"/sys/fs/cgroup/unified/docker/c1/cpu.max":               "100000 100000\n",
		}, 1, "cgroup cpu.max quota 100000/100000 allows 1 CPU", 0},
		{"v1 escaped mount point", map[string]string{
			"/proc/self/cgroup":                     "2:cpu:/g\n",
			"/proc/self/mountinfo":                  `31 30 0:28 / /cg\040cpu rw - cgroup cgroup rw,cpu` + "\n",
			"/cg cpu/g/cpu.cfs_quota_us":            "100000",
			"/cg cpu/g/cpu.cfs_period_us":           "100000",
			"/sys/fs/cgroup/cpu/g/cpu.cfs_quota_us": "garbage",
		}, 1, "cgroup cpu.cfs_quota_us/cpu.cfs_period_us 100000/100000 allows 1 CPU", 0},
		{"no cgroup line for cpu", map[string]string{
			"/proc/self/cgroup":                              "4:memory:/a\n",
			"/proc/self/mountinfo":                           mountHybrid,
			"/sys/fs/cgroup/cpu,cpuacct/a/cpu.cfs_quota_us":  "100000",
			"/sys/fs/cgroup/cpu,cpuacct/a/cpu.cfs_period_us": "100000",
		}, 4, aff, 0},
		{"affinity of 0 still allows 1", nil, 1, "sched_getaffinity allows 0 CPUs", -1},
	}
	garbage := []string{"", "\n", "max", "max max", "junk 100000", "150000 junk", "150000 0", "0 100000",
		"-5 100000", "150000 -100000", "1 2 3", "99999999999999999999 100000", "\x00\xff"}
	for _, g := range garbage {
		cases = append(cases, struct {
			name    string
			files   map[string]string
			n       int
			why     string
			affinit int
		}{"garbage cpu.max " + g, map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountV2,
			"/sys/fs/cgroup/a/cpu.max": g,
		}, 4, aff, 0})
	}
	for _, c := range cases {
		aff, why := 4, aff
		if c.affinit < 0 {
			aff, why = 0, "sched_getaffinity allows 0 CPUs"
		}
		n, gotWhy := limitByCgroup(aff, why, fakeFS(c.files))
		if n != c.n || gotWhy != c.why {
			t.Errorf("%s: got %d, %q; want %d, %q", c.name, n, gotWhy, c.n, c.why)
		}
	}
}

// TestCgroupGarbageNeverPanics feeds random bytes to every file the parser
// reads.
func TestCgroupGarbageNeverPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	alphabet := []byte("0123456789 :/-\\\nmaxcpu,")
	junk := func() string {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 2000 {
		files := map[string]string{
			"/proc/self/cgroup": junk(), "/proc/self/mountinfo": junk(),
		}
		if r.IntN(2) == 0 {
			files["/proc/self/cgroup"] = "0::/" + junk()
		}
		for _, d := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/a", "/sys/fs/cgroup/cpu"} {
			files[d+"/cpu.max"] = junk()
			files[d+"/cpu.cfs_quota_us"] = junk()
			files[d+"/cpu.cfs_period_us"] = junk()
		}
		if n, _ := limitByCgroup(4, "x", fakeFS(files)); n < 1 || n > 4 {
			t.Fatalf("limitByCgroup = %d for %q", n, files)
		}
	}
}

func TestQuotaCPUs(t *testing.T) {
	for _, c := range []struct {
		quota, period int64
		want          int
	}{
		{100000, 100000, 1}, {100001, 100000, 2}, {1, 100000, 1}, {0, 100000, 0},
		{-1, 100000, 0}, {100000, 0, 0}, {math.MaxInt64, 1, 1 << 30}, {math.MaxInt64, math.MaxInt64, 1},
	} {
		if got := quotaCPUs(c.quota, c.period); got != c.want {
			t.Errorf("quotaCPUs(%d, %d) = %d, want %d", c.quota, c.period, got, c.want)
		}
	}
}

func TestCapLanes(t *testing.T) {
	const why = "sched_getaffinity allows 2 CPUs"
	for _, c := range []struct {
		requested, cpus, want int
		note                  string
	}{
		{4, 2, 2, "4 lanes requested, but the process may use 2 CPUs (sched_getaffinity allows 2 CPUs): running 2 lanes"},
		{2, 1, 1, "2 lanes requested, but the process may use 1 CPU (sched_getaffinity allows 2 CPUs): running 1 lane"},
		{2, 2, 2, ""},
		{1, 2, 1, ""},
	} {
		got, note := capLanes(c.requested, c.cpus, why)
		if got != c.want || note != c.note {
			t.Errorf("capLanes(%d, %d) = %d, %q; want %d, %q", c.requested, c.cpus, got, note, c.want, c.note)
		}
	}
	n, why2 := UsableCPUs()
	if n < 1 || why2 == "" {
		t.Fatalf("UsableCPUs() = %d, %q", n, why2)
	}
	if got, note := CapLanes(n); got != n || note != "" {
		t.Errorf("CapLanes(%d) = %d, %q with %d usable CPUs", n, got, note, n)
	}
	if got, note := CapLanes(n + 3); got != n || !strings.Contains(note, why2) {
		t.Errorf("CapLanes(%d) = %d, %q with %d usable CPUs (%s)", n+3, got, note, n, why2)
	}
	t.Logf("UsableCPUs() = %d, %q", n, why2)
}
