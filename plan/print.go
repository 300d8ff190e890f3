package plan

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// segmentObjects is how many object names Fprint shows per segment.
const segmentObjects = 4

// Fprint writes the plan as text: a header (top, lanes, sync cost,
// layout), then per kernel its single cost, each candidate with makespan,
// charged cost, tasks and waits (the chosen one marked '*'), the reason,
// then per lane its tasks (index, label, cost, estimated start-end, waits
// as "waits L1:3"), then the segments (lane, [lo,hi), bytes, the first
// few object names and "and N more"), with a line per tick loop before
// the segments. It prints the stored estimates: call
// (*Kernel).Estimate first.
func (p *Plan) Fprint(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "plan %s: %s, sync cost %d, layout %s, %s\n",
		orDash(p.Top), plural(p.Lanes, "lane"), p.SyncCost, orDash(p.Layout), plural(len(p.Kernels), "kernel"))
	for _, k := range p.Kernels {
		b.WriteByte('\n')
		k.fprint(&b)
	}
	if len(p.Ticks) > 0 {
		b.WriteByte('\n')
	}
	for _, t := range p.Ticks {
		fmt.Fprintf(&b, "%s\n", oneLine(t))
	}
	b.WriteByte('\n')
	p.fprintSegments(&b)
	_, err := w.Write(b.Bytes())
	return err
}

// String returns the plan as Fprint writes it.
func (p *Plan) String() string {
	var b strings.Builder
	p.Fprint(&b)
	return b.String()
}

func (k *Kernel) fprint(b *bytes.Buffer) {
	fmt.Fprintf(b, "kernel %s\n", oneLine(orDash(k.Name)))
	fmt.Fprintf(b, "  single cost %d", k.SingleCost)
	switch {
	case k.Chosen == "":
		b.WriteString(", sequential kernel only")
	case k.Partitioned():
		ms := k.Makespan()
		fmt.Fprintf(b, ", chosen %s: est. makespan %d", oneLine(k.Chosen), ms)
		if ms > 0 && k.SingleCost > 0 {
			fmt.Fprintf(b, " (%.2fx)", float64(k.SingleCost)/float64(ms))
		}
	default:
		fmt.Fprintf(b, ", chosen %s: no tasks", oneLine(k.Chosen))
	}
	b.WriteByte('\n')

	found := k.Chosen == ""
	if len(k.Candidates) == 0 {
		b.WriteString("  candidates: none\n")
	} else {
		t := table{indent: "    ", right: []bool{false, true, true, true, true}}
		t.row("  candidate", "makespan", "charged", "tasks", "waits")
		for _, c := range k.Candidates {
			mark := "  "
			if c.Name == k.Chosen {
				mark, found = "* ", true
			}
			t.row(mark+oneLine(c.Name), strconv.Itoa(c.Makespan), strconv.Itoa(c.Charged), strconv.Itoa(c.Tasks), strconv.Itoa(c.Waits))
		}
		b.WriteString("  candidates:\n")
		t.write(b)
	}
	if !found {
		fmt.Fprintf(b, "  (chosen %s is not among the candidates)\n", oneLine(k.Chosen))
	}
	if k.Reason != "" {
		fmt.Fprintf(b, "  reason: %s\n", oneLine(k.Reason))
	}

	// One table for all lanes, so columns align across lanes.
	t := table{indent: "    ", right: []bool{true, false, false, false, false}}
	for l, ts := range k.Lanes {
		if len(ts) == 0 {
			t.line(fmt.Sprintf("  lane %d: idle", l))
			continue
		}
		busy := 0
		for _, task := range ts {
			busy += task.Cost
		}
		t.line(fmt.Sprintf("  lane %d: %s, busy %d, ends %d", l, plural(len(ts), "task"), busy, ts[len(ts)-1].End))
		for _, task := range ts {
			waits := ""
			if len(task.Waits) > 0 {
				waits = "waits " + formatWaits(task.Waits)
			}
			t.row("#"+strconv.Itoa(task.Index), oneLine(task.Label),
				"cost "+strconv.Itoa(task.Cost),
				fmt.Sprintf("est %d-%d", task.Start, task.End), waits)
		}
	}
	t.write(b)
}

func (p *Plan) fprintSegments(b *bytes.Buffer) {
	if len(p.Segments) == 0 {
		b.WriteString("segments: none\n")
		return
	}
	total := 0
	for _, s := range p.Segments {
		total += s.Bytes()
	}
	fmt.Fprintf(b, "segments: %d, %s\n", len(p.Segments), plural(total, "byte"))
	t := table{indent: "  ", right: []bool{false, false, true, false}}
	for _, s := range p.Segments {
		t.row(laneName(s.Lane), fmt.Sprintf("[%d,%d)", s.Lo, s.Hi), plural(s.Bytes(), "byte"), objectList(s.Objects, segmentObjects))
	}
	t.write(b)
}

// laneName names a segment's owner.
func laneName(l int) string {
	switch l {
	case SharedLane:
		return "shared"
	case MultiLane:
		return "multi"
	}
	return "lane " + strconv.Itoa(l)
}

// objectList joins the first n names and counts the rest.
func objectList(names []string, n int) string {
	if len(names) == 0 {
		return "(no objects)"
	}
	shown := names[:min(n, len(names))]
	parts := make([]string, len(shown))
	for i, s := range shown {
		parts[i] = oneLine(s)
	}
	out := strings.Join(parts, ", ")
	if rest := len(names) - len(shown); rest > 0 {
		out += fmt.Sprintf(" and %d more", rest)
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine escapes control characters (newlines, tabs) so a name stays on
// one line and in its column.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			// Keep a literal U+FFFD; escape an invalid byte.
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
				continue
			}
			b.WriteRune(r)
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// table aligns cells in columns, two spaces apart, without trailing
// blanks. Lines added with line are written as they are, in order, and do
// not take part in the alignment.
type table struct {
	indent string
	right  []bool // per column: right-aligned
	rows   []tableRow
}

type tableRow struct {
	cells []string
	raw   string
}

func (t *table) row(cells ...string) { t.rows = append(t.rows, tableRow{cells: cells}) }
func (t *table) line(s string)       { t.rows = append(t.rows, tableRow{raw: s}) }

func (t *table) write(b *bytes.Buffer) {
	var width []int
	for _, r := range t.rows {
		for i, c := range r.cells {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		if r.cells == nil {
			b.WriteString(r.raw)
			b.WriteByte('\n')
			continue
		}
		var line strings.Builder
		line.WriteString(t.indent)
		for i, c := range r.cells {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i < len(t.right) && t.right[i] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}
