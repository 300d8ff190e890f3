package scoreboard_test

import (
	"io"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/scoreboard"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
)

// counterTB is testdata/counter.sv (or its broken copy) on a bench whose
// failures are recorded rather than ending the test: the tests assert
// on the messages, and t.Fatal must not run inside a bench task.
type counterTB struct {
	*bench.Bench
	fails []string

	clk, en, valid, data *dut.Signal
}

func newCounter(t *testing.T, file string) *counterTB {
	t.Helper()
	p, err := compile.NewBuilder().Files(file).Top("counter").Output(io.Discard).Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	c := &counterTB{}
	c.Bench = bench.New(p, bench.Options{
		Fail:    func(m string, _ ...int) { c.fails = append(c.fails, m) },
		Output:  io.Discard,
		Seed:    1,
		Timeout: 10 * bench.US,
	})
	c.clk, c.en, c.valid, c.data = c.Signal("clk"), c.Signal("en"), c.Signal("valid"), c.Signal("data")
	c.Clock(c.clk, 10*bench.NS)
	c.Set(c.en, 0)
	c.Reset(c.Signal("rst_n"), bench.Inferred, 2)
	return c
}

// monitor forks a task that puts every count the counter presents on q:
// valid is sampled as the edge registered it (PreEdge), as a handshake
// monitor must.
func (c *counterTB) monitor(q *bench.Queue[uint8]) {
	pre := c.PreEdge(c.valid, c.data)
	c.Fork("monitor", func() {
		for {
			c.RisingEdge(c.clk)
			if pre.Get(c.valid) == 1 {
				q.Put(uint8(pre.Get(c.data)))
			}
		}
	})
}

// enableRandomly forks a task that raises en on about half the cycles:
// the stream has gaps, as under backpressure.
func (c *counterTB) enableRandomly() {
	rng := c.Rand()
	c.Fork("enable", func() {
		for {
			c.Set(c.en, rng.IntN(2))
			c.RisingEdge(c.clk)
		}
	})
}

// closeClean closes the bench and fails the test on any failure.
func (c *counterTB) closeClean(t *testing.T) {
	t.Helper()
	c.Close()
	if len(c.fails) > 0 {
		t.Fatalf("unexpected failures:\n%s", strings.Join(c.fails, "\n"))
	}
}

// closeFailing closes the bench and returns its one failure.
func (c *counterTB) closeFailing(t *testing.T) string {
	t.Helper()
	c.Close()
	if len(c.fails) == 0 {
		t.Fatal("the bench did not fail")
	}
	return c.fails[0]
}

func wantAll(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message lacks %q:\n%s", p, msg)
		}
	}
}

const n = 40

func counts(from, to int) []uint8 {
	var out []uint8
	for i := from; i < to; i++ {
		out = append(out, uint8(i))
	}
	return out
}

// The counter's stream, with random gaps, matches 0..n-1 in order through
// Watch on the monitor's queue.
func TestInOrderWithWatch(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	q := bench.NewQueue[uint8](c.Bench, "counts", 0)
	sb := scoreboard.New[uint8](c.Bench, "counter")
	sb.Expect("counts", counts(0, n)...)
	sb.Watch("counts", q.Get)
	c.monitor(q)
	c.enableRandomly()
	c.WaitUntil("every count matched", func() bool { return sb.Pending("counts") == 0 })
	if got := sb.Matched("counts"); got != n {
		t.Errorf("Matched = %d, want %d", got, n)
	}
	c.closeClean(t)
}

// The mutation check: the broken counter skips 5, and the scoreboard
// fails the spec at the item that differs, in hex and decimal.
func TestBrokenCounterFails(t *testing.T) {
	c := newCounter(t, "testdata/counter_broken.sv")
	q := bench.NewQueue[uint8](c.Bench, "counts", 0)
	sb := scoreboard.New[uint8](c.Bench, "counter")
	sb.Expect("counts", counts(0, n)...)
	sb.Watch("counts", q.Get)
	c.monitor(q)
	c.enableRandomly()
	c.WaitUntil("every count matched", func() bool { return sb.Pending("counts") == 0 })
	msg := c.closeFailing(t)
	wantAll(t, msg, `scoreboard "counter" stream "counts": item 5 differs (5 matched before it)`,
		"got 0x6 (6), want 0x5 (5)")
}

func TestByteSliceMismatch(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	sb := scoreboard.New[[]byte](c.Bench, "dma")
	want := make([]byte, 64)
	for i := range want {
		want[i] = byte(0x20 + i)
	}
	got := append([]byte(nil), want...)
	got[17] = 0x3a
	want[17] = 0x3b
	sb.Expect("out", want)
	sb.Got("out", got)
	msg := c.closeFailing(t)
	wantAll(t, msg, `scoreboard "dma" stream "out": item 0 differs`,
		"byte 17 of 64: got 0x3a, want 0x3b",
		"got  0010: 30 3a 32", "want 0010: 30 3b 32",
		"\n"+strings.Repeat(" ", 16)+"^^") // under byte 0x11: 13 columns of prefix, then 3 per byte
}

func TestByteSliceLengths(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	sb := scoreboard.New[[]byte](c.Bench, "dma")
	sb.Expect("out", []byte{1, 2, 3, 4})
	sb.Got("out", []byte{1, 2, 3})
	wantAll(t, c.closeFailing(t), "got 3 bytes, want 4: byte 3 is missing (want 0x04)")

	c = newCounter(t, "testdata/counter.sv")
	sb = scoreboard.New[[]byte](c.Bench, "dma")
	sb.Expect("out", []byte{})
	sb.Got("out", nil) // nil and empty are the same payload
	c.closeClean(t)
}

