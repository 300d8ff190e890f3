package scoreboard

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	// go-cmp is Google's well-kept library for comparing Go values in
	// tests (already in go.sum); its Diff shows which fields of two
	// structs differ, which %+v of both would leave the reader to find.
	"github.com/google/go-cmp/cmp"
)

// defaultEqual is the match used without Compare: bytes.Equal for
// []byte (so nil and empty payloads are equal), reflect.DeepEqual
// otherwise.
func defaultEqual[T any](got, want T) bool {
	if g, ok := any(got).([]byte); ok {
		if w, ok := any(want).([]byte); ok {
			return bytes.Equal(g, w)
		}
	}
	return reflect.DeepEqual(got, want)
}

// show renders one item: []byte as its length and first bytes in hex,
// integers in hex and decimal, anything else with %+v.
func show(v any) string {
	if b, ok := v.([]byte); ok {
		const n = 16
		if len(b) <= n {
			return fmt.Sprintf("[]byte(%d) % x", len(b), b)
		}
		return fmt.Sprintf("[]byte(%d) % x ...", len(b), b[:n])
	}
	if s, ok := integer(v); ok {
		return s
	}
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%+v", v)
}

// integer renders an integer as hex and decimal ("0x3a (58)"); ok is
// false for other kinds. Types with a String method keep it: an enum
// reads better by name.
func integer(v any) (string, bool) {
	if _, ok := v.(fmt.Stringer); ok {
		return "", false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := rv.Int()
		if i < 0 {
			return fmt.Sprintf("-%#x (%d)", uint64(-i), i), true
		}
		return fmt.Sprintf("%#x (%d)", i, i), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		return fmt.Sprintf("%#x (%d)", u, u), true
	}
	return "", false
}

// diff renders how got differs from want, in the way that suits the
// type: a hex dump at the first differing byte, hex and decimal, or a
// cmp.Diff of composite values.
func diff(got, want any) string {
	if g, ok := got.([]byte); ok {
		if w, ok := want.([]byte); ok {
			return bytesDiff(g, w)
		}
	}
	if _, ok := integer(got); ok {
		return fmt.Sprintf("got %s, want %s", show(got), show(want))
	}
	switch reflect.ValueOf(got).Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer:
		if d, ok := cmpDiff(got, want); ok {
			return "(-want +got):\n" + strings.TrimRight(d, "\n")
		}
	}
	return fmt.Sprintf("got %s, want %s", show(got), show(want))
}

// cmpDiff is cmp.Diff(want, got), with unexported fields shown (a
// scoreboard only reads them) and a panic (a func field, a cycle cmp
// refuses) turned into ok = false, so the caller falls back on %+v.
func cmpDiff(got, want any) (d string, ok bool) {
	defer func() {
		if recover() != nil {
			d, ok = "", false
		}
	}()
	d = cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true }))
	// cmp puts no-break spaces in its output at random, so that nobody
	// parses it; a scoreboard message is read by people and may be
	// matched by a test, so it keeps plain spaces.
	return strings.ReplaceAll(d, "\u00a0", " "), d != ""
}

// bytesDiff shows the lengths, the first differing offset and the
// 16-byte line around it from both sides, with a mark under the byte.
func bytesDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	var head string
	switch {
	case i < len(got) && i < len(want):
		head = fmt.Sprintf("byte %d of %d: got %#02x, want %#02x", i, len(want), got[i], want[i])
	case i < len(want):
		head = fmt.Sprintf("got %d bytes, want %d: byte %d is missing (want %#02x)", len(got), len(want), i, want[i])
	default:
		head = fmt.Sprintf("got %d bytes, want %d: byte %d is extra (got %#02x)", len(got), len(want), i, got[i])
	}
	if len(got) != len(want) && i < len(got) && i < len(want) {
		head += fmt.Sprintf(" (and got %d bytes, want %d)", len(got), len(want))
	}
	line := i &^ 15
	var sb strings.Builder
	sb.WriteString(head)
	fmt.Fprintf(&sb, "\n  got  %s\n  want %s\n       %s^^", hexLine(got, line), hexLine(want, line),
		strings.Repeat(" ", 6+3*(i-line)))
	return sb.String()
}

// hexLine is the 16 bytes of b from off as "0010: 3a 3b ...".
func hexLine(b []byte, off int) string {
	end := min(off+16, len(b))
	if off >= len(b) {
		return fmt.Sprintf("%04x: (ends at %d)", off, len(b))
	}
	return fmt.Sprintf("%04x: % x", off, b[off:end])
}
