package jit

import (
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/sir"
)

// TestFootprint: a kernel's Footprint covers every state byte its code
// changes (random units with branches and events, random states) and
// every byte the SIR says it writes, and leaves out what it only reads.
func TestFootprint(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	l, size := sir.PackedLayout(homeSizes, 256)
	units := 1500
	if testing.Short() {
		units = 300
	}
	covered := func(fp []ordering.Range, lo, hi int) bool {
		for _, r := range fp {
			if r.Lo <= lo && hi <= r.Hi {
				return true
			}
		}
		return false
	}
	for n := 0; n < units; n++ {
		u := genUnitEv(rng, true, n%3 == 0)
		if err := sir.Check(u); err != nil {
			t.Fatalf("bad unit: %v", err)
		}
		k, err := Compile(u, l, Options{StateSize: size})
		if err != nil {
			t.Fatalf("unit %d: %v\n%s", n, err, u)
		}
		fp := k.Footprint()
		for i := 1; i < len(fp); i++ {
			if fp[i].Lo <= fp[i-1].Hi {
				t.Fatalf("unit %d: footprint not merged: %v", n, fp)
			}
		}
		// Static SIR writes (absolute offsets); for a dynamic one the SIR
		// takes the whole home, the code only the elements it can address,
		// which the runs below check.
		for _, w := range sir.Effects(u, l).Writes {
			if !w.Dynamic && !covered(fp, w.Lo, w.Hi) {
				t.Fatalf("unit %d: SIR writes %v, footprint %v\n%s", n, w, fp, u)
			}
		}
		for run := 0; run < 3; run++ {
			buf := make([]byte, k.Size())
			rng.Read(buf[:size])
			before := append([]byte(nil), buf[:size]...)
			k.Run(buf)
			for i := range size {
				if buf[i] != before[i] && !covered(fp, i, i+1) {
					t.Fatalf("unit %d run %d: byte %d changed outside the footprint %v\n%s", n, run, i, fp, u)
				}
			}
		}
		k.Close()
	}
	// A unit that only reads has an empty footprint.
	b := sir.NewBuilder("reads")
	x := b.Load(64, 8, sir.Addr{Home: 1})
	_ = b.Add(x, x)
	b.Return(sir.StatusOK)
	k, err := Compile(b.U, l, Options{StateSize: size})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if fp := k.Footprint(); len(fp) != 0 {
		t.Errorf("read-only unit: footprint %v", fp)
	}
}
