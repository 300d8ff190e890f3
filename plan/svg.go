package plan

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-hdl/weft/internal/natsort"
)

// SVG geometry, in pixels. Coordinates are computed in tenths of a pixel
// with integer arithmetic, so the output is the same on every platform.
const (
	svgWidth    = 960
	svgLeft     = 72 // lane labels
	svgRight    = 24
	svgPlot     = svgWidth - svgLeft - svgRight
	svgRow      = 24 // one lane
	svgBar      = 18 // task rectangle height
	svgMinWidth = 3  // minimum visible task width
	svgTicks    = 8  // at most this many tick intervals
	svgCharW    = 7  // approximate width of one label character
)

// laneColors fill task rectangles, by lane; by instance, the first
// instances take them too, later ones instColor.
var laneColors = []string{
	"#8ecae6", "#ffd166", "#95d5b2", "#f4a261",
	"#bdb2ff", "#f7a8b8", "#a8dadc", "#d4a373",
}

// Fills of tasks without one instance, by instance.
const (
	mixedColor   = "#c8c8c8" // MixedInst
	unknownColor = "#ffffff" // Inst ""
)

// instColor is the fill of the i-th instance: laneColors, then pastel hues
// 137° apart (the golden angle, so neighbours differ), in integer
// arithmetic so the output is the same on every platform.
func instColor(i int) string {
	if i < len(laneColors) {
		return laneColors[i]
	}
	h := (i - len(laneColors)) * 137 % 360
	// HSL(h, 60%, 75%) in thousandths: chroma 300, offset 600.
	const c, m = 300, 600
	hp := h * 1000 / 60 // sector position, thousandths
	d := hp%2000 - 1000
	if d < 0 {
		d = -d
	}
	x := c * (1000 - d) / 1000
	var r, g, b int
	switch hp / 1000 {
	case 0:
		r, g = c, x
	case 1:
		r, g = x, c
	case 2:
		g, b = c, x
	case 3:
		g, b = x, c
	case 4:
		r, b = x, c
	default:
		r, b = c, x
	}
	v := func(t int) int { return ((t+m)*255 + 500) / 1000 }
	return fmt.Sprintf("#%02x%02x%02x", v(r), v(g), v(b))
}

// palette maps Task.Inst to fills; nil when no task names an instance
// (tasks are then coloured by lane).
type palette struct {
	fills map[string]string
	names []string // legend order: instances in natural order, then mixed
	// unknown is set when some task has no Inst (drawn unknownColor).
	unknown bool
}

