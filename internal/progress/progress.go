// Package progress draws the one-line status of a long-running step on a
// terminal ("weft: compiling top: lowering tick top.clk (2.4 s)"): shown
// only once the step has run a second, redrawn in place, erased at the
// end.
package progress

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Delay is how long a step runs before its line shows: a short step
// prints nothing.
const Delay = time.Second

// Line is the status line of one step, redrawn every 200 ms. A nil *Line
// does nothing, so callers need not test whether one is drawn.
type Line struct {
	w      io.Writer
	delay  time.Duration
	period time.Duration
	what   string
	start  time.Time
	stage  atomic.Pointer[string]
	quit   chan struct{}
	wg     sync.WaitGroup
}

// Start starts the line of a step described by what ("compiling top") on
// w, at stage first; a nil w draws nothing and returns nil.
func Start(w io.Writer, what, first string) *Line {
	return start(w, what, first, Delay, 200*time.Millisecond)
}

func start(w io.Writer, what, first string, delay, period time.Duration) *Line {
	if w == nil {
		return nil
	}
	p := &Line{w: w, delay: delay, period: period, what: what, start: time.Now(), quit: make(chan struct{})}
	p.Set(first)
	p.wg.Go(p.draw)
	return p
}

// Set names the stage now running; any goroutine may call it.
func (p *Line) Set(stage string) {
	if p != nil {
		p.stage.Store(&stage)
	}
}

func (p *Line) draw() {
	t := time.NewTicker(p.period)
	defer t.Stop()
	shown := false
	for {
		select {
		case <-p.quit:
			if shown {
				fmt.Fprint(p.w, "\r\033[K")
			}
			return
		case <-t.C:
			el := time.Since(p.start)
			if el < p.delay {
				continue
			}
			shown = true
			fmt.Fprintf(p.w, "\rweft: %s: %s (%.1f s)\033[K", p.what, *p.stage.Load(), el.Seconds())
		}
	}
}

// Stop erases the line (when it was drawn) and returns once it is gone.
func (p *Line) Stop() {
	if p != nil {
		close(p.quit)
		p.wg.Wait()
	}
}
