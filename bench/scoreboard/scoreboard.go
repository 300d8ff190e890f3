// Package scoreboard owns the comparison of what a design produced with
// what a spec expected: per named stream, a FIFO of expected items that
// each item a monitor reports is matched against. It is the scoreboard
// cocotb users know from cocotb_bus.scoreboard and cocotbext-axi's
// examples: a spec (or a model task) says what it Expects, a monitor
// task reports what it Got (or Watch forks one that loops over a sink's
// Recv), and at the end Check, which New registers with tb.AtEnd, fails
// the spec for every item still expected.
//
//	sb := scoreboard.New[byte](tb, "uart")
//	sb.Watch("rx", received.Get) // a monitor's bench.Queue: every item it puts is matched
//	sb.Expect("rx", msg...)      // in order, unless OutOfOrder("rx")
//	source.Write(msg)
//	tb.WaitUntil("all of msg arrived", func() bool { return sb.Pending("rx") == 0 })
//
// A mismatch or an unexpected item fails the spec at once, through
// tb.Failf, with a readable difference: for []byte the lengths and a hex
// dump around the first differing byte, for integers hex and decimal,
// for structs, slices and maps a cmp.Diff. Missing items fail at the
// end, named per stream with the first few of them.
package scoreboard

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/weft-hdl/weft/bench"
)

// Scoreboard matches the items of one or more streams against what a
// spec expects. Streams are independent: each has its own FIFO of
// expected items and its own count of matches.
type Scoreboard[T any] struct {
	tb      *bench.Bench
	name    string
	eq      func(got, want T) bool
	format  func(T) string
	anyOrd  bool            // every stream out of order (OutOfOrder with no names)
	outOrd  map[string]bool // streams matched out of order
	streams map[string]*stream[T]
	order   []string // stream names in first-use order, for Check's message
}

// stream is one stream's state: the items still expected, oldest first.
type stream[T any] struct {
	pending []T
	matched int
	got     int // items reported, matched or not (the index in messages)
}

// Option configures a Scoreboard: Compare, Format, OutOfOrder.
//
// Options are plain values rather than Option[T] so that OutOfOrder needs
// no type argument; Compare and Format carry their function and New
// checks that it takes the scoreboard's item type.
type Option struct {
	compare    any      // func(got, want T) bool
	format     any      // func(T) string
	outOfOrder []string // nil: not set; empty: every stream
	allStreams bool
}

// Compare makes the scoreboard match items with eq instead of the
// default (bytes.Equal for []byte, reflect.DeepEqual otherwise): for
// items with don't-care fields, or a tolerance.
func Compare[T any](eq func(got, want T) bool) Option { return Option{compare: eq} }

// Format makes the scoreboard show items with f in its messages instead
// of the default rendering (hex dumps, hex and decimal, cmp.Diff).
func Format[T any](f func(T) string) Option { return Option{format: f} }

// OutOfOrder lets an item of the named streams (of every stream when
// none is named) match any pending expected item, not only the oldest:
// for designs that reorder (several lanes, out-of-order completion). The
// oldest equal item is taken.
func OutOfOrder(streams ...string) Option {
	return Option{outOfOrder: streams, allStreams: len(streams) == 0}
}

// New returns an empty scoreboard named name (messages start with
// `scoreboard "name"`) and registers Check with tb.AtEnd, so that items
// still expected when the spec ends fail it.
func New[T any](tb *bench.Bench, name string, opts ...Option) *Scoreboard[T] {
	sb := &Scoreboard[T]{
		tb:      tb,
		name:    name,
		eq:      defaultEqual[T],
		outOrd:  map[string]bool{},
		streams: map[string]*stream[T]{},
	}
	for _, o := range opts {
		if o.compare != nil {
			eq, ok := o.compare.(func(T, T) bool)
			if !ok {
				tb.Failf("scoreboard %q: Compare takes a %T; the scoreboard holds %s, so it needs a func(got, want %s) bool",
					name, o.compare, typeName[T](), typeName[T]())
				continue
			}
			sb.eq = eq
		}
		if o.format != nil {
			f, ok := o.format.(func(T) string)
			if !ok {
				tb.Failf("scoreboard %q: Format takes a %T; the scoreboard holds %s, so it needs a func(%s) string",
					name, o.format, typeName[T](), typeName[T]())
				continue
			}
			sb.format = f
		}
		if o.allStreams {
			sb.anyOrd = true
		}
		for _, s := range o.outOfOrder {
			sb.outOrd[s] = true
		}
	}
	tb.AtEnd(sb.Check)
	return sb
}

