package program_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
)

// imageDesign is a small design for the image tests.
type imageDesign struct {
	name, top, src string
	threads        int // > 1: Threads(n), Partition always
	hex            string
}

// imageDesigns cover the program's tables: runtime events with formats,
// $readmemh into an array, a fused tick loop, partitioned kernels.
var imageDesigns = []imageDesign{
	{name: "counter", top: "t", src: `
module t(input logic clk);
  logic [7:0] n = 0;
  always_ff @(posedge clk) begin
    n <= n + 1;
    if (n == 8'd5) $finish;
  end
endmodule
`},
	{name: "display", top: "t", src: `
module t(input logic clk);
  logic [15:0] a = 16'h1234;
  logic signed [7:0] s = -8'sd3;
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    a <= {a[14:0], a[15]};
    $display("cyc=%0d a=%h s=%d %b %m", cyc, a, s, a[3:0]);
    $write("w%0d ", cyc);
    if (cyc == 3) $error("three: %x", a);
    if (cyc == 6) $finish;
  end
endmodule
`},
	{name: "readmem", top: "t", hex: "0a\n0b\n0c\n0d\n", src: `
module t(input logic clk);
  logic [7:0] mem [0:3];
  logic [7:0] sum = 0;
  logic [1:0] i = 0;
  initial $readmemh("HEX", mem);
  always_ff @(posedge clk) begin
    i <= i + 1;
    sum <= sum + mem[i];
    mem[i] <= mem[i] + 1;
  end
endmodule
`},
	{name: "parallel", top: "t", threads: 2, src: `
module lane #(parameter int K = 1) (input logic clk, input logic [31:0] x, output logic [31:0] y);
  logic [31:0] acc = K;
  always_ff @(posedge clk) acc <= acc * 5 + x + K;
  assign y = acc ^ (acc >> 3);
endmodule
module t(input logic clk, input logic [31:0] x, output logic [31:0] y);
  logic [31:0] y0, y1, y2, y3;
  lane #(1) l0(.clk, .x, .y(y0));
  lane #(2) l1(.clk, .x(x + 1), .y(y1));
  lane #(3) l2(.clk, .x(y0), .y(y2));
  lane #(4) l3(.clk, .x(y1), .y(y3));
  assign y = y0 + y1 + y2 + y3;
endmodule
`},
}

