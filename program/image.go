package program

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"runtime"
	"sync"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/plan"
	"github.com/weft-hdl/weft/sir"
)

// ImageVersion is the version of the image body's encoding. Bump it
// whenever an encoded type changes (a field added, removed, reordered or
// retyped, or its meaning changed): Meta, Dep, the wire types below and
// every type they reach (Program's tables, Layout, plan.Plan, ordering's
// Wait and Effects, sir.Unit and its Block, Inst, Addr, Event). A change
// of their shape is also caught by the schema fingerprint (Meta.Schema),
// which TestImageSchema pins per version; a change of meaning is not.
const ImageVersion = 5

// MaxImageBytes bounds an image's body (Encode refuses a larger program,
// Decode a larger image). The largest bundled design's is about 0.6 MB.
const MaxImageBytes = 256 << 20

// imageMagic starts every image; containerVersion is the version of the
// header that follows it (not of the body: that is ImageVersion).
const (
	imageMagic       = "weft-image\x00"
	containerVersion = 1
	// headerSize: magic, u32 container version, u64 body length, sha256.
	headerSize = len(imageMagic) + 4 + 8 + sha256.Size
)

// Meta describes an image: who wrote it and from what. A cache compares
// it with what it expects and treats a difference as a miss.
//
// Encoded type: bump ImageVersion when it changes.
type Meta struct {
	// FormatVersion is the writer's ImageVersion and Schema its schema
	// fingerprint; Encode sets both.
	FormatVersion int
	Schema        uint64
	// WeftVersion is the writer's version (caller supplied).
	WeftVersion string
	// ISA is the writer's runtime.GOARCH (Encode fills it in when empty).
	// No machine code is stored, so an image runs on any ISA; it is there
	// for the caller's key.
	ISA string
	// Options are the build options as text (caller supplied).
	Options string
	// Deps are the source files the compile read, in the caller's order.
	Deps []Dep
}

// Dep is one source file a compile read and the sha256 of its content.
//
// Encoded type: bump ImageVersion when it changes.
type Dep struct {
	Path string
	Sum  [32]byte
}

// ErrBadImage is what a damaged, truncated, foreign or inconsistent image
// is (errors.Is); ErrStaleImage is an intact image of another
// FormatVersion or schema: a cache miss, not damage.
var (
	ErrBadImage   = errors.New("program: bad image")
	ErrStaleImage = errors.New("program: image of another format version")
)

// ImageError is why Decode refused an image.
type ImageError struct {
	Reason string
	// Stale is set for an intact image of another format (ErrStaleImage);
	// otherwise the image is bad (ErrBadImage).
	Stale bool
	Err   error // the underlying error, if any
}

func (e *ImageError) Error() string {
	s := "program: image: " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *ImageError) Unwrap() error { return e.Err }

// Is matches ErrBadImage or ErrStaleImage, as the error's kind is.
func (e *ImageError) Is(target error) bool {
	return target == ErrStaleImage && e.Stale || target == ErrBadImage && !e.Stale
}

func badImage(err error, format string, args ...any) *ImageError {
	return &ImageError{Reason: fmt.Sprintf(format, args...), Err: err}
}

// The wire types mirror Program and the structs that hold units, with an
// index into wireProgram.Units (-1: nil) for every *sir.Unit, so that a
// unit several places share is stored once and decodes to one *sir.Unit.
// TestImageMirrorsProgram keeps their fields in step with Program's.
//
// Encoded types: bump ImageVersion when one changes.
type (
	wireProgram struct {
		Units        []wireUnit
		Scopes       []*Scope
		Signals      []*Signal
		Functions    []Function
		Dump         *Dump
		Timescale    int
		HasTimescale bool

		Layout   *Layout
		Triggers []Trigger
		Events   []wireEvent
		CombRead []int

		Initial, Settle, Event int
		Ticks                  []wireTick

		Formats   []Format
		Readmems  []Readmem
		Loops     []Loop
		LoopSites []LoopSite

		Parallel *wireParallel
		Plan     *plan.Plan
		Warnings []string
	}
	// wireUnit is a unit: its name, and its registers, blocks and
	// instructions in the compact form of appendUnit (decoding sir.Inst
	// as msgpack structs took about 0.8 µs an instruction; this takes
	// under 0.1 µs, in less than half the bytes).
	wireUnit struct {
		Name string
		Code []byte
	}
	wireEvent struct {
		Name    string
		Trigger int
		Edge    Edge
		Fused   int
	}
	wireTick struct {
		Clock, Trigger int
		Rise, Fall     int
		Unit           int
		Count          sir.HomeID
		Batch          int
	}
	wireParallel struct {
		Lanes   int
		Status  []sir.HomeID
		Rings   []sir.HomeID
		Settle  *wirePartitioned
		Fused   []*wirePartitioned
		Reasons []string
		Ticks   []*wireLaneTick
	}
	wireLaneTick struct {
		Tick    int
		Name    string
		Arg     sir.HomeID
		Units   []int
		Effects []ordering.Effects
	}
	wirePartitioned struct {
		Name                 string
		SingleCost, Makespan int
		Lanes                [][]wireTask
	}
	wireTask struct {
		Index   int
		Lane    int
		Label   string
		Cost    int
		Unit    int
		Waits   []ordering.Wait
		Effects ordering.Effects
	}
)

