package ordering_test

import (
	"bytes"
	"math/rand/v2"
	"sort"
	"testing"
	"unsafe"

	"github.com/weft-hdl/weft/lanepool"
	"github.com/weft-hdl/weft/ordering"
)

// apply runs task t on state: every written byte becomes a function of the
// task's index and every byte it reads.
func apply(t ordering.Task, state []byte) {
	s := uint64(t.Index)*131 + 7
	for _, r := range t.Effects.Reads {
		for b := r.Lo; b < r.Hi; b++ {
			s = s*31 + uint64(state[b])
		}
	}
	for _, r := range t.Effects.Writes {
		for b := r.Lo; b < r.Hi; b++ {
			state[b] = byte(s + uint64(b))
		}
	}
}

// TestWaitsRunOnPool runs random tables with their waits on a lanepool and
// compares the state with a sequential run. Under -race, the race detector
// also checks that every conflicting access is ordered.
func TestWaitsRunOnPool(t *testing.T) {
	pool, err := lanepool.New(8)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	iters := 40
	if testing.Short() {
		iters = 10
	}
	for seed := range iters {
		rng := rand.New(rand.NewPCG(uint64(seed), 99))
		const size = 96
		lanes := randTable(rng, 1+rng.IntN(8), 1+rng.IntN(60), size-16)
		waits, err := ordering.Waits(lanes)
		if err != nil {
			t.Fatal(err)
		}
		table := make([][]lanepool.Task, len(lanes))
		var seq []ordering.Task
		for l, list := range lanes {
			for i, task := range list {
				table[l] = append(table[l], lanepool.Task{
					Index: task.Index,
					Waits: poolWaits(waits[l][i]),
					Fn: func(p unsafe.Pointer) lanepool.Status {
						apply(task, unsafe.Slice((*byte)(p), size))
						return lanepool.OK
					},
				})
				seq = append(seq, task)
			}
		}
		k, err := pool.NewKernel(table)
		if err != nil {
			t.Fatalf("seed %d: NewKernel: %v", seed, err)
		}
		sort.Slice(seq, func(i, j int) bool { return seq[i].Index < seq[j].Index })
		init := make([]byte, size)
		for i := range init {
			init[i] = byte(rng.Uint32())
		}
		want := append([]byte(nil), init...)
		for _, task := range seq {
			apply(task, want)
		}
		for run := range 3 {
			state := append([]byte(nil), init...)
			res, err := pool.Run(k, unsafe.Pointer(&state[0]))
			if err != nil || !res.OK() {
				t.Fatalf("seed %d run %d: %v %v", seed, run, res, err)
			}
			if !bytes.Equal(state, want) {
				t.Fatalf("seed %d run %d: state differs from the sequential run\n got %v\nwant %v", seed, run, state, want)
			}
		}
	}
}

// poolWaits converts ordering's waits to the pool's (same fields).
func poolWaits(ws []ordering.Wait) []lanepool.Wait {
	out := make([]lanepool.Wait, len(ws))
	for i, w := range ws {
		out[i] = lanepool.Wait(w)
	}
	return out
}
