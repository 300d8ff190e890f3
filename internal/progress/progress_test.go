package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer the drawing goroutine and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestShortStepPrintsNothing(t *testing.T) {
	var out lockedBuffer
	p := start(&out, "compiling top", "parsing", time.Hour, time.Millisecond)
	time.Sleep(10 * time.Millisecond)
	p.Set("lowering")
	p.Stop()
	if out.String() != "" {
		t.Fatalf("a step shorter than the delay wrote %q", out.String())
	}
}

func TestLongStepShowsStageAndErasesIt(t *testing.T) {
	var out lockedBuffer
	p := start(&out, "compiling top", "parsing", 0, time.Millisecond)
	p.Set("lowering tick top.clk")
	// A hang guard, not a measure: the drawing goroutine gets its turn
	// late on a loaded machine, never minutes late.
	const hang = 5 * time.Minute
	deadline := time.Now().Add(hang)
	for !strings.Contains(out.String(), "lowering tick top.clk") {
		if time.Now().After(deadline) {
			t.Fatalf("the line never showed the stage in %v; got %q", hang, out.String())
		}
		time.Sleep(time.Millisecond)
	}
	p.Stop()
	got := out.String()
	if !strings.HasPrefix(got, "\rweft: compiling top: ") {
		t.Errorf("line %q does not start with the redraw and the step", got)
	}
	if !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("line %q was not erased at the end", got)
	}
}

func TestNilLineDoesNothing(t *testing.T) {
	p := Start(nil, "compiling top", "parsing")
	if p != nil {
		t.Fatal("a nil writer should give a nil line")
	}
	p.Set("lowering")
	p.Stop()
}
