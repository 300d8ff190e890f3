package ordering_test

import (
	"reflect"
	"testing"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/sir"
)

// testLayout implements sir.Layout and sir.Sizer:
//
//	h0 [0, 4)  h1 [16, 32)  h2 [32, 44)  h3 [48, 56)  ring [64, 112)
type testLayout struct{ noSizes bool }

var (
	testOffsets = map[sir.HomeID]int{0: 0, 1: 16, 2: 32, 3: 48, sir.RingHome: 64}
	testSizes   = map[sir.HomeID]int{0: 4, 1: 16, 2: 12, 3: 8, sir.RingHome: 48}
)

func (testLayout) Offset(h sir.HomeID) int { return testOffsets[h] }
func (l testLayout) Size(h sir.HomeID) int {
	if l.noSizes {
		return 0
	}
	return testSizes[h]
}

// offsetsOnly is a Layout without sizes.
type offsetsOnly struct{}

func (offsetsOnly) Offset(h sir.HomeID) int { return testOffsets[h] }

func TestRoundPart(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 2: 2, 3: 4, 4: 4, 5: 8, 6: 8, 7: 8, 8: 8} {
		if got := ordering.RoundPart(n); got != want {
			t.Errorf("RoundPart(%d) = %d, want %d", n, got, want)
		}
	}
	for _, c := range []struct{ n, hi int }{
		{1, 101}, {2, 102}, {3, 104}, {4, 104}, {5, 108}, {8, 108},
		{9, 109}, {10, 110}, {11, 112}, {13, 116}, {16, 116}, {17, 117}, {19, 120},
	} {
		if got, want := ordering.StoreFootprint(100, c.n), (ordering.Range{Lo: 100, Hi: c.hi}); got != want {
			t.Errorf("StoreFootprint(100, %d) = %v, want %v", c.n, got, want)
		}
	}
}

// unit builds a unit with f; check says whether the unit must pass sir.Check
// (stores of 3, 5 or 11 bytes are not SIR, but a backend may coalesce stores
// into them).
func unit(t *testing.T, check bool, f func(b *sir.Builder)) *sir.Unit {
	t.Helper()
	b := sir.NewBuilder("u")
	f(b)
	b.Return(sir.StatusOK)
	if !check {
		return b.U
	}
	u, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func rs(pairs ...int) []ordering.Range {
	var out []ordering.Range
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, ordering.Range{Lo: pairs[i], Hi: pairs[i+1]})
	}
	return out
}

func store(size int, a sir.Addr, w int) func(b *sir.Builder) {
	return func(b *sir.Builder) {
		x := b.Const(w, 1)
		b.Emit(sir.Inst{Op: sir.OpStore, A: x, Size: size, Addr: a})
	}
}

func storeBits(a sir.Addr, lo, w int) func(b *sir.Builder) {
	return func(b *sir.Builder) { b.StoreBits(a, lo, b.Const(w, 1)) }
}

