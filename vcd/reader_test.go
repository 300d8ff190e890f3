package vcd_test

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// An independent VCD reader for the tests: it shares no code with the
// writer and checks what IEEE 1364 §18.2 asks of a file (keywords, scope
// nesting, identifier codes, widths, times in order, declared codes only),
// then reconstructs every variable's value over time. It reads four-state
// values (Icarus Verilog writes x and z) and extends short vectors as the
// standard says (with 0 after a leading 0 or 1, else with the leading x or
// z).

// vcdFile is a parsed dump.
type vcdFile struct {
	timescale string
	// vars are the variables by full hierarchical name ("top.u.x").
	vars map[string]*vcdVar
	// names are the full names in declaration order.
	names []string
	// scopes are the full scope paths with their kinds ("top.g[0]" →
	// "begin").
	scopes map[string]string
	// hist is each identifier code's history: one entry per time at which
	// it was written, with the value it had at the end of that time.
	hist map[string][]change
	// times are the #times written, in order.
	times []uint64
}

type vcdVar struct {
	kind  string // wire, reg, integer, ...
	width int
	id    string
	rng   string // "[7:0]", or "" for none
}

type change struct {
	t uint64
	v string // width characters of 0 1 x z, most significant first
}

// valueAt returns the value of code id at the end of time t ("" when it
// has none yet).
func (f *vcdFile) valueAt(id string, t uint64) string {
	h := f.hist[id]
	i := sort.Search(len(h), func(i int) bool { return h[i].t > t })
	if i == 0 {
		return ""
	}
	return h[i-1].v
}

// tokens splits a dump into white-space separated words.
type tokens struct {
	sc   *bufio.Scanner
	last string
}

func (tk *tokens) next() (string, bool) {
	if !tk.sc.Scan() {
		return "", false
	}
	tk.last = tk.sc.Text()
	return tk.last, true
}

// until collects words up to $end.
func (tk *tokens) until() ([]string, error) {
	var out []string
	for {
		w, ok := tk.next()
		if !ok {
			return nil, fmt.Errorf("missing $end after %q", strings.Join(out, " "))
		}
		if w == "$end" {
			return out, nil
		}
		out = append(out, w)
	}
}

var scopeKinds = map[string]bool{"module": true, "begin": true, "fork": true, "function": true, "task": true,
	"generate": true, "struct": true, "union": true, "class": true, "interface": true, "package": true, "program": true}

var varKinds = map[string]bool{"event": true, "integer": true, "parameter": true, "real": true, "realtime": true, "reg": true,
	"supply0": true, "supply1": true, "time": true, "tri": true, "triand": true, "trior": true, "trireg": true,
	"tri0": true, "tri1": true, "wand": true, "wire": true, "wor": true, "logic": true, "bit": true, "int": true,
	"string": true}

func validID(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '!' || id[i] > '~' {
			return false
		}
	}
	return true
}

// parseVCD reads a whole dump.
func parseVCD(r io.Reader) (*vcdFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	sc.Split(bufio.ScanWords)
	tk := &tokens{sc: sc}
	f := &vcdFile{vars: map[string]*vcdVar{}, scopes: map[string]string{}, hist: map[string][]change{}}
	widths := map[string]int{}
	var path []string
	// Header.
	for {
		w, ok := tk.next()
		if !ok {
			return nil, fmt.Errorf("no $enddefinitions")
		}
		switch w {
		case "$date", "$version", "$comment":
			if _, err := tk.until(); err != nil {
				return nil, fmt.Errorf("%s: %w", w, err)
			}
		case "$timescale":
			ws, err := tk.until()
			if err != nil {
				return nil, fmt.Errorf("$timescale: %w", err)
			}
			f.timescale = strings.Join(ws, "")
		case "$scope":
			ws, err := tk.until()
			if err != nil {
				return nil, fmt.Errorf("$scope: %w", err)
			}
			if len(ws) != 2 || !scopeKinds[ws[0]] {
				return nil, fmt.Errorf("bad $scope %q", ws)
			}
			path = append(path, ws[1])
			full := strings.Join(path, ".")
			if k, dup := f.scopes[full]; dup && k != ws[0] {
				return nil, fmt.Errorf("scope %s declared as %s and %s", full, k, ws[0])
			}
			f.scopes[full] = ws[0]
		case "$upscope":
			if ws, err := tk.until(); err != nil || len(ws) != 0 {
				return nil, fmt.Errorf("bad $upscope %q %v", ws, err)
			}
			if len(path) == 0 {
				return nil, fmt.Errorf("$upscope without $scope")
			}
			path = path[:len(path)-1]
		case "$var":
			ws, err := tk.until()
			if err != nil {
				return nil, fmt.Errorf("$var: %w", err)
			}
			if len(ws) != 4 && len(ws) != 5 {
				return nil, fmt.Errorf("bad $var %q", ws)
			}
			if len(path) == 0 {
				return nil, fmt.Errorf("$var %q outside any scope", ws)
			}
			width, err := strconv.Atoi(ws[1])
			if err != nil || width < 1 {
				return nil, fmt.Errorf("$var %q: bad width", ws)
			}
			if !varKinds[ws[0]] || !validID(ws[2]) {
				return nil, fmt.Errorf("$var %q: bad type or identifier code", ws)
			}
			if old, ok := widths[ws[2]]; ok && old != width {
				return nil, fmt.Errorf("code %s declared %d and %d bits wide", ws[2], old, width)
			}
			widths[ws[2]] = width
			v := &vcdVar{kind: ws[0], width: width, id: ws[2]}
			name := ws[3]
			if len(ws) == 5 {
				v.rng = ws[4]
			} else if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") && strings.Contains(name[i:], ":") {
				// A range written against the name ("x[7:0]").
				name, v.rng = name[:i], name[i:]
			}
			if v.rng != "" {
				l, r, ok := parseRange(v.rng)
				if !ok {
					return nil, fmt.Errorf("$var %q: bad range", ws)
				}
				if n := max(l, r) - min(l, r) + 1; n != width && v.kind != "integer" {
					return nil, fmt.Errorf("$var %q: range %s is %d bits, the width %d", ws, v.rng, n, width)
				}
			}
			full := strings.Join(path, ".") + "." + name
			if _, dup := f.vars[full]; dup {
				return nil, fmt.Errorf("variable %s declared twice", full)
			}
			f.vars[full] = v
			f.names = append(f.names, full)
		case "$enddefinitions":
			if _, err := tk.until(); err != nil {
				return nil, err
			}
			if len(path) != 0 {
				return nil, fmt.Errorf("$enddefinitions inside scope %s", strings.Join(path, "."))
			}
			return f, f.body(tk, widths)
		default:
			return nil, fmt.Errorf("unexpected %q in the header", w)
		}
	}
}

