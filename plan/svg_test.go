package plan

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
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