// Encode writes p (a linked program) and meta as an image: the magic, the
// container version, the body's length and sha256, then the body: meta
// and the program, in msgpack with structs as arrays. The same program
// and meta give the same bytes. Machine code is not stored: a simulator
// compiles the units again.
func Encode(p *Program, meta Meta) ([]byte, error) {
	if p == nil {
		return nil, errors.New("program: Encode: nil program")
	}
	meta.FormatVersion, meta.Schema = ImageVersion, imageSchema()
	if meta.ISA == "" {
		meta.ISA = runtime.GOARCH
	}
	w, err := toWire(p)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Write(make([]byte, headerSize))
	enc := msgpack.NewEncoder(&buf)
	enc.UseArrayEncodedStructs(true)
	enc.UseCompactInts(true)
	enc.SetSortMapKeys(true) // no maps are encoded; this keeps it so if one is added
	if err := enc.Encode(&meta); err != nil {
		return nil, fmt.Errorf("program: Encode: %w", err)
	}
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("program: Encode: %w", err)
	}
	b := buf.Bytes()
	if len(b)-headerSize > MaxImageBytes {
		return nil, fmt.Errorf("program: Encode: %d-byte image exceeds %d bytes", len(b)-headerSize, MaxImageBytes)
	}
	seal(b)
	return b, nil
}

// seal writes the header of b, whose body follows headerSize bytes of
// room.
func seal(b []byte) {
	body := b[headerSize:]
	h := b[:headerSize]
	n := copy(h, imageMagic)
	binary.LittleEndian.PutUint32(h[n:], containerVersion)
	binary.LittleEndian.PutUint64(h[n+4:], uint64(len(body)))
	sum := sha256.Sum256(body)
	copy(h[n+12:], sum[:])
}

