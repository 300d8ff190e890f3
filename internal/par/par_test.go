package par

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestDoRunsEachOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 7} {
		var hits [1000]atomic.Int32
		if err := Do(len(hits), workers, func(i int) error { hits[i].Add(1); return nil }); err != nil {
			t.Fatal(err)
		}
		for i := range hits {
			if n := hits[i].Load(); n != 1 {
				t.Fatalf("workers %d: piece %d ran %d times", workers, i, n)
			}
		}
	}
}

// TestDoFirstError checks that the error is the lowest failing piece's
// whatever the scheduling, and that pieces before it all ran.
func TestDoFirstError(t *testing.T) {
	for round := range 200 {
		var ran [64]atomic.Bool
		err := Do(len(ran), 4, func(i int) error {
			ran[i].Store(true)
			if i == 17 || i == 40 || (round%2 == 0 && i == 3) {
				return fmt.Errorf("piece %d", i)
			}
			return nil
		})
		want := "piece 17"
		if round%2 == 0 {
			want = "piece 3"
		}
		if err == nil || err.Error() != want {
			t.Fatalf("round %d: got %v, want %s", round, err, want)
		}
		for i := range 3 {
			if !ran[i].Load() {
				t.Fatalf("round %d: piece %d before the failure did not run", round, i)
			}
		}
	}
}

func TestDoNothing(t *testing.T) {
	if err := Do(0, 4, func(int) error { return errors.New("called") }); err != nil {
		t.Fatal(err)
	}
}