// build compiles d (its $readmemh file written to a temporary directory).
func (d imageDesign) build(t testing.TB) *compile.Program {
	t.Helper()
	src := d.src
	if d.hex != "" {
		path := filepath.Join(t.TempDir(), "mem.hex")
		if err := os.WriteFile(path, []byte(d.hex), 0o644); err != nil {
			t.Fatal(err)
		}
		src = strings.ReplaceAll(src, "HEX", path)
	}
	b := compile.NewBuilder().Source(d.name+".sv", src).Top(d.top).Output(io.Discard)
	if d.threads > 1 {
		b = b.Lanes(d.threads).Partition(compile.PartitionAlways)
	}
	p, err := b.Build()
	if err != nil {
		t.Fatalf("%s: %v", d.name, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func testMeta() program.Meta {
	return program.Meta{WeftVersion: "test", Options: "threads=1",
		Deps: []program.Dep{{Path: "a.sv", Sum: sha256.Sum256([]byte("a"))}, {Path: "b.sv"}}}
}

func encode(t testing.TB, p *program.Program) []byte {
	t.Helper()
	b, err := program.Encode(p, testMeta())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sirText(t testing.TB, p *program.Program) string {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteSIR(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestImageRoundTrip decodes each design's image and checks that it
// encodes to the same bytes, dumps the same SIR and equals the original
// field by field, and that units shared in the original are shared in the
// copy.
func TestImageRoundTrip(t *testing.T) {
	for _, d := range imageDesigns {
		t.Run(d.name, func(t *testing.T) {
			cp := d.build(t)
			p := cp.Program
			switch {
			case d.threads > 1 && (p.Parallel == nil || len(p.Parallel.Kernels()) == 0):
				t.Fatalf("no partitioned kernels (reasons: %v)", p.Parallel)
			case d.name == "display" && len(p.Formats) == 0:
				t.Fatal("no formats")
			case d.name == "readmem" && len(p.Readmems) != 1:
				t.Fatalf("readmems: %+v", p.Readmems)
			case d.name == "counter" && len(p.Ticks) == 0:
				t.Fatal("no tick loop")
			}
			img := encode(t, p)
			if again := encode(t, p); !bytes.Equal(img, again) {
				t.Fatal("two encodings of one program differ")
			}
			q, meta, err := program.Decode(img)
			if err != nil {
				t.Fatal(err)
			}
			want := testMeta()
			want.FormatVersion, want.ISA = program.ImageVersion, runtime.GOARCH
			meta.Schema = 0
			if !reflect.DeepEqual(meta, want) {
				t.Errorf("meta = %+v, want %+v", meta, want)
			}
			if re := encode(t, q); !bytes.Equal(img, re) {
				t.Errorf("re-encoding the decoded program gives other bytes (%d and %d)", len(img), len(re))
			}
			if a, b := sirText(t, p), sirText(t, q); a != b {
				t.Errorf("SIR differs after the round trip:\n%s", firstDiff(a, b))
			}
			if !reflect.DeepEqual(exported(p), exported(q)) {
				t.Error("the decoded program differs from the original")
			}
			if q.Top == nil || q.Top.Path != p.Top.Path {
				t.Errorf("Top = %v", q.Top)
			}
			for _, s := range p.Signals {
				if r, ok := q.Lookup(s.Path); !ok || r.Path != s.Path || r.Scope() == nil != (s.Scope() == nil) {
					t.Fatalf("Lookup(%s) after the round trip: %v %v", s.Path, r, ok)
				}
			}
			checkSharing(t, p, q)
		})
	}
}

// checkSharing checks that two places hold the same unit in q exactly
// when they do in p.
func checkSharing(t *testing.T, p, q *program.Program) {
	t.Helper()
	up, uq := unitPlaces(p), unitPlaces(q)
	if len(up) != len(uq) {
		t.Fatalf("%d unit places, %d after the round trip", len(up), len(uq))
	}
	shared := 0
	for i := range up {
		for j := i + 1; j < len(up); j++ {
			if (up[i] == up[j]) != (uq[i] == uq[j]) {
				t.Fatalf("unit places %d and %d: shared %v, after the round trip %v", i, j, up[i] == up[j], uq[i] == uq[j])
			}
			if up[i] == up[j] {
				shared++
			}
		}
	}
	t.Logf("%d unit places, %d shared pairs", len(up), shared)
}

// unitPlaces lists every unit pointer a program holds, place by place.
func unitPlaces(p *program.Program) []*sir.Unit {
	us := []*sir.Unit{p.Initial, p.Settle, p.Event}
	for _, ev := range p.Events {
		us = append(us, ev.Fused)
	}
	for _, tk := range p.Ticks {
		us = append(us, tk.Unit)
	}
	if par := p.Parallel; par != nil {
		for _, k := range append([]*program.Partitioned{par.Settle}, par.Fused...) {
			if k == nil {
				us = append(us, nil)
				continue
			}
			for _, ts := range k.Lanes {
				for _, t := range ts {
					us = append(us, t.Unit)
				}
			}
		}
	}
	return us
}

// exported is a program's exported fields (reflect.DeepEqual would also
// compare the lookup tables Link builds, which hold pointers into each).
func exported(p *program.Program) program.Program {
	c := *p
	c.Top = nil
	c.Layout = new(program.Layout)
	*c.Layout = program.Layout{Kind: p.Layout.Kind, Bytes: p.Layout.Bytes, Objects: p.Layout.Objects, Ring: p.Layout.Ring,
		RingCap: p.Layout.RingCap, Triggers: p.Layout.Triggers, Prev: p.Layout.Prev, Sys: p.Layout.Sys,
		Staging: p.Layout.Staging, Init: p.Layout.Init, Segments: p.Layout.Segments}
	c.Scopes, c.Signals = nil, nil
	for _, sc := range p.Scopes {
		c.Scopes = append(c.Scopes, &program.Scope{Name: sc.Name, Path: sc.Path, Module: sc.Module, ParentIndex: sc.ParentIndex, Pos: sc.Pos})
	}
	for _, s := range p.Signals {
		n := *s
		c.Signals = append(c.Signals, &program.Signal{ID: n.ID, Name: n.Name, Path: n.Path, Aliases: n.Aliases, ScopeIndex: n.ScopeIndex,
			Kind: n.Kind, Width: n.Width, Signed: n.Signed, Packed: n.Packed, Unpacked: n.Unpacked, TypeName: n.TypeName, Pos: n.Pos, NoForce: n.NoForce})
	}
	// A program made with empty slices decodes with nil ones and the
	// other way round; compare them as equal.
	normalize(reflect.ValueOf(&c).Elem(), map[uintptr]bool{})
	return c
}

// normalize sets every empty slice reachable from v to nil.
func normalize(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		normalize(v.Elem(), seen)
	case reflect.Slice:
		if v.Len() == 0 {
			if !v.IsNil() && v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.Len() {
			normalize(v.Index(i), seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				normalize(v.Field(i), seen)
			}
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  %q\n  %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d and %d lines", len(al), len(bl))
}

// smallImage is the image of the smallest design.
func smallImage(t testing.TB) []byte {
	t.Helper()
	return encode(t, imageDesigns[0].build(t).Program)
}

// mustRefuse decodes b and wants an ErrBadImage error and no program.
func mustRefuse(t *testing.T, what string, b []byte) {
	t.Helper()
	p, _, err := program.Decode(b)
	if err == nil || p != nil {
		t.Fatalf("%s: Decode = %v, %v; want an error", what, p, err)
	}
	if !errors.Is(err, program.ErrBadImage) {
		t.Fatalf("%s: %v does not match ErrBadImage", what, err)
	}
	var ie *program.ImageError
	if !errors.As(err, &ie) {
		t.Fatalf("%s: %T is not an *ImageError", what, err)
	}
}

func TestImageCorruption(t *testing.T) {
	img := smallImage(t)
	t.Logf("image: %d bytes", len(img))
	buf := make([]byte, len(img))
	for i := range img {
		copy(buf, img)
		buf[i] ^= 1 << (i % 8)
		mustRefuse(t, fmt.Sprintf("bit %d of byte %d flipped", i%8, i), buf)
	}
	for n := range len(img) {
		mustRefuse(t, fmt.Sprintf("truncated to %d bytes", n), img[:n:n])
	}
	mustRefuse(t, "nil", nil)
	mustRefuse(t, "empty", []byte{})
	mustRefuse(t, "a byte appended", append(append([]byte{}, img...), 0))
	rng := rand.New(rand.NewSource(1))
	for i := range 200 {
		b := make([]byte, rng.Intn(2*len(img)))
		rng.Read(b)
		if i%2 == 0 && len(b) >= len("weft-image\x00") {
			copy(b, "weft-image\x00") // past the magic, into the header checks
		}
		mustRefuse(t, "random bytes", b)
	}
}

// reseal recomputes the header of an image whose body was changed, as a
// foreign writer would.
func reseal(b []byte) []byte {
	const header = len("weft-image\x00") + 4 + 8 + 32
	if len(b) < header {
		return b
	}
	b = append([]byte{}, b...)
	binary.LittleEndian.PutUint64(b[header-40:], uint64(len(b)-header))
	sum := sha256.Sum256(b[header:])
	copy(b[header-32:], sum[:])
	return b
}

// TestImageStale changes the image's FormatVersion (the first field of
// the body's first value) and wants an ErrStaleImage error with the meta.
func TestImageStale(t *testing.T) {
	img := smallImage(t)
	const header = len("weft-image\x00") + 4 + 8 + 32
	// Meta is a 6-element array (0x96) whose first element is the
	// version as a positive fixint.
	if img[header] != 0x96 || img[header+1] != program.ImageVersion {
		t.Fatalf("body starts % x, want 96 %02x", img[header:header+2], program.ImageVersion)
	}
	old := append([]byte{}, img...)
	old[header+1]++
	old = reseal(old)
	p, meta, err := program.Decode(old)
	if p != nil || !errors.Is(err, program.ErrStaleImage) || errors.Is(err, program.ErrBadImage) {
		t.Fatalf("Decode = %v, %v; want ErrStaleImage", p, err)
	}
	if meta.FormatVersion != program.ImageVersion+1 || meta.WeftVersion != "test" {
		t.Errorf("meta = %+v", meta)
	}
	if _, err := program.ReadMeta(old); !errors.Is(err, program.ErrStaleImage) {
		t.Errorf("ReadMeta: %v", err)
	}
	meta, err = program.ReadMeta(img)
	if err != nil || meta.WeftVersion != "test" || len(meta.Deps) != 2 {
		t.Errorf("ReadMeta = %+v, %v", meta, err)
	}
	// A later version whose Meta has another shape is stale too: a
	// 7-element Meta array (version 99, then six nils) and a nil program.
	other := append(append([]byte{}, img[:header]...), 0x97, 99, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0)
	p, meta, err = program.Decode(reseal(other))
	if p != nil || !errors.Is(err, program.ErrStaleImage) || meta.FormatVersion != 99 {
		t.Fatalf("Decode = %v, %+v, %v; want ErrStaleImage and version 99", p, meta, err)
	}
}

// TestImageForeignBody mutates the body and recomputes the checksum: the
// image must be refused, or decode to a program that links. Decode must
// never panic.
func TestImageForeignBody(t *testing.T) {
	imgs := [][]byte{smallImage(t), encode(t, imageDesigns[1].build(t).Program)}
	rng := rand.New(rand.NewSource(2))
	deadline := time.Now().Add(3 * time.Second)
	if testing.Short() {
		deadline = time.Now().Add(time.Second)
	}
	n, accepted := 0, 0
	for ; n < 5000 && time.Now().Before(deadline); n++ {
		img := imgs[n%len(imgs)]
		b := reseal(mutate(rng, img, len("weft-image\x00")+4+8+32))
		p, _, err := program.Decode(b)
		if err == nil {
			if p == nil {
				t.Fatal("Decode returned neither a program nor an error")
			}
			stable(t, p)
			accepted++
		} else if p != nil {
			t.Fatal("Decode returned a program and an error")
		}
	}
	t.Logf("%d mutations, %d accepted", n, accepted)
}

// stable checks that a program Decode accepted encodes, decodes and
// encodes to the same bytes again.
func stable(t *testing.T, p *program.Program) {
	t.Helper()
	img, err := program.Encode(p, program.Meta{})
	if err != nil {
		t.Fatalf("a decoded program does not encode: %v", err)
	}
	q, _, err := program.Decode(img)
	if err != nil {
		t.Fatalf("a decoded program's image does not decode: %v", err)
	}
	if again, err := program.Encode(q, program.Meta{}); err != nil || !bytes.Equal(again, img) {
		t.Fatal("a decoded program's image does not encode back to itself")
	}
}

// mutate changes a few bytes of b's body (after skip bytes): flips,
// random bytes, deletions, insertions, duplicated runs.
func mutate(rng *rand.Rand, b []byte, skip int) []byte {
	out := append([]byte{}, b...)
	for range 1 + rng.Intn(3) {
		if len(out) <= skip+1 {
			break
		}
		i := skip + rng.Intn(len(out)-skip)
		switch rng.Intn(6) {
		case 0:
			out[i] ^= 1 << rng.Intn(8)
		case 1:
			out[i] = byte(rng.Intn(256))
		case 2: // a byte that claims a long container or string
			out[i] = []byte{0xdc, 0xdd, 0xde, 0xdf, 0xdb, 0xc6, 0xc9}[rng.Intn(7)]
		case 3:
			out = append(out[:i], out[i+1:]...)
		case 4:
			out = append(out[:i], append([]byte{byte(rng.Intn(256))}, out[i:]...)...)
		case 5:
			j := i + rng.Intn(min(16, len(out)-i))
			out = append(out[:j], append(append([]byte{}, out[i:j]...), out[j:]...)...)
		}
	}
	return out
}

func FuzzDecode(f *testing.F) {
	img := encode(f, imageDesigns[0].build(f).Program)
	f.Add(img)
	f.Add([]byte{})
	f.Add(img[:len(img)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, b := range [][]byte{b, reseal(b)} {
			p, _, err := program.Decode(b)
			if (p == nil) == (err == nil) {
				t.Fatalf("Decode = %v, %v: want a program or an error", p, err)
			}
			if p != nil {
				stable(t, p)
			}
		}
	})
}

// benchDesigns are the bundled examples (paths from this directory).
var benchDesigns = []struct {
	name, top string
	files     []string
}{
	{"uart", "uart_top", []string{"uart_pkg.sv", "uart_fifo.sv", "uart_tx.sv", "uart_rx.sv", "uart_top.sv"}},
	{"cores", "cores", []string{"cores.sv"}},
}

func benchProgram(b *testing.B, name, top string, files []string) *program.Program {
	b.Helper()
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join("..", "examples", name, "rtl", f))
	}
	p, err := compile.NewBuilder().Files(paths...).Top(top).Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p.Program
}

// BenchmarkImageEncode measures Encode of a bundled design's program.
func BenchmarkImageEncode(b *testing.B) {
	for _, d := range benchDesigns {
		b.Run(d.name, func(b *testing.B) {
			p := benchProgram(b, d.name, d.top, d.files)
			var n int
			for b.Loop() {
				img, err := program.Encode(p, program.Meta{})
				if err != nil {
					b.Fatal(err)
				}
				n = len(img)
			}
			b.ReportMetric(float64(n), "image-bytes")
		})
	}
}

// BenchmarkImageDecode measures Decode (with its Link) of a bundled
// design's image.
func BenchmarkImageDecode(b *testing.B) {
	for _, d := range benchDesigns {
		b.Run(d.name, func(b *testing.B) {
			img, err := program.Encode(benchProgram(b, d.name, d.top, d.files), program.Meta{})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(img)))
			for b.Loop() {
				if _, _, err := program.Decode(img); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