// toWire replaces p's unit pointers by indexes into a table that lists
// each unit once, in the order the program first names it (Units, then
// the partitioned kernels' tasks).
func toWire(p *Program) (*wireProgram, error) {
	w := &wireProgram{Scopes: p.Scopes, Signals: p.Signals, Functions: p.Functions, Dump: p.Dump,
		Timescale: p.Timescale, HasTimescale: p.HasTimescale, Layout: p.Layout, Triggers: p.Triggers,
		CombRead: p.CombRead, Formats: p.Formats, Readmems: p.Readmems, Loops: p.Loops, LoopSites: p.LoopSites,
		Plan: p.Plan, Warnings: p.Warnings}
	index := map[*sir.Unit]int{}
	var unitErr error
	unit := func(u *sir.Unit) int {
		if u == nil {
			return -1
		}
		i, ok := index[u]
		if !ok {
			i = len(w.Units)
			index[u] = i
			code, e := appendUnit(nil, u)
			if e != nil && unitErr == nil {
				unitErr = fmt.Errorf("program: Encode: unit %q: %w", u.Name, e)
			}
			w.Units = append(w.Units, wireUnit{Name: u.Name, Code: code})
		}
		return i
	}
	w.Initial, w.Settle, w.Event = unit(p.Initial), unit(p.Settle), unit(p.Event)
	for _, ev := range p.Events {
		w.Events = append(w.Events, wireEvent{Name: ev.Name, Trigger: ev.Trigger, Edge: ev.Edge, Fused: unit(ev.Fused)})
	}
	for _, tk := range p.Ticks {
		w.Ticks = append(w.Ticks, wireTick{Clock: tk.Clock, Trigger: tk.Trigger, Rise: tk.Rise, Fall: tk.Fall, Unit: unit(tk.Unit), Count: tk.Count, Batch: tk.Batch})
	}
	if par := p.Parallel; par != nil {
		part := func(k *Partitioned) (*wirePartitioned, error) {
			if k == nil {
				return nil, nil
			}
			wk := &wirePartitioned{Name: k.Name, SingleCost: k.SingleCost, Makespan: k.Makespan, Lanes: make([][]wireTask, len(k.Lanes))}
			for li, ts := range k.Lanes {
				for _, t := range ts {
					if t == nil {
						return nil, fmt.Errorf("program: Encode: %s: lane %d: nil task", k.Name, li)
					}
					wk.Lanes[li] = append(wk.Lanes[li], wireTask{Index: t.Index, Lane: t.Lane, Label: t.Label, Cost: t.Cost,
						Unit: unit(t.Unit), Waits: t.Waits, Effects: t.Effects})
				}
			}
			return wk, nil
		}
		wp := &wireParallel{Lanes: par.Lanes, Status: par.Status, Rings: par.Rings, Reasons: par.Reasons}
		var err error
		if wp.Settle, err = part(par.Settle); err != nil {
			return nil, err
		}
		for _, k := range par.Fused {
			wk, err := part(k)
			if err != nil {
				return nil, err
			}
			wp.Fused = append(wp.Fused, wk)
		}
		for _, lt := range par.Ticks {
			if lt == nil {
				wp.Ticks = append(wp.Ticks, nil)
				continue
			}
			wt := &wireLaneTick{Tick: lt.Tick, Name: lt.Name, Arg: lt.Arg, Effects: lt.Effects}
			for _, u := range lt.Units {
				wt.Units = append(wt.Units, unit(u))
			}
			wp.Ticks = append(wp.Ticks, wt)
		}
		w.Parallel = wp
	}
	if unitErr != nil {
		return nil, unitErr
	}
	return w, nil
}

// Decode reads an image Encode wrote, and links the program (Link checks
// every index and unit). It checks the header first: the magic, the
// container version, the body's length (exact, at most MaxImageBytes) and
// its sha256; then that the body is two well-formed msgpack values whose
// every claimed length fits in the bytes that remain; then Meta: an
// intact image of another FormatVersion or Schema is an ErrStaleImage
// error (the Meta is returned with it). Every other refusal is an
// *ImageError matching ErrBadImage. Decode does not panic, whatever b
// holds: a panic while decoding or linking becomes an error.
func Decode(b []byte) (p *Program, meta Meta, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, badImage(nil, "decoding panicked: %v", r)
		}
	}()
	body, err := openImage(b)
	if err != nil {
		return nil, Meta{}, err
	}
	dec, meta, err := decodeMeta(body)
	if err != nil {
		return nil, meta, err
	}
	var w wireProgram
	if err := dec.Decode(&w); err != nil {
		return nil, meta, badImage(err, "program")
	}
	p, err = fromWire(&w)
	if err != nil {
		return nil, meta, badImage(err, "program")
	}
	if err := p.Link(); err != nil {
		return nil, meta, badImage(err, "program does not link")
	}
	return p, meta, nil
}

// ReadMeta reads only an image's Meta, after the checks of the header and
// the body's form that Decode makes: enough for a cache to compare its
// key and dependencies before it decodes the program.
func ReadMeta(b []byte) (meta Meta, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = badImage(nil, "decoding panicked: %v", r)
		}
	}()
	body, err := openImage(b)
	if err != nil {
		return Meta{}, err
	}
	_, meta, err = decodeMeta(body)
	return meta, err
}