// typeName names T for messages.
func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// stream returns the stream named name, creating it on first use.
func (sb *Scoreboard[T]) stream(name string) *stream[T] {
	s := sb.streams[name]
	if s == nil {
		s = &stream[T]{}
		sb.streams[name] = s
		sb.order = append(sb.order, name)
	}
	return s
}

// Expect queues items as expected on stream, after those already queued.
func (sb *Scoreboard[T]) Expect(stream string, items ...T) {
	s := sb.stream(stream)
	s.pending = append(s.pending, items...)
}

// Got matches item against the stream's next expected item (any pending
// one for an OutOfOrder stream). A mismatch, or an item when none is
// expected, fails the spec at once with the difference.
func (sb *Scoreboard[T]) Got(stream string, item T) {
	s := sb.stream(stream)
	idx := s.got
	s.got++
	if len(s.pending) == 0 {
		sb.tb.Failf("scoreboard %q stream %q: unexpected item %d (%d matched, none expected): got %s",
			sb.name, stream, idx, s.matched, sb.show(item))
		return
	}
	i := 0
	if sb.anyOrd || sb.outOrd[stream] {
		i = -1
		for j, want := range s.pending {
			if sb.eq(item, want) {
				i = j
				break
			}
		}
		if i < 0 {
			sb.tb.Failf("scoreboard %q stream %q: item %d matches none of the %d expected (out of order); against the oldest, %s\n%s",
				sb.name, stream, idx, len(s.pending), sb.diff(item, s.pending[0]), sb.list(s.pending))
			return
		}
	} else if !sb.eq(item, s.pending[0]) {
		sb.tb.Failf("scoreboard %q stream %q: item %d differs (%d matched before it): %s",
			sb.name, stream, idx, s.matched, sb.diff(item, s.pending[0]))
		return
	}
	var zero T
	copy(s.pending[i:], s.pending[i+1:])
	s.pending[len(s.pending)-1] = zero
	s.pending = s.pending[:len(s.pending)-1]
	s.matched++
}

// Watch forks a task that reports every item recv returns as Got on
// stream, for as long as the bench runs (recv = a sink's Recv, a
// bench.Queue's Get). The task waits inside recv; the spec's own bounded
// waits, and Check at the end, are what catch items that never come.
func (sb *Scoreboard[T]) Watch(stream string, recv func() T) *bench.Task {
	sb.stream(stream)
	return sb.tb.Fork(fmt.Sprintf("scoreboard %s: watch %s", sb.name, stream), func() {
		for {
			item := recv()
			if sb.tb.Err() != nil { // recv returned because the bench stopped
				return
			}
			sb.Got(stream, item)
		}
	})
}

// Matched is how many items of stream matched an expected one.
func (sb *Scoreboard[T]) Matched(stream string) int {
	if s := sb.streams[stream]; s != nil {
		return s.matched
	}
	return 0
}

// Pending is how many items stream still expects.
func (sb *Scoreboard[T]) Pending(stream string) int {
	if s := sb.streams[stream]; s != nil {
		return len(s.pending)
	}
	return 0
}

// maxShown is how many of a stream's pending items a message lists.
const maxShown = 4

// Check fails the spec when a stream still expects items, naming per
// stream how many and the first few. New registers it with tb.AtEnd;
// a spec may also call it when it knows the traffic is over.
func (sb *Scoreboard[T]) Check() {
	var lines []string
	for _, name := range sb.order {
		s := sb.streams[name]
		if len(s.pending) == 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf("stream %q: %d still expected (%d matched): %s",
			name, len(s.pending), s.matched, sb.list(s.pending)))
	}
	if len(lines) > 0 {
		sb.tb.Failf("scoreboard %q: items never arrived:\n  %s", sb.name, strings.Join(lines, "\n  "))
	}
}

// list shows the first few of items.
func (sb *Scoreboard[T]) list(items []T) string {
	var parts []string
	for i, it := range items {
		if i == maxShown {
			parts = append(parts, fmt.Sprintf("... and %d more", len(items)-maxShown))
			break
		}
		parts = append(parts, sb.show(it))
	}
	return "first " + strings.Join(parts, ", ")
}

// show renders one item for a message.
func (sb *Scoreboard[T]) show(item T) string {
	if sb.format != nil {
		return sb.format(item)
	}
	return show(item)
}

// diff renders the difference between got and want.
func (sb *Scoreboard[T]) diff(got, want T) string {
	if sb.format != nil {
		return fmt.Sprintf("got %s, want %s", sb.format(got), sb.format(want))
	}
	return diff(got, want)
}
