//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// event emits an OpEvent with random kind, format, level and arguments,
// some of them wide (several words: full 64-bit words, then the rest).
func (g *rgen) event(scope []sir.Reg) {
	ev := &sir.Event{Kind: sir.EvDisplay + sir.EventKind(g.rng.Intn(int(sir.EvInfo-sir.EvDisplay)+1))}
	ev.Format = int(interesting(g.rng, 32))
	if g.rng.Intn(2) == 0 {
		ev.Level = int(interesting(g.rng, 32))
	}
	for i := 0; i < g.rng.Intn(5); i++ {
		w := g.width()
		if g.rng.Intn(4) == 0 {
			w += 64 * (1 + g.rng.Intn(3)) // 2..4 words
		}
		a := sir.EventArg{Width: w, Signed: g.rng.Intn(2) == 0}
		for j := 0; j < (w+63)/64; j++ {
			a.Words = append(a.Words, g.operand(scope, min(64, w-64*j)))
		}
		ev.Args = append(ev.Args, a)
	}
	g.emit(sir.Inst{Op: sir.OpEvent, Ev: ev})
}

// ringHeader fills the ring header at ring[0:] for one run: an empty ring
// of a small (often overflowing) capacity, a partly used one, one that has
// dropped already, or random bytes (capacities past the state end).
func ringHeader(rng *rand.Rand, ring []byte, maxCap int) {
	le := binary.LittleEndian
	switch rng.Intn(6) {
	case 0: // random header: left as is
	case 1:
		sir.InitRing(ring, maxCap)
	case 2:
		sir.InitRing(ring, maxCap+1+rng.Intn(1000)) // cap past the state end: clamped
	case 3:
		sir.InitRing(ring, rng.Intn(maxCap+1))
		le.PutUint32(ring[12:], uint32(1+rng.Intn(3)))
	case 4:
		sir.InitRing(ring, rng.Intn(maxCap+1))
		le.PutUint32(ring[4:], uint32(rng.Intn(maxCap+8)))
		le.PutUint32(ring[0:], uint32(rng.Intn(5)))
	default:
		sir.InitRing(ring, 8*rng.Intn(maxCap/8+1))
	}
}

func testRandomEvents(t *testing.T, branches bool, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	units := 2000
	if testing.Short() {
		units = 300
	}
	events, insts := 0, 0
	for n := 0; n < units; n++ {
		ringCap := []int{0, 8, 16, 24, 40, 64, 128, 256, 1024}[rng.Intn(9)]
		l, size := sir.PackedLayout(homeSizes, ringCap)
		ro := l.Offset(sir.RingHome)
		u := genUnitEv(rng, branches, true)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator made a bad unit: %v\n%s", err, u)
		}
		insts += u.NumInsts()
		for _, b := range u.Blocks {
			for i := range b.Insts {
				if b.Insts[i].Op == sir.OpEvent {
					events++
				}
			}
		}
		fi, k := compileBoth(t, u, l, size)
		for run := 0; run < 6; run++ {
			state := make([]byte, size)
			rng.Read(state)
			ringHeader(rng, state[ro:], ringCap)
			if d := diffRun(t, fi, k, state); d != "" {
				t.Fatalf("unit %d run %d (ring cap %d, header % x): %s\n%s", n, run, ringCap, state[ro:ro+16], d, u)
			}
		}
		k.Close()
	}
	t.Logf("%d units, %d instructions, %d events, 6 states each", units, insts, events)
}

func TestRandomEventsStraight(t *testing.T)  { testRandomEvents(t, false, 12) }
func TestRandomEventsBranching(t *testing.T) { testRandomEvents(t, true, 13) }

// TestEventRing: a unit with several events on a ring that fills up, run
// repeatedly without draining: records, count, used, dropped and the
// ringfull status match the interpreter run after run, and decode.
func TestEventRing(t *testing.T) {
	b := sir.NewBuilder("ev")
	x := b.Load(8, 1, sir.Addr{Home: 0, Offset: 0})
	lo := b.Const(64, 0x8000_0000_0000_0001)
	hi := b.Const(36, 0xf_0000_0001)
	b.Emit(sir.Inst{Op: sir.OpEvent, Ev: &sir.Event{Kind: sir.EvDisplay, Format: 7, Seq: 0x8000_0005,
		Args: []sir.EventArg{{Words: []sir.Reg{x}, Width: 8, Signed: true}}}})
	b.Emit(sir.Inst{Op: sir.OpEvent, Ev: &sir.Event{Kind: sir.EvWrite, Format: 1 << 31,
		Args: []sir.EventArg{{Words: []sir.Reg{lo, hi}, Width: 100}, {Words: []sir.Reg{x}, Width: 8}}}})
	b.Emit(sir.Inst{Op: sir.OpEvent, Ev: &sir.Event{Kind: sir.EvFinish, Level: 2}})
	b.Return(sir.StatusOK)
	u, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	// records: 40, 24+24+16 = 64, 24 bytes; 128 per run
	for _, ringCap := range []int{0, 24, 40, 112, 128, 240, 256, 1000} {
		l, size := sir.PackedLayout([]int{8}, ringCap)
		ro := l.Offset(sir.RingHome)
		fi, k := compileBoth(t, u, l, size)
		want := make([]byte, size)
		want[0] = 0x9c
		sir.InitRing(want[ro:], ringCap)
		got := make([]byte, k.Size())
		copy(got, want)
		for run := 0; run < 3; run++ {
			ws, gs := fi.Run(want), k.Run(got)
			if ws != gs || string(want) != string(got[:size]) {
				t.Fatalf("cap %d run %d: status native %v interp %v\nnative % x\ninterp % x", ringCap, run, gs, ws, got[ro:size], want[ro:])
			}
			recs, dropped, err := sir.DecodeRing(got[ro:size])
			if err != nil {
				t.Fatalf("cap %d run %d: %v", ringCap, run, err)
			}
			if wantSt := map[bool]sir.Status{false: sir.StatusOK, true: sir.StatusRingFull}[dropped != 0]; gs != wantSt {
				t.Fatalf("cap %d run %d: status %v with %d dropped", ringCap, run, gs, dropped)
			}
			if run == 0 && ringCap >= 128 && (len(recs) != 3 || recs[0].Seq != 0x8000_0005 || recs[1].Seq != 0 || recs[1].Args[0].Words[1] != 0xf_0000_0001 || recs[0].Args[0].Words[0] != 0x9c || !recs[0].Args[0].Signed) {
				t.Fatalf("cap %d: records %+v", ringCap, recs)
			}
		}
	}
}