// openImage checks the header and the body's form and returns the body.
func openImage(b []byte) ([]byte, error) {
	if len(b) < headerSize {
		if len(b) >= len(imageMagic) && string(b[:len(imageMagic)]) != imageMagic {
			return nil, badImage(nil, "not a weft image (no magic)")
		}
		return nil, badImage(nil, "truncated: %d bytes, shorter than the %d-byte header", len(b), headerSize)
	}
	if string(b[:len(imageMagic)]) != imageMagic {
		return nil, badImage(nil, "not a weft image (no magic)")
	}
	h := b[len(imageMagic):headerSize]
	if v := binary.LittleEndian.Uint32(h); v != containerVersion {
		return nil, badImage(nil, "container version %d, want %d", v, containerVersion)
	}
	body := b[headerSize:]
	if n := binary.LittleEndian.Uint64(h[4:]); n > MaxImageBytes {
		return nil, badImage(nil, "body of %d bytes exceeds %d", n, MaxImageBytes)
	} else if n != uint64(len(body)) {
		return nil, badImage(nil, "body of %d bytes, header says %d", len(body), n)
	}
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], h[12:]) {
		return nil, badImage(nil, "checksum mismatch")
	}
	if err := checkMsgpack(body, 2); err != nil {
		return nil, badImage(err, "malformed body")
	}
	return body, nil
}

// decodeMeta decodes the body's first value and checks its version. The
// version is read first, on its own, so that an image whose Meta has
// another shape is still stale, not bad.
func decodeMeta(body []byte) (*msgpack.Decoder, Meta, error) {
	stale := func(meta Meta) error {
		return &ImageError{Stale: true, Reason: fmt.Sprintf("format version %d (schema %016x), this weft reads %d (schema %016x)",
			meta.FormatVersion, meta.Schema, ImageVersion, imageSchema())}
	}
	peek := msgpack.NewDecoder(bytes.NewReader(body))
	if n, err := peek.DecodeArrayLen(); err == nil && n > 0 {
		if v, err := peek.DecodeInt(); err == nil && v != ImageVersion {
			var meta Meta
			if msgpack.NewDecoder(bytes.NewReader(body)).Decode(&meta) != nil {
				meta = Meta{FormatVersion: v}
			}
			return nil, meta, stale(meta)
		}
	}
	dec := msgpack.NewDecoder(bytes.NewReader(body))
	var meta Meta
	if err := dec.Decode(&meta); err != nil {
		return nil, Meta{}, badImage(err, "meta")
	}
	if meta.FormatVersion != ImageVersion || meta.Schema != imageSchema() {
		return nil, meta, stale(meta)
	}
	return dec, meta, nil
}

// fromWire builds the program a wire program stands for: one *sir.Unit
// per table entry, shared by every place that names its index. Every
// table entry must be named (an image with others would not encode back
// to itself).
func fromWire(w *wireProgram) (*Program, error) {
	units := make([]*sir.Unit, len(w.Units))
	for i, wu := range w.Units {
		u, err := readUnit(wu.Name, wu.Code)
		if err != nil {
			return nil, fmt.Errorf("unit %d (%q): %w", i, wu.Name, err)
		}
		units[i] = u
	}
	used := make([]bool, len(units))
	var err error
	unit := func(i int, what string) *sir.Unit {
		if i == -1 {
			return nil
		}
		if i < 0 || i >= len(units) {
			if err == nil {
				err = fmt.Errorf("%s: unit %d of %d missing", what, i, len(units))
			}
			return nil
		}
		used[i] = true
		return units[i]
	}
	p := &Program{Scopes: w.Scopes, Signals: w.Signals, Functions: w.Functions, Dump: w.Dump,
		Timescale: w.Timescale, HasTimescale: w.HasTimescale, Layout: w.Layout, Triggers: w.Triggers,
		CombRead: w.CombRead, Formats: w.Formats, Readmems: w.Readmems, Loops: w.Loops, LoopSites: w.LoopSites,
		Plan: w.Plan, Warnings: w.Warnings}
	p.Initial, p.Settle, p.Event = unit(w.Initial, "initial"), unit(w.Settle, "settle"), unit(w.Event, "event")
	for i, ev := range w.Events {
		p.Events = append(p.Events, Event{Name: ev.Name, Trigger: ev.Trigger, Edge: ev.Edge,
			Fused: unit(ev.Fused, fmt.Sprint("event ", i))})
	}
	for i, tk := range w.Ticks {
		p.Ticks = append(p.Ticks, Tick{Clock: tk.Clock, Trigger: tk.Trigger, Rise: tk.Rise, Fall: tk.Fall,
			Unit: unit(tk.Unit, fmt.Sprint("tick loop ", i)), Count: tk.Count, Batch: tk.Batch})
	}
	if wp := w.Parallel; wp != nil {
		part := func(wk *wirePartitioned) *Partitioned {
			if wk == nil {
				return nil
			}
			k := &Partitioned{Name: wk.Name, SingleCost: wk.SingleCost, Makespan: wk.Makespan, Lanes: make([][]*Task, len(wk.Lanes))}
			for li, ts := range wk.Lanes {
				for _, t := range ts {
					k.Lanes[li] = append(k.Lanes[li], &Task{Index: t.Index, Lane: t.Lane, Label: t.Label, Cost: t.Cost,
						Unit: unit(t.Unit, wk.Name), Waits: t.Waits, Effects: t.Effects})
				}
			}
			return k
		}
		par := &Parallel{Lanes: wp.Lanes, Status: wp.Status, Rings: wp.Rings, Reasons: wp.Reasons, Settle: part(wp.Settle)}
		for _, wk := range wp.Fused {
			par.Fused = append(par.Fused, part(wk))
		}
		for _, wt := range wp.Ticks {
			if wt == nil {
				par.Ticks = append(par.Ticks, nil)
				continue
			}
			lt := &LaneTick{Tick: wt.Tick, Name: wt.Name, Arg: wt.Arg, Effects: wt.Effects}
			for _, i := range wt.Units {
				lt.Units = append(lt.Units, unit(i, wt.Name))
			}
			par.Ticks = append(par.Ticks, lt)
		}
		p.Parallel = par
	}
	if err != nil {
		return nil, err
	}
	for i, u := range used {
		if !u {
			return nil, fmt.Errorf("unit %d of %d is named nowhere", i, len(w.Units))
		}
	}
	if p.Plan != nil {
		for i, k := range p.Plan.Kernels {
			if k == nil {
				return nil, fmt.Errorf("plan kernel %d missing", i)
			}
		}
	}
	return p, nil
}