type packet struct {
	Dest  uint8
	Len   int
	Tag   string
	flags uint8
}

func TestStructMismatchIsACmpDiff(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	sb := scoreboard.New[packet](c.Bench, "router")
	sb.Expect("port1", packet{Dest: 1, Len: 8, Tag: "a", flags: 1})
	sb.Got("port1", packet{Dest: 2, Len: 8, Tag: "a", flags: 3})
	msg := c.closeFailing(t)
	wantAll(t, msg, "(-want +got)", "- \tDest:  1", "+ \tDest:  2", "- \tflags: 1", "+ \tflags: 3")
	if strings.Contains(msg, "- \tTag:") {
		t.Errorf("the diff shows an equal field:\n%s", msg)
	}
}

func TestUnexpectedItem(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	sb := scoreboard.New[int](c.Bench, "counter")
	sb.Expect("a", 1)
	sb.Got("a", 1)
	sb.Got("a", -2)
	wantAll(t, c.closeFailing(t), `scoreboard "counter" stream "a": unexpected item 1 (1 matched, none expected): got -0x2 (-2)`)
}

func TestMissingItemsFailAtClose(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	sb := scoreboard.New[uint8](c.Bench, "counter")
	sb.Expect("a", counts(0, 8)...)
	sb.Expect("b", 9)
	sb.Expect("done", 1)
	sb.Got("a", 0)
	sb.Got("a", 1)
	sb.Got("done", 1)
	c.Timer(100 * bench.NS)
	msg := c.closeFailing(t)
	wantAll(t, msg, `scoreboard "counter": items never arrived`,
		`stream "a": 6 still expected (2 matched): first 0x2 (2), 0x3 (3), 0x4 (4), 0x5 (5), ... and 2 more`,
		`stream "b": 1 still expected (0 matched): first 0x9 (9)`)
	if strings.Contains(msg, `"done"`) {
		t.Errorf("a finished stream is named:\n%s", msg)
	}
}

// Streams are independent FIFOs: interleaved items match their own
// stream, and a mismatch names the stream it happened on.
func TestSeveralStreams(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	sb := scoreboard.New[uint8](c.Bench, "counter")
	sb.Expect("even", 0, 2, 4)
	sb.Expect("odd", 1, 3, 5)
	for i := range uint8(6) {
		if i%2 == 0 {
			sb.Got("even", i)
		} else {
			sb.Got("odd", i)
		}
	}
	if sb.Matched("even") != 3 || sb.Matched("odd") != 3 || sb.Matched("none") != 0 {
		t.Errorf("Matched: even %d, odd %d, none %d", sb.Matched("even"), sb.Matched("odd"), sb.Matched("none"))
	}
	sb.Expect("odd", 7)
	sb.Expect("even", 6)
	sb.Got("odd", 6)
	wantAll(t, c.closeFailing(t), `stream "odd": item 3 differs (3 matched before it): got 0x6 (6), want 0x7 (7)`)
}

func TestOutOfOrder(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	sb := scoreboard.New[uint8](c.Bench, "lanes", scoreboard.OutOfOrder("reordered"))
	sb.Expect("reordered", 1, 2, 3, 2)
	for _, v := range []uint8{3, 2, 2, 1} {
		sb.Got("reordered", v)
	}
	sb.Expect("ordered", 1, 2)
	sb.Got("ordered", 1)
	sb.Got("ordered", 2)
	c.closeClean(t)

	c = newCounter(t, "testdata/counter.sv")
	sb = scoreboard.New[uint8](c.Bench, "lanes", scoreboard.OutOfOrder())
	sb.Expect("any", 1, 2, 3)
	sb.Got("any", 2)
	sb.Got("any", 9)
	wantAll(t, c.closeFailing(t), `stream "any": item 1 matches none of the 2 expected (out of order)`,
		"got 0x9 (9), want 0x1 (1)", "first 0x1 (1), 0x3 (3)")

	c = newCounter(t, "testdata/counter.sv")
	sb = scoreboard.New[uint8](c.Bench, "lanes", scoreboard.OutOfOrder("other"))
	sb.Expect("in order", 1, 2)
	sb.Got("in order", 2)
	wantAll(t, c.closeFailing(t), `stream "in order": item 0 differs`)
}

func TestCompareAndFormat(t *testing.T) {
	c := newCounter(t, "testdata/counter.sv")
	low4 := func(got, want uint8) bool { return got&15 == want&15 }
	sb := scoreboard.New[uint8](c.Bench, "nibbles",
		scoreboard.Compare(low4),
		scoreboard.Format(func(v uint8) string { return "nibble " + string("0123456789abcdef"[v&15]) }))
	sb.Expect("n", 0x11, 0x22)
	sb.Got("n", 0xf1)
	sb.Got("n", 0x23)
	wantAll(t, c.closeFailing(t), "item 1 differs (1 matched before it): got nibble 3, want nibble 2")

	c = newCounter(t, "testdata/counter.sv")
	scoreboard.New[uint8](c.Bench, "typo", scoreboard.Compare(func(a, b int) bool { return a == b }))
	wantAll(t, c.closeFailing(t), `scoreboard "typo": Compare takes a func(int, int) bool; the scoreboard holds uint8`)
}
