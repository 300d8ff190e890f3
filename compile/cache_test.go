package compile_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/weft-hdl/weft/cache"
	"github.com/weft-hdl/weft/compile"
)

// cachedDesign is a small design with an include, a memory loaded with
// $readmemh, a $display and two clock domains: what an image must carry.
const cachedDesign = "`include \"step.vh\"\n" + `
module c(input logic clk, input logic clk2, output logic [7:0] q, output logic [7:0] r);
  logic [7:0] mem [0:3];
  initial $readmemh("mem.hex", mem);
  always_ff @(posedge clk) begin
    q <= q + ` + "`STEP" + ` + mem[q[1:0]];
    if (q[2]) $display("q=%0d at %0t", q, $time);
  end
  always_ff @(posedge clk2) r <= r ^ q;
endmodule
`

// cachedProject writes cachedDesign with its include (STEP = step) and
// memory file into a new directory and returns the design's path.
func cachedProject(t *testing.T, step int) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("step.vh", fmt.Sprintf("`define STEP %d\n", step))
	write("mem.hex", "1 2 3 4\n")
	write("c.sv", cachedDesign)
	return filepath.Join(dir, "c.sv")
}

func openCache(t *testing.T) *cache.Cache {
	t.Helper()
	c, err := cache.Open(t.TempDir(), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runCached builds file with c and runs it: the output, q and r after
// every cycle, and the program.
func runCached(t *testing.T, file string, c *cache.Cache, opts ...func(*compile.Builder)) (string, *compile.Program) {
	t.Helper()
	var out bytes.Buffer
	b := compile.NewBuilder().Files(file).IncludeDir(filepath.Dir(file)).Top("c").Output(&out).Cache(c)
	for _, o := range opts {
		o(b)
	}
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d := p.DUT()
	clk, clk2 := d.MustSignal("clk").Home(), d.MustSignal("clk2").Home()
	var trace strings.Builder
	for i := 0; i < 30; i++ {
		if _, err := p.Sim.Tick(clk, 1); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if _, err := p.Sim.Tick(clk2, 1); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Fprintf(&trace, "%d %d\n", d.MustSignal("q").Get(), d.MustSignal("r").Get())
	}
	return out.String() + trace.String(), p
}

// TestCacheWarmBuild: the second build of a design loads the image and
// runs exactly as the compiled one; a changed include or option is a
// miss.
func TestCacheWarmBuild(t *testing.T) {
	c := openCache(t)
	file := cachedProject(t, 2)
	for _, th := range []int{1, 2} {
		th := th
		opt := func(b *compile.Builder) { b.Lanes(th).Partition(compile.PartitionAlways) }
		want, cold := runCached(t, file, nil, opt)
		if cold.FromCache {
			t.Fatal("a build without a cache came from the cache")
		}
		first, p1 := runCached(t, file, c, opt)
		second, p2 := runCached(t, file, c, opt)
		if p1.FromCache || !p2.FromCache {
			t.Fatalf("threads %d: from cache: first build %v, second %v (want false, true); warnings %v", th, p1.FromCache, p2.FromCache, p2.Warnings)
		}
		if p2.Design != nil || p2.Kernels != nil || p2.Program == nil {
			t.Errorf("a cached program has the compiler's view or lacks the program")
		}
		if first != want || second != want {
			t.Errorf("threads %d: cached runs differ from the uncached one:\nuncached:\n%s\nfirst:\n%s\nsecond:\n%s", th, want, first, second)
		}
		if !strings.Contains(want, "q=") {
			t.Errorf("the design's $display did not run:\n%s", want)
		}
		if (th > 1) != (p2.Plan != nil) {
			t.Errorf("threads %d: cached plan %v", th, p2.Plan)
		}
	}
	// A changed include: same key, different dependency: a miss.
	if err := os.WriteFile(filepath.Join(filepath.Dir(file), "step.vh"), []byte("`define STEP 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, p := runCached(t, file, c)
	want, _ := runCached(t, file, nil)
	if p.FromCache || got != want {
		t.Errorf("after the include changed: from cache %v; output equal to an uncached build: %v", p.FromCache, got == want)
	}
	// Another parameter, define or backend: a miss too.
	for name, opt := range map[string]func(*compile.Builder){
		"define":  func(b *compile.Builder) { b.Define("UNUSED", "1") },
		"backend": func(b *compile.Builder) { b.Backend(compile.BackendInterp) },
		"ring":    func(b *compile.Builder) { b.RingCap(4096) },
	} {
		if _, p := runCached(t, file, c, opt); p.FromCache {
			t.Errorf("%s changed: the build came from the cache", name)
		}
	}
}

// TestCacheDamage: an entry damaged in any byte, or cut at any length,
// is reported as a warning and recompiled; the result is always right.
func TestCacheDamage(t *testing.T) {
	c := openCache(t)
	src := "module t(input logic clk, output logic [3:0] q);\n  always_ff @(posedge clk) q <= q + 4'd3;\nendmodule\n"
	build := func() (*compile.Program, uint64) {
		p, err := compile.NewBuilder().Source("t.sv", src).Top("t").Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Cache(c).Build()
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		clk := p.DUT().MustSignal("clk").Home()
		if _, err := p.Sim.Tick(clk, 7); err != nil {
			t.Fatal(err)
		}
		return p, p.DUT().MustSignal("q").Get()
	}
	if p, q := build(); p.FromCache || q != 21%16 {
		t.Fatalf("cold build: from cache %v, q %d", p.FromCache, q)
	}
	entries, _ := filepath.Glob(filepath.Join(c.Dir(), "*", "*.wimg"))
	if len(entries) != 1 {
		t.Fatalf("%d cache entries, want 1", len(entries))
	}
	entry := entries[0]
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	step := 1
	if testing.Short() {
		step = 13
	}
	check := func(what string) {
		t.Helper()
		p, q := build()
		if q != 21%16 {
			t.Fatalf("%s: q = %d, want %d", what, q, 21%16)
		}
		if p.FromCache {
			t.Fatalf("%s: the damaged entry was used", what)
		}
		if len(p.Warnings) == 0 || !strings.Contains(p.Warnings[0], "weft cache") {
			t.Fatalf("%s: no warning (warnings %v)", what, p.Warnings)
		}
	}
	for i := 0; i < len(good); i += step {
		bad := bytes.Clone(good)
		bad[i] ^= 0x20
		if err := os.WriteFile(entry, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("byte %d flipped", i))
	}
	for n := 0; n < len(good); n += step {
		if err := os.WriteFile(entry, good[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("cut at %d of %d bytes", n, len(good)))
	}
	if err := os.WriteFile(entry, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, q := build(); !p.FromCache || q != 21%16 {
		t.Errorf("the restored entry: from cache %v, q %d", p.FromCache, q)
	}
}

// TestCacheProcesses: processes compiling one design at once (ginkgo -p)
// end with one valid entry, and a later build loads it.
func TestCacheProcesses(t *testing.T) {
	if os.Getenv("WEFT_CACHE_TEST_CHILD") != "" {
		t.Skip("a child of TestCacheProcesses")
	}
	dir := t.TempDir()
	file := cachedProject(t, 2)
	const n = 6
	var wg sync.WaitGroup
	errs := make([]error, n)
	outs := make([][]byte, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestCacheChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "WEFT_CACHE="+dir, "WEFT_CACHE_TEST_CHILD="+file)
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, outs[i])
		}
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	if len(entries) != 1 || !strings.HasSuffix(entries[0], ".wimg") {
		t.Fatalf("cache holds %v, want one entry", entries)
	}
	t.Setenv("WEFT_CACHE", dir)
	got, p := runCached(t, file, mustFromEnv(t))
	want, _ := runCached(t, file, nil)
	if !p.FromCache || got != want {
		t.Errorf("after the children: from cache %v, output right %v", p.FromCache, got == want)
	}
}

func mustFromEnv(t *testing.T) *cache.Cache {
	t.Helper()
	c, err := cache.FromEnv()
	if err != nil || c == nil {
		t.Fatalf("cache.FromEnv: %v, %v", c, err)
	}
	return c
}

// TestCacheChild is one process of TestCacheProcesses: it builds (with the
// default cache, WEFT_CACHE) and runs the design.
func TestCacheChild(t *testing.T) {
	file := os.Getenv("WEFT_CACHE_TEST_CHILD")
	if file == "" {
		t.Skip("run by TestCacheProcesses")
	}
	p, err := compile.NewBuilder().Files(file).IncludeDir(filepath.Dir(file)).Top("c").Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Sim.Tick(p.DUT().MustSignal("clk").Home(), 10); err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Warnings {
		if strings.Contains(w, "weft cache") {
			t.Errorf("warning: %s", w)
		}
	}
}