// A unit's code (wireUnit.Code) is a byte string of unsigned (u) and
// zigzag-signed (s) varints, as encoding/binary writes them:
//
//	unit:  u len(Regs), s Width each; u len(Blocks), block each
//	block: u len(Insts), inst each; term
//	inst:  Op (one byte), u mask, then the fields whose mask bit is set,
//	       in bit order: Dst A B C (s), Imm (u), Lo Size (s), Addr's Home
//	       Offset Index Stride Count (s), Ev (event)
//	event: u Kind, s Format, s Level, u len(Args), arg each
//	arg:   u len(Words), s word each, s Width, Signed (one byte, 0 or 1)
//	term:  Kind (one byte), s Cond, s Then, s Else, u Status
//
// Fields left out are zero. TestUnitCodec checks that every field of
// sir.Inst survives; a change of the sir types changes the schema
// fingerprint (schemaText walks them) and needs a new ImageVersion.
const (
	instDst = 1 << iota
	instA
	instB
	instC
	instImm
	instLo
	instSize
	instHome
	instOffset
	instIndex
	instStride
	instCount
	instEv
	instFields = iota
)

// appendUnit appends u's code to b.
func appendUnit(b []byte, u *sir.Unit) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(u.Regs)))
	for _, r := range u.Regs {
		b = binary.AppendVarint(b, int64(r.Width))
	}
	b = binary.AppendUvarint(b, uint64(len(u.Blocks)))
	for bi, bl := range u.Blocks {
		if bl == nil {
			return nil, fmt.Errorf("b%d is nil", bi)
		}
		b = binary.AppendUvarint(b, uint64(len(bl.Insts)))
		for i := range bl.Insts {
			in := &bl.Insts[i]
			var mask uint64
			set := func(bit uint64, nonzero bool) {
				if nonzero {
					mask |= bit
				}
			}
			set(instDst, in.Dst != 0)
			set(instA, in.A != 0)
			set(instB, in.B != 0)
			set(instC, in.C != 0)
			set(instImm, in.Imm != 0)
			set(instLo, in.Lo != 0)
			set(instSize, in.Size != 0)
			set(instHome, in.Addr.Home != 0)
			set(instOffset, in.Addr.Offset != 0)
			set(instIndex, in.Addr.Index != 0)
			set(instStride, in.Addr.Stride != 0)
			set(instCount, in.Addr.Count != 0)
			set(instEv, in.Ev != nil)
			b = append(b, byte(in.Op))
			b = binary.AppendUvarint(b, mask)
			for _, f := range [...]struct {
				bit uint64
				v   int64
			}{{instDst, int64(in.Dst)}, {instA, int64(in.A)}, {instB, int64(in.B)}, {instC, int64(in.C)}} {
				if mask&f.bit != 0 {
					b = binary.AppendVarint(b, f.v)
				}
			}
			if mask&instImm != 0 {
				b = binary.AppendUvarint(b, in.Imm)
			}
			for _, f := range [...]struct {
				bit uint64
				v   int64
			}{{instLo, int64(in.Lo)}, {instSize, int64(in.Size)}, {instHome, int64(in.Addr.Home)}, {instOffset, int64(in.Addr.Offset)},
				{instIndex, int64(in.Addr.Index)}, {instStride, int64(in.Addr.Stride)}, {instCount, int64(in.Addr.Count)}} {
				if mask&f.bit != 0 {
					b = binary.AppendVarint(b, f.v)
				}
			}
			if ev := in.Ev; ev != nil {
				b = binary.AppendUvarint(b, uint64(ev.Kind))
				b = binary.AppendVarint(b, int64(ev.Format))
				b = binary.AppendVarint(b, int64(ev.Level))
				b = binary.AppendUvarint(b, uint64(ev.Seq))
				b = binary.AppendUvarint(b, uint64(len(ev.Args)))
				for _, a := range ev.Args {
					b = binary.AppendUvarint(b, uint64(len(a.Words)))
					for _, w := range a.Words {
						b = binary.AppendVarint(b, int64(w))
					}
					b = binary.AppendVarint(b, int64(a.Width))
					b = append(b, boolByte(a.Signed))
				}
			}
		}
		t := &bl.Term
		b = append(b, byte(t.Kind))
		b = binary.AppendVarint(b, int64(t.Cond))
		b = binary.AppendVarint(b, int64(t.Then))
		b = binary.AppendVarint(b, int64(t.Else))
		b = binary.AppendUvarint(b, uint64(t.Status))
	}
	return b, nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// codeReader reads a unit's code; the first error sticks and every read
