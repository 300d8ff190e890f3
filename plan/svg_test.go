package plan

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
)

// svgDoc is what checkXML found in an SVG.
type svgDoc struct {
	tasks  int      // <rect class="task">
	arrows int      // elements with marker-end
	rects  int      // all <rect>
	titles []string // text of every <title>
	texts  []string // text of every <text>
}

// checkXML parses an SVG with encoding/xml and collects its elements.
func checkXML(t *testing.T, data []byte) svgDoc {
	t.Helper()
	var doc svgDoc
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
				if tok.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root namespace %q", tok.Name.Space)
				}
			}
			stack = append(stack, tok.Name.Local)
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			if tok.Name.Local == "rect" {
				doc.rects++
				if attr["class"] == "task" {
					doc.tasks++
				}
			}
			if attr["marker-end"] != "" {
				if tok.Name.Local != "line" && tok.Name.Local != "path" {
					t.Errorf("marker on <%s>", tok.Name.Local)
				}
				doc.arrows++
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			switch stack[len(stack)-1] {
			case "title":
				doc.titles = append(doc.titles, string(tok))
			case "text":
				doc.texts = append(doc.texts, string(tok))
			}
		}
	}
	if root != "svg" {
		t.Errorf("root element %q, want svg", root)
	}
	return doc
}

func countTasks(p *Plan) (tasks, waits int) {
	for _, k := range p.Kernels {
		for _, ts := range k.Lanes {
			for _, t := range ts {
				tasks++
				for _, w := range t.Waits {
					if w.Count > 0 {
						waits++
					}
				}
			}
		}
	}
	return
}

func TestSVG(t *testing.T) {
	p := samplePlan(t)
	var b bytes.Buffer
	if err := p.SVG(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.svg.golden", b.Bytes())
	doc := checkXML(t, b.Bytes())
	tasks, waits := countTasks(p)
	if doc.tasks != tasks || doc.rects != tasks {
		t.Errorf("%d task rects (%d rects), want %d", doc.tasks, doc.rects, tasks)
	}
	if doc.arrows != waits {
		t.Errorf("%d arrows, want %d", doc.arrows, waits)
	}
	// Labels are escaped and come back whole.
	raw := b.String()
	if !strings.Contains(raw, "eval a&lt;b &amp;&amp; c&gt;d") {
		t.Errorf("label not escaped")
	}
	if strings.Contains(raw, "a<b") || strings.Contains(raw, "top.mem<&>") {
		t.Errorf("unescaped text in SVG")
	}
	found := false
	for _, s := range doc.titles {
		if strings.Contains(s, "#4 eval a<b && c>d") {
			found = true
		}
	}
	if !found {
		t.Errorf("no tooltip names task #4: %q", doc.titles)
	}
	// The kernel without a partition gets a note, the others a title
	// with their makespan.
	all := strings.Join(doc.texts, "\n")
	for _, want := range []string{
		"fused posedge top.clk: sequential kernel only",
		"settle: items, makespan 180",
		"fused negedge top.rst_n: ffsplit+settle, makespan 560",
		"lane 2",
		"cost units",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no text %q in:\n%s", want, all)
		}
	}
	// Deterministic.
	var again bytes.Buffer
	if err := p.SVG(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Errorf("SVG output differs between calls")
	}
}

// A bad table (not estimated, waits out of range, names with control
// characters) still renders valid XML; waits without a producer task draw
// no arrow.
func TestSVGBadTable(t *testing.T) {
	p := &Plan{Top: "a<b>\x01", Lanes: 2, Kernels: []*Kernel{{
		Name:   "k & \"q\"",
		Chosen: "x",
		Lanes: [][]Task{
			{{Index: 0, Label: "]]> <!-- -->", Cost: 5, Waits: []Wait{{5, 1}, {1, 9}, {1, -1}, {0, 0}}}},
			{{Index: 1, Label: "b", Cost: 5, Start: -3, End: -1, Waits: []Wait{{0, 1}}}},
		},
	}}}
	var b bytes.Buffer
	if err := p.SVG(&b); err != nil {
		t.Fatal(err)
	}
	doc := checkXML(t, b.Bytes())
	if doc.tasks != 2 || doc.arrows != 1 {
		t.Errorf("%d tasks, %d arrows; want 2, 1", doc.tasks, doc.arrows)
	}
}

func TestTickStep(t *testing.T) {
	for _, tc := range []struct{ span, want int }{
		{1, 1}, {8, 1}, {9, 2}, {16, 2}, {17, 5}, {40, 5}, {41, 10}, {180, 50}, {560, 100}, {1000, 200}, {100000, 20000},
	} {
		if got := tickStep(tc.span); got != tc.want {
			t.Errorf("tickStep(%d) = %d, want %d", tc.span, got, tc.want)
		}
	}
}