func TestFromUnits(t *testing.T) {
	dyn := func(size, stride, count int) func(b *sir.Builder) {
		return func(b *sir.Builder) {
			i := b.Load(8, 1, sir.Addr{Home: 0})
			b.Store(size, sir.Addr{Home: 2, Index: i, Stride: stride, Count: count}, b.Const(8*size, 1))
		}
	}
	cases := []struct {
		name   string
		layout sir.Layout
		check  bool
		build  func(b *sir.Builder)
		want   ordering.Effects
	}{
		{"store 1", testLayout{}, true, store(1, sir.Addr{Home: 0, Offset: 1}, 8),
			ordering.Effects{Writes: rs(1, 2), Footprint: rs(1, 2)}},
		{"store 4", testLayout{}, true, store(4, sir.Addr{Home: 1, Offset: 2}, 32),
			ordering.Effects{Writes: rs(18, 22), Footprint: rs(18, 22)}},
		{"store 3 rounds to 4", testLayout{}, false, store(3, sir.Addr{Home: 1}, 24),
			ordering.Effects{Writes: rs(16, 19), Footprint: rs(16, 20)}},
		{"store 5 rounds to 8", testLayout{}, false, store(5, sir.Addr{Home: 1}, 40),
			ordering.Effects{Writes: rs(16, 21), Footprint: rs(16, 24)}},
		{"store 11 is 8 then 3 rounded to 4", testLayout{}, false, store(11, sir.Addr{Home: 1}, 64),
			ordering.Effects{Writes: rs(16, 27), Footprint: rs(16, 28)}},
		{"bit field in 3 bytes rounds to 4", testLayout{}, true, storeBits(sir.Addr{Home: 2}, 4, 16),
			ordering.Effects{Writes: rs(32, 35), Footprint: rs(32, 36)}},
		{"bit field past the first byte", testLayout{}, true, storeBits(sir.Addr{Home: 2}, 12, 8),
			ordering.Effects{Writes: rs(33, 35), Footprint: rs(33, 35)}},
		{"bit field in 5 bytes rounds to 8", testLayout{}, true, storeBits(sir.Addr{Home: 2}, 3, 35),
			ordering.Effects{Writes: rs(32, 37), Footprint: rs(32, 40)}},
		{"single bit", testLayout{}, true, storeBits(sir.Addr{Home: 3, Offset: 1}, 7, 1),
			ordering.Effects{Writes: rs(49, 50), Footprint: rs(49, 50)}},
		{"dynamic store covers the object and 8 bytes", testLayout{}, true, dyn(4, 4, 3),
			ordering.Effects{Reads: rs(0, 1), Writes: rs(32, 44), Footprint: rs(32, 52)}},
		{"dynamic store without sizes", offsetsOnly{}, true, dyn(2, 4, 3),
			ordering.Effects{Reads: rs(0, 1), Writes: rs(32, 42), Footprint: rs(32, 50)}},
		{"dynamic store with unknown sizes", testLayout{noSizes: true}, true, dyn(2, 4, 3),
			ordering.Effects{Reads: rs(0, 1), Writes: rs(32, 42), Footprint: rs(32, 50)}},
		{"dynamic load covers the object", testLayout{}, true, func(b *sir.Builder) {
			i := b.Load(8, 1, sir.Addr{Home: 0})
			b.Load(8, 1, sir.Addr{Home: 1, Index: i, Stride: 1, Count: 4})
		}, ordering.Effects{Reads: rs(0, 1, 16, 32)}},
		{"event ring is one resource", testLayout{}, true, func(b *sir.Builder) {
			b.Event(&sir.Event{Kind: sir.EvDisplay})
		}, ordering.Effects{Reads: rs(64, 112), Writes: rs(64, 112), Footprint: rs(64, 112)}},
		{"loads and stores merge", testLayout{}, true, func(b *sir.Builder) {
			x := b.Load(8, 1, sir.Addr{Home: 1})
			b.Load(8, 1, sir.Addr{Home: 1, Offset: 1})
			b.Load(8, 1, sir.Addr{Home: 3})
			b.Store(1, sir.Addr{Home: 0}, x)
			b.Store(2, sir.Addr{Home: 0, Offset: 1}, b.ZExt(16, x))
		}, ordering.Effects{Reads: rs(16, 18, 48, 49), Writes: rs(0, 3), Footprint: rs(0, 3)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := unit(t, c.check, c.build)
			if got := ordering.FromUnits(c.layout, u); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("FromUnits =\n %+v\nwant\n %+v", got, c.want)
			}
		})
	}
}

func TestFromUnitsSeveral(t *testing.T) {
	a := unit(t, false, store(3, sir.Addr{Home: 1}, 24))
	b := unit(t, true, func(b *sir.Builder) {
		x := b.Load(8, 1, sir.Addr{Home: 3})
		b.Store(1, sir.Addr{Home: 1, Offset: 4}, x)
	})
	got := ordering.FromUnits(testLayout{}, a, nil, b)
	want := ordering.Effects{Reads: rs(48, 49), Writes: rs(16, 19, 20, 21), Footprint: rs(16, 21)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("FromUnits = %+v, want %+v", got, want)
	}
}

// Through FromUnits and Waits: the event ring orders two tasks that touch
// nothing else in common, and a dynamic store's slack orders it against a
// store to the next object.
func TestWaitsFromUnits(t *testing.T) {
	l := testLayout{}
	event := func(h sir.HomeID) *sir.Unit {
		return unit(t, true, func(b *sir.Builder) {
			b.Store(1, sir.Addr{Home: h}, b.Const(8, 1))
			b.Event(&sir.Event{Kind: sir.EvDisplay})
		})
	}
	plain := func(h sir.HomeID) *sir.Unit { return unit(t, true, store(1, sir.Addr{Home: h}, 8)) }
	dynStore := unit(t, true, func(b *sir.Builder) {
		i := b.Load(8, 1, sir.Addr{Home: 1})
		b.Store(4, sir.Addr{Home: 2, Index: i, Stride: 4, Count: 3}, b.Const(32, 1))
	})
	cases := []struct {
		name string
		a, b *sir.Unit
		want []ordering.Wait
	}{
		{"both emit events", event(0), event(3), []ordering.Wait{{Lane: 0, Count: 1}}},
		{"no events", plain(0), plain(3), nil},
		{"one emits events", event(0), plain(3), nil},
		{"dynamic store slack", dynStore, plain(3), []ordering.Wait{{Lane: 0, Count: 1}}},
		{"dynamic store far away", dynStore, plain(0), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lanes := [][]ordering.Task{
				{{Index: 0, Effects: ordering.FromUnits(l, c.a)}},
				{{Index: 1, Effects: ordering.FromUnits(l, c.b)}},
			}
			ws, err := ordering.Waits(lanes)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ws[1][0], c.want) {
				t.Fatalf("waits %v, want %v", ws[1][0], c.want)
			}
			if err := checkPlan(lanes, ws); err != nil {
				t.Fatal(err)
			}
		})
	}
}