func parseRange(s string) (l, r int, ok bool) {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return 0, 0, false
	}
	a, b, found := strings.Cut(s[1:len(s)-1], ":")
	if !found {
		n, err := strconv.Atoi(a)
		return n, n, err == nil
	}
	l, e1 := strconv.Atoi(a)
	r, e2 := strconv.Atoi(b)
	return l, r, e1 == nil && e2 == nil
}

// body reads the value changes.
func (f *vcdFile) body(tk *tokens, widths map[string]int) error {
	var now uint64
	started := false
	set := func(id, val string) error {
		w, ok := widths[id]
		if !ok {
			return fmt.Errorf("#%d: value for undeclared code %q", now, id)
		}
		if !started {
			return fmt.Errorf("value %s for %s before the first #time", val, id)
		}
		v, err := extend(val, w)
		if err != nil {
			return fmt.Errorf("#%d: code %s: %w", now, id, err)
		}
		h := f.hist[id]
		if n := len(h); n > 0 && h[n-1].t == now {
			h[n-1].v = v
		} else {
			h = append(h, change{now, v})
		}
		f.hist[id] = h
		return nil
	}
	for {
		w, ok := tk.next()
		if !ok {
			return nil
		}
		switch {
		case w[0] == '#':
			t, err := strconv.ParseUint(w[1:], 10, 64)
			if err != nil {
				return fmt.Errorf("bad time %q", w)
			}
			if started && t < now {
				return fmt.Errorf("time %d after %d", t, now)
			}
			now, started = t, true
			f.times = append(f.times, t)
		case w == "$dumpvars" || w == "$dumpall" || w == "$dumpon" || w == "$dumpoff" || w == "$end":
			// Sections hold ordinary value changes.
		case w == "$comment":
			if _, err := tk.until(); err != nil {
				return err
			}
		case w[0] == 'b' || w[0] == 'B':
			id, ok := tk.next()
			if !ok {
				return fmt.Errorf("vector value %s without a code", w)
			}
			if err := set(id, strings.ToLower(w[1:])); err != nil {
				return err
			}
		case strings.ContainsRune("01xXzZ", rune(w[0])):
			if err := set(w[1:], strings.ToLower(w[:1])); err != nil {
				return err
			}
		default:
			return fmt.Errorf("#%d: unexpected %q", now, w)
		}
	}
}

// extend checks a value's digits and extends it to width w.
func extend(v string, w int) (string, error) {
	if v == "" || len(v) > w {
		return "", fmt.Errorf("value %q for %d bits", v, w)
	}
	for i := 0; i < len(v); i++ {
		if !strings.ContainsRune("01xz", rune(v[i])) {
			return "", fmt.Errorf("bad digit in %q", v)
		}
	}
	pad := "0"
	if v[0] == 'x' || v[0] == 'z' {
		pad = v[:1]
	}
	return strings.Repeat(pad, w-len(v)) + v, nil
}

// bitsOf writes a value of width bits from words (least significant first)
// the way the reader stores it.
func bitsOf(ws []uint64, width int) string {
	b := make([]byte, width)
	for i := 0; i < width; i++ {
		bit := ws[i/64] >> (i % 64) & 1
		b[width-1-i] = '0' + byte(bit)
	}
	return string(b)
}