// instancePlan is samplePlan with the tasks' instances set: two named
// instances across lanes and kernels, a mixed task and an unknown one.
func instancePlan(t *testing.T) *Plan {
	p := samplePlan(t)
	set := func(k, l, i int, inst string) { p.Kernels[k].Lanes[l][i].Inst = inst }
	set(0, 0, 0, "top.u[10]")
	set(0, 0, 1, "top.u[2]")
	set(0, 0, 2, MixedInst)
	set(0, 1, 0, "top.u[2]")
	// settle lane 2 task #3 stays unknown.
	set(2, 0, 0, "top.u[10]")
	set(2, 1, 0, "top.u[2]")
	set(2, 1, 1, "top.u[2]")
	return p
}

var taskFillRE = regexp.MustCompile(`<rect class="task"[^>]* fill="([^"]*)"[^>]*><title>#(\d+) .*?&#xA;lane (\d+),`)

func TestSVGInstances(t *testing.T) {
	p := instancePlan(t)
	var b bytes.Buffer
	if err := p.SVG(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "instances.svg.golden", b.Bytes())
	doc := checkXML(t, b.Bytes())
	tasks, _ := countTasks(p)
	// Legend: top.u[2], top.u[10], mixed, unknown.
	if doc.tasks != tasks || doc.rects != tasks+4 {
		t.Errorf("%d task rects, %d rects; want %d, %d", doc.tasks, doc.rects, tasks, tasks+4)
	}
	all := strings.Join(doc.texts, "\n")
	i2, i10, im, iu := strings.Index(all, "top.u[2]"), strings.Index(all, "top.u[10]"), strings.Index(all, "\nmixed"), strings.Index(all, "\nunknown")
	if i2 < 0 || i10 < i2 || im < i10 || iu < im {
		t.Errorf("legend not in natural order then mixed, unknown:\n%s", all)
	}
	for _, want := range []string{"tasks by instance:", "lane 0", "lane 1", "lane 2"} {
		if !strings.Contains(all, want) {
			t.Errorf("no text %q", want)
		}
	}
	// Fills by instance, the same across lanes and kernels.
	fills := map[string]string{} // "lane/index", "2/lane/index" in kernel 2
	for n, m := range taskFillRE.FindAllStringSubmatch(b.String(), -1) {
		key := m[3] + "/" + m[2]
		if n >= 5 { // the settle's five tasks come first
			key = "2/" + key
		}
		fills[key] = m[1]
	}
	if len(fills) != tasks {
		t.Fatalf("matched %d task fills, want %d: %v", len(fills), tasks, fills)
	}
	u10, u2 := fills["0/0"], fills["0/2"]
	if u10 == u2 || u10 == "" || u2 == "" {
		t.Errorf("top.u[10] %q and top.u[2] %q", u10, u2)
	}
	for key, want := range map[string]string{"1/1": u2, "2/0/0": u10, "2/1/1": u2, "2/1/2": u2, "0/4": mixedColor, "2/3": unknownColor} {
		if fills[key] != want {
			t.Errorf("task %s fill %q, want %q (%v)", key, fills[key], want, fills)
		}
	}
	found := false
	for _, s := range doc.titles {
		found = found || strings.Contains(s, "instance top.u[2]")
	}
	if !found {
		t.Error("no tooltip names the instance")
	}
	// Deterministic.
	var again bytes.Buffer
	if err := p.SVG(&again); err != nil || !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Errorf("SVG output differs between calls (%v)", err)
	}
}

func TestInstColor(t *testing.T) {
	seen := map[string]int{}
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	for i := range 40 {
		c := instColor(i)
		if !hex.MatchString(c) || c == mixedColor || c == unknownColor {
			t.Errorf("instColor(%d) = %q", i, c)
		}
		if j, ok := seen[c]; ok {
			t.Errorf("instColor(%d) = instColor(%d) = %s", i, j, c)
		}
		seen[c] = i
	}
}

// Many instances wrap the legend onto several rows and stay valid XML.
func TestSVGLegendWraps(t *testing.T) {
	k := &Kernel{Name: "settle", Chosen: "instances", Lanes: make([][]Task, 2)}
	for i := range 40 {
		k.Lanes[i%2] = append(k.Lanes[i%2], Task{Index: i, Label: "t", Cost: 1, Inst: fmt.Sprintf("top.core<%d>", i)})
	}
	if _, err := k.Estimate(0); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := (&Plan{Lanes: 2, Kernels: []*Kernel{k}}).SVG(&b); err != nil {
		t.Fatal(err)
	}
	doc := checkXML(t, b.Bytes())
	if doc.rects != 80 {
		t.Errorf("%d rects, want 80", doc.rects)
	}
	ys := map[string]bool{}
	for _, m := range regexp.MustCompile(`<rect class="legend" x="\d+" y="(\d+)"`).FindAllStringSubmatch(b.String(), -1) {
		ys[m[1]] = true
	}
	if len(ys) < 3 {
		t.Errorf("legend on %d rows", len(ys))
	}
}