// after it gives zero.
type codeReader struct {
	b   []byte
	err error
}

func (r *codeReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("code offset %d: "+format, append([]any{len(r.b)}, args...)...)
	}
	r.b = nil
}

func (r *codeReader) byte() byte {
	if len(r.b) == 0 {
		r.fail("truncated")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *codeReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *codeReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// int reads a signed varint that must fit in lo..hi.
func (r *codeReader) int(lo, hi int64) int64 {
	v := r.varint()
	if v < lo || v > hi {
		r.fail("%d out of range", v)
		return 0
	}
	return v
}

// uint reads an unsigned varint that must be at most hi.
func (r *codeReader) uint(hi uint64) uint64 {
	v := r.uvarint()
	if v > hi {
		r.fail("%d out of range", v)
		return 0
	}
	return v
}

func (r *codeReader) i32() int32 { return int32(r.int(math.MinInt32, math.MaxInt32)) }
func (r *codeReader) i() int     { return int(r.int(math.MinInt, math.MaxInt)) }

// count reads a length whose every element takes at least size bytes of
// what remains.
func (r *codeReader) count(size int) int {
	v := r.uvarint()
	if v > uint64(len(r.b)/size) {
		r.fail("%d elements claimed, %d bytes remain", v, len(r.b))
		return 0
	}
	return int(v)
}

// makeSlice makes a slice of n elements, nil for none (as the builders
// leave an empty list).
func makeSlice[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}

// readUnit decodes a unit's code (appendUnit). It checks the encoding,
// not the unit: Link runs sir.Check.
func readUnit(name string, code []byte) (*sir.Unit, error) {
	r := &codeReader{b: code}
	u := &sir.Unit{Name: name}
	u.Regs = makeSlice[sir.RegInfo](r.count(1))
	for i := range u.Regs {
		u.Regs[i].Width = r.i()
	}
	const minBlock, minInst = 1 + 5, 2 // a block's count and term; an op and a mask
	blocks := makeSlice[sir.Block](r.count(minBlock))
	u.Blocks = makeSlice[*sir.Block](len(blocks))
	for bi := range blocks {
		bl := &blocks[bi]
		u.Blocks[bi] = bl
		bl.Insts = makeSlice[sir.Inst](r.count(minInst))
		for i := range bl.Insts {
			in := &bl.Insts[i]
			in.Op = sir.Op(r.byte())
			mask := r.uvarint()
			if mask >= 1<<instFields {
				r.fail("instruction field mask %#x", mask)
			}
			for _, f := range [...]struct {
				bit uint64
				p   *sir.Reg
			}{{instDst, &in.Dst}, {instA, &in.A}, {instB, &in.B}, {instC, &in.C}} {
				if mask&f.bit != 0 {
					*f.p = sir.Reg(r.i32())
				}
			}
			if mask&instImm != 0 {
				in.Imm = r.uvarint()
			}
			if mask&instLo != 0 {
				in.Lo = r.i()
			}
			if mask&instSize != 0 {
				in.Size = r.i()
			}
			if mask&instHome != 0 {
				in.Addr.Home = sir.HomeID(r.i32())
			}
			if mask&instOffset != 0 {
				in.Addr.Offset = r.i()
			}
			if mask&instIndex != 0 {
				in.Addr.Index = sir.Reg(r.i32())
			}
			if mask&instStride != 0 {
				in.Addr.Stride = r.i()
			}
			if mask&instCount != 0 {
				in.Addr.Count = r.i()
			}
			if mask&instEv != 0 {
				ev := &sir.Event{Kind: sir.EventKind(r.uint(math.MaxUint8)), Format: r.i(), Level: r.i()}
				ev.Seq = uint32(r.uint(math.MaxUint32))
				const minArg = 1 + 1 + 1 // words count, width, signed
				ev.Args = makeSlice[sir.EventArg](r.count(minArg))
				for ai := range ev.Args {
					a := &ev.Args[ai]
					a.Words = makeSlice[sir.Reg](r.count(1))
					for wi := range a.Words {
						a.Words[wi] = sir.Reg(r.i32())
					}
					a.Width = r.i()
					switch r.byte() {
					case 0:
					case 1:
						a.Signed = true
					default:
						r.fail("Signed is not 0 or 1")
					}
				}
				in.Ev = ev
			}
			if r.err != nil {
				return nil, r.err
			}
		}
		t := &bl.Term
		t.Kind = sir.TermKind(r.byte())
		t.Cond = sir.Reg(r.i32())
		t.Then = sir.BlockID(r.i32())
		t.Else = sir.BlockID(r.i32())
		t.Status = sir.Status(r.uint(math.MaxUint32))
		if r.err != nil {
			return nil, r.err
		}
	}
	if len(r.b) != 0 {
		r.fail("%d bytes after the last block", len(r.b))
	}
	return u, r.err
}

// maxMsgpackDepth bounds the nesting of a body's values (the encoded
// types nest about ten deep).
const maxMsgpackDepth = 64

// checkMsgpack checks that b holds exactly n well-formed msgpack values
// nested at most maxMsgpackDepth deep, and that every length a value
// claims (string, binary, extension, array, map) fits in the bytes that
// remain. msgpack's decoder allocates a slice of the claimed length before
// it reads the elements (its allocation limit does not work in v5.4.1),
// so this is what keeps a forged length from allocating more than the
// largest decoded element (a Signal, some 250 bytes) per byte of image.
func checkMsgpack(b []byte, n int) error {
	c := &mpChecker{b: b}
	for range n {
		if err := c.value(0); err != nil {
			return err
		}
	}
	if c.pos != len(b) {
		return fmt.Errorf("%d bytes after the last value", len(b)-c.pos)
	}
	return nil
}

type mpChecker struct {
	b   []byte
	pos int
}

// need reports an error unless k more bytes remain.
func (c *mpChecker) need(k uint64) error {
	if k > uint64(len(c.b)-c.pos) {
		return fmt.Errorf("offset %d: %d bytes claimed, %d remain", c.pos, k, len(c.b)-c.pos)
	}
	return nil
}

// uint reads a big-endian unsigned integer of size bytes.
func (c *mpChecker) uint(size int) (uint64, error) {
	if err := c.need(uint64(size)); err != nil {
		return 0, err
	}
	var v uint64
	for _, x := range c.b[c.pos : c.pos+size] {
		v = v<<8 | uint64(x)
	}
	c.pos += size
	return v, nil
}

// skip passes k bytes.
func (c *mpChecker) skip(k uint64) error {
	if err := c.need(k); err != nil {
		return err
	}
	c.pos += int(k)
	return nil
}

func (c *mpChecker) value(depth int) error {
	if depth > maxMsgpackDepth {
		return fmt.Errorf("offset %d: values nested over %d deep", c.pos, maxMsgpackDepth)
	}
	t, err := c.uint(1)
	if err != nil {
		return err
	}
	lenSize := func(k int) uint64 { // the size of a length field
		v, e := c.uint(k)
		if e != nil {
			err = e
		}
		return v
	}
	var elems uint64 // array elements (map: twice its pairs)
	switch {
	case t <= 0x7f, t >= 0xe0, t == 0xc0, t == 0xc2, t == 0xc3: // fixint, nil, bool
		return nil
	case t <= 0x8f: // fixmap
		elems = 2 * (t & 0x0f)
	case t <= 0x9f: // fixarray
		elems = t & 0x0f
	case t <= 0xbf: // fixstr
		return c.skip(t & 0x1f)
	case t == 0xc4 || t == 0xd9: // bin8, str8
		n := lenSize(1)
		if err != nil {
			return err
		}
		return c.skip(n)
	case t == 0xc5 || t == 0xda: // bin16, str16
		n := lenSize(2)
		if err != nil {
			return err
		}
		return c.skip(n)
	case t == 0xc6 || t == 0xdb: // bin32, str32
		n := lenSize(4)
		if err != nil {
			return err
		}
		return c.skip(n)
	case t >= 0xc7 && t <= 0xc9: // ext8, ext16, ext32: length, type, data
		n := lenSize(1 << (t - 0xc7))
		if err != nil {
			return err
		}
		return c.skip(n + 1)
	case t == 0xca: // float32
		return c.skip(4)
	case t == 0xcb: // float64
		return c.skip(8)
	case t >= 0xcc && t <= 0xcf: // uint8..uint64
		return c.skip(1 << (t - 0xcc))
	case t >= 0xd0 && t <= 0xd3: // int8..int64
		return c.skip(1 << (t - 0xd0))
	case t >= 0xd4 && t <= 0xd8: // fixext1..fixext16: type, data
		return c.skip(1 + 1<<(t-0xd4))
	case t == 0xdc: // array16
		elems = lenSize(2)
	case t == 0xdd: // array32
		elems = lenSize(4)
	case t == 0xde: // map16
		elems = 2 * lenSize(2)
	case t == 0xdf: // map32
		elems = 2 * lenSize(4)
	default: // 0xc1: never used
		return fmt.Errorf("offset %d: invalid type byte %#x", c.pos-1, t)
	}
	if err != nil {
		return err
	}
	if err := c.need(elems); err != nil { // every element takes a byte at least
		return err
	}
	for range elems {
		if err := c.value(depth + 1); err != nil {
			return err
		}
	}
	return nil
}

// imageSchema is a fingerprint of the encoded types' shape: field names
// and types, recursively. An image written with another shape is stale.
var imageSchema = sync.OnceValue(func() uint64 {
	h := fnv.New64a()
	h.Write([]byte(schemaText()))
	return h.Sum64()
})

// schemaText spells the encoded types' shape (Meta, then wireProgram).
func schemaText() string {
	var b bytes.Buffer
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Pointer:
			b.WriteString("*")
			walk(t.Elem())
		case reflect.Slice:
			b.WriteString("[]")
			walk(t.Elem())
		case reflect.Array:
			fmt.Fprintf(&b, "[%d]", t.Len())
			walk(t.Elem())
		case reflect.Struct:
			b.WriteString(t.Name())
			if seen[t] {
				return
			}
			seen[t] = true
			b.WriteString("{")
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() || f.Tag.Get("msgpack") == "-" {
					continue
				}
				b.WriteString(f.Name + " ")
				walk(f.Type)
				b.WriteString("; ")
			}
			b.WriteString("}")
		default:
			b.WriteString(t.Kind().String())
		}
	}
	walk(reflect.TypeFor[Meta]())
	b.WriteString("\n")
	walk(reflect.TypeFor[wireProgram]())
	b.WriteString("\n")
	walk(reflect.TypeFor[sir.Unit]()) // appendUnit's source
	return b.String()
}
