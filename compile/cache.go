package compile

import (
	"crypto/sha256"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/weft-hdl/weft/cache"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/fileread"
	"github.com/weft-hdl/weft/program"
)

// Cache sets the image cache Build looks in and stores to; nil disables
// caching. Without a call, Build uses cache.FromEnv: the user cache
// directory, or what WEFT_CACHE says ("off" disables it).
func (b *Builder) Cache(c *cache.Cache) *Builder {
	b.cache, b.cacheSet = c, true
	return b
}

// NoCache makes Build compile from source and store nothing: for callers
// that need the compiler's view (Program.Design, Program.Kernels).
func (b *Builder) NoCache() *Builder { return b.Cache(nil) }

// cacheDir is the cache Build uses (nil: none).
func (b *Builder) cacheDir() (*cache.Cache, error) {
	if b.cacheSet {
		return b.cache, nil
	}
	c, err := cache.FromEnv()
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	return c, nil
}

// weftVersion identifies the compiler that writes an image: the Go
// toolchain, the target and the running executable's Go build ID (a hash
// of everything it was built from), so that any change to weft's code (a
// rebuilt binary or test binary) makes new keys instead of reusing images
// an older compiler wrote. Where the build ID cannot be read, a hash of
// the executable's bytes stands in (slower: the whole file is read); it is
// "" when neither can, and Build then does not cache.
var weftVersion = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	id := goBuildID(exe)
	if id == "" {
		f, err := os.Open(exe)
		if err != nil {
			return ""
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return ""
		}
		id = fmt.Sprintf("sha256:%x", h.Sum(nil))
	}
	return fmt.Sprintf("%s %s/%s %s", runtime.Version(), runtime.GOOS, runtime.GOARCH, id)
})

// goBuildID reads the Go build ID note of an ELF executable ("" when it
// has none).
func goBuildID(exe string) string {
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil || sec.Size > 4096 {
		return ""
	}
	data, err := sec.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	return fmt.Sprintf("buildid:%x", sha256.Sum256(data))
}

// cacheEntry is one Build's place in the cache.
type cacheEntry struct {
	c        *cache.Cache
	inMemory map[string]bool // names of in-memory sources (their text is in the key)
	key      cache.Key
	version  string
	options  string
	maxBytes int64 // bound on each dependency read back
}

// newCacheEntry keys b's build: every source byte (files as read now,
// in-memory sources), the options that change the program (defines,
// parameters, include directories, top, backend, lanes, partitioning, the
// sync cost charged,
// bounds, suppressed warnings) and weft's version. Included files are not
// known before the front end runs: the image lists every file the
// compile read with its hash, and a hit whose files changed is a miss.
func (b *Builder) newCacheEntry(c *cache.Cache, syncCost int) *cacheEntry {
	e := &cacheEntry{c: c, version: weftVersion(), maxBytes: b.maxSource, inMemory: map[string]bool{}}
	if e.maxBytes <= 0 {
		e.maxBytes = hdl.DefaultMaxFileBytes
	}
	kb := cache.NewKey().AddString("weft", e.version)
	for _, in := range b.inputs {
		kb.AddString("input", in.Name)
		if in.Src != nil {
			e.inMemory[in.Name] = true
			kb.Add("source", in.Src)
			continue
		}
		src, err := fileread.Read(in.Name, e.maxBytes)
		if err != nil {
			// The front end reports it; a key that cannot match anything
			// stored makes sure nothing is loaded meanwhile.
			kb.AddString("unreadable", err.Error())
			continue
		}
		kb.Add("file", src)
	}
	var opts strings.Builder
	fmt.Fprintf(&opts, "top=%s backend=%s lanes=%d partition=%s sync=%d ring=%d maxstate=%d maxinsts=%d maxsource=%d elab=%+v",
		b.top, b.backend, b.lanes, b.partition, syncCost, b.ringCap, b.maxState, b.maxInsts, b.maxSource, b.elabLimits)
	for _, k := range sortedKeys(b.defines) {
		fmt.Fprintf(&opts, " -D%s=%q", k, b.defines[k])
	}
	for _, k := range sortedKeys(b.params) {
		fmt.Fprintf(&opts, " -G%s=%q", k, b.params[k])
	}
	for _, d := range b.includeDirs {
		fmt.Fprintf(&opts, " -I%q", d)
	}
	for _, w := range b.suppress {
		fmt.Fprintf(&opts, " -Wno-%s", w)
	}
	e.options = opts.String()
	e.key = kb.AddString("options", e.options).Sum()
	return e
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// load returns the cached program, or nil on a miss; warn describes a
// damaged or unusable entry (which is then recompiled and replaced).
func (e *cacheEntry) load() (p *program.Program, warn string) {
	if e.version == "" {
		return nil, ""
	}
	img, err := e.c.Get(e.key)
	switch {
	case errors.Is(err, cache.ErrMiss):
		return nil, ""
	case err != nil:
		return nil, fmt.Sprintf("weft cache: %v; recompiling", err)
	}
	meta, err := program.ReadMeta(img)
	if err != nil {
		if errors.Is(err, program.ErrStaleImage) {
			return nil, ""
		}
		return nil, fmt.Sprintf("weft cache: entry %s: %v; recompiling", e.key, err)
	}
	if meta.WeftVersion != e.version || meta.ISA != runtime.GOARCH || meta.Options != e.options || !e.depsUnchanged(meta.Deps) {
		return nil, ""
	}
	p, _, err = program.Decode(img)
	if err != nil {
		return nil, fmt.Sprintf("weft cache: entry %s: %v; recompiling", e.key, err)
	}
	return p, ""
}

// depsUnchanged reports whether every file the cached compile read still
// holds what it read.
func (e *cacheEntry) depsUnchanged(deps []program.Dep) bool {
	for _, d := range deps {
		src, err := fileread.Read(d.Path, e.maxBytes)
		if err != nil || sha256.Sum256(src) != d.Sum {
			return false
		}
	}
	return true
}

// store encodes p with the files fs read and puts it in the cache; warn
// says why it could not.
func (e *cacheEntry) store(p *program.Program, fs *hdl.FileSet) (warn string) {
	if e.version == "" {
		return ""
	}
	meta := program.Meta{WeftVersion: e.version, ISA: runtime.GOARCH, Options: e.options}
	for _, f := range fs.Files() {
		if e.inMemory[f.Name] {
			continue
		}
		meta.Deps = append(meta.Deps, program.Dep{Path: f.Name, Sum: sha256.Sum256(f.Src)})
	}
	img, err := program.Encode(p, meta)
	if err != nil {
		return fmt.Sprintf("weft cache: encoding the program: %v; not cached", err)
	}
	if err := e.c.Put(e.key, img); err != nil {
		return fmt.Sprintf("weft cache: %v; not cached", err)
	}
	return ""
}