// instPalette gives every instance the tasks of p name a colour, in
// natural order of the names (core[2] before core[10]).
func instPalette(p *Plan) *palette {
	seen := map[string]bool{}
	unknown := false
	for _, k := range p.Kernels {
		for _, ts := range k.Lanes {
			for _, t := range ts {
				if t.Inst != "" {
					seen[t.Inst] = true
				} else {
					unknown = true
				}
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	var names []string
	for n := range seen {
		if n != MixedInst {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := natsort.Compare(a, b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	pal := &palette{fills: map[string]string{}, unknown: unknown}
	for i, n := range names {
		pal.fills[n] = instColor(i)
	}
	if seen[MixedInst] {
		pal.fills[MixedInst] = mixedColor
		names = append(names, MixedInst)
	}
	pal.names = names
	return pal
}

// fill is the colour of task t on lane l.
func (pal *palette) fill(l int, t Task) string {
	if pal == nil {
		return laneColors[l%len(laneColors)]
	}
	if c, ok := pal.fills[t.Inst]; ok {
		return c
	}
	return unknownColor
}

// legend draws the instance colours at y, wrapping at the image width, and
// returns the y below it.
func (pal *palette) legend(b *bytes.Buffer, y int) int {
	b.WriteString("<g class=\"legend\">\n")
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" fill=\"#555\">tasks by instance:</text>\n", 8, y+12)
	x := 8 + 18*svgCharW
	type entry struct{ name, fill string }
	var entries []entry
	for _, n := range pal.names {
		entries = append(entries, entry{n, pal.fills[n]})
	}
	if pal.unknown {
		entries = append(entries, entry{"unknown", unknownColor})
	}
	for _, e := range entries {
		w := 16 + len(e.name)*svgCharW + 12
		if x+w > svgWidth-svgRight && x > 8+18*svgCharW {
			x = 8 + 18*svgCharW
			y += 18
		}
		fmt.Fprintf(b, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\"/>\n", x, y+2, e.fill)
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\">%s</text>\n", x+16, y+12, esc(oneLine(e.name)))
		x += w
	}
	b.WriteString("</g>\n")
	return y + 24
}

// SVG writes the plan as a self-contained SVG image: one band per kernel
// with a partition (titled with the kernel's name, chosen candidate and
// makespan), within it one row per lane and the lane's tasks as rectangles
// on a time axis in cost units (x from the estimated Start to End, at
// least a few pixels wide), labelled with their index where it fits and
// with a tooltip (<title>) naming index, label, cost, times and waits.
// Tasks are filled by lane or, when some task names its instance
// (Task.Inst), by instance: every instance its own colour, MixedInst grey,
// unknown white, with a legend under the header naming the colours (the
// lane rows stay labelled). Every wait is an arrow from the end of the
// producer task (task Count-1 of lane Lane) to the waiting task's start; waits with no producer task
// (Count 0 or out of range) draw nothing. Each band has its own time axis
// with tick labels. Kernels with no partition get a one-line note. All
// text is XML-escaped and the output is deterministic. It draws the
// stored estimates: call (*Kernel).Estimate first.
func (p *Plan) SVG(w io.Writer) error {
	var body bytes.Buffer
	y := 0
	header := fmt.Sprintf("weft plan %s: %s, sync cost %d, layout %s", orDash(p.Top), plural(p.Lanes, "lane"), p.SyncCost, orDash(p.Layout))
	fmt.Fprintf(&body, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", 8, y+20, esc(header))
	y += 32
	pal := instPalette(p)
	if pal != nil {
		y = pal.legend(&body, y)
	}
	if len(p.Kernels) == 0 {
		fmt.Fprintf(&body, "<text class=\"note\" x=\"%d\" y=\"%d\">no kernels</text>\n", 8, y+14)
		y += 24
	}
	for ki, k := range p.Kernels {
		y = k.svg(&body, ki, y, pal)
	}
	height := y + 8

	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\" style=\"background:#fff\">\n",
		svgWidth, height, svgWidth, height)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc("weft plan "+orDash(p.Top)))
	b.WriteString("<defs><marker id=\"weft-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c0392b\"/></marker></defs>\n")
	b.Write(body.Bytes())
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// taskBox is a drawn task, in tenths of a pixel.
type taskBox struct{ x0, x1, yMid int }

// svg draws kernel k as a band starting at y and returns the y below it.
func (k *Kernel) svg(b *bytes.Buffer, ki, y int, pal *palette) int {
	if !k.Partitioned() {
		note := fmt.Sprintf("%s: sequential kernel only, single cost %d", orDash(k.Name), k.SingleCost)
		if k.Chosen != "" {
			note = fmt.Sprintf("%s: chosen %s has no tasks, single cost %d", orDash(k.Name), k.Chosen, k.SingleCost)
		}
		if k.Reason != "" {
			note += " (" + k.Reason + ")"
		}
		fmt.Fprintf(b, "<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#555\">%s</text>\n", 8, y+14, esc(oneLine(note)))
		return y + 26
	}
	ms := k.Makespan()
	span := max(ms, 1)
	xAt := func(t int) int { // tenths of a pixel
		t = min(max(t, 0), span)
		return svgLeft*10 + (t*svgPlot*10+span/2)/span
	}

	fmt.Fprintf(b, "<g class=\"kernel\" id=\"kernel-%d\">\n", ki)
	title := fmt.Sprintf("%s: %s, makespan %d, single cost %d", orDash(k.Name), orDash(k.Chosen), ms, k.SingleCost)
	fmt.Fprintf(b, "<text class=\"title\" x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n", 8, y+14, esc(oneLine(title)))
	y += 22
	top := y

	// Lane rows: label, guide line, tasks.
	boxes := make([][]taskBox, len(k.Lanes))
	for l, ts := range k.Lanes {
		rowTop := top + l*svgRow
		mid := rowTop*10 + svgRow*10/2
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">lane %d</text>\n", svgLeft-8, rowTop+svgRow/2+4, l)
		fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"#eee\"/>\n", svgLeft, tenths(mid), svgLeft+svgPlot, tenths(mid))
		boxes[l] = make([]taskBox, len(ts))
		for i, t := range ts {
			x0 := xAt(t.Start)
			x1 := max(xAt(t.End), x0+svgMinWidth*10)
			boxes[l][i] = taskBox{x0, x1, mid}
			tip := fmt.Sprintf("#%d %s\nlane %d, cost %d, est %d-%d", t.Index, t.Label, l, t.Cost, t.Start, t.End)
			if t.Inst != "" {
				tip += "\ninstance " + t.Inst
			}
			if len(t.Waits) > 0 {
				tip += "\nwaits " + formatWaits(t.Waits)
			}
			fmt.Fprintf(b, "<rect class=\"task\" x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\"><title>%s</title></rect>\n",
				tenths(x0), rowTop+(svgRow-svgBar)/2, tenths(x1-x0), svgBar, pal.fill(l, t), esc(tip))
			idx := strconv.Itoa(t.Index)
			if x1-x0 >= (len(idx)*svgCharW+4)*10 {
				fmt.Fprintf(b, "<text x=\"%s\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" pointer-events=\"none\">%s</text>\n",
					tenths((x0+x1)/2), rowTop+svgRow/2+4, idx)
			}
		}
	}

	// Waits, drawn above the tasks.
	for l, ts := range k.Lanes {
		for i, t := range ts {
			for _, w := range t.Waits {
				if w.Lane < 0 || w.Lane >= len(k.Lanes) || w.Count < 1 || w.Count > len(k.Lanes[w.Lane]) {
					continue
				}
				from := boxes[w.Lane][w.Count-1]
				to := boxes[l][i]
				fmt.Fprintf(b, "<line class=\"wait\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#c0392b\" stroke-width=\"1.2\" marker-end=\"url(#weft-arrow)\"><title>%s</title></line>\n",
					tenths(from.x1), tenths(from.yMid), tenths(to.x0), tenths(to.yMid),
					esc(fmt.Sprintf("#%d (lane %d) waits L%d:%d (#%d)", t.Index, l, w.Lane, w.Count, k.Lanes[w.Lane][w.Count-1].Index)))
			}
		}
	}

	// Time axis.
	axis := top + len(k.Lanes)*svgRow + 4
	fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", svgLeft, axis, svgLeft+svgPlot, axis)
	step := tickStep(span)
	for t := 0; t <= span; t += step {
		x := tenths(xAt(t))
		fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" stroke=\"#333\"/>\n", x, axis, x, axis+4)
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%d</text>\n", x, axis+15, t)
	}
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\" fill=\"#555\">cost units</text>\n", svgLeft-8, axis+15)
	b.WriteString("</g>\n")
	return axis + 30
}

// tickStep is the smallest of 1, 2, 5 times a power of ten that splits
// span into at most svgTicks intervals.
func tickStep(span int) int {
	for mag := 1; ; mag *= 10 {
		for _, m := range []int{1, 2, 5} {
			if s := m * mag; s*svgTicks >= span {
				return s
			}
		}
	}
}

// tenths formats a coordinate given in tenths of a pixel.
func tenths(v int) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.Itoa(v / 10)
	if r := v % 10; r != 0 {
		s += "." + strconv.Itoa(r)
	}
	if neg {
		s = "-" + s
	}
	return s
}

// esc escapes text for XML character data and attribute values.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
