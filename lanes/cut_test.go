package lanes

import (
	"slices"
	"testing"
)

// TestCutInOrder: runs in order, about equal, a preload on lane 0 counted.
func TestCutInOrder(t *testing.T) {
	for _, c := range []struct {
		costs, load, want, wantLoad []int
	}{
		{[]int{1, 1, 1, 1}, []int{0, 0}, []int{0, 0, 1, 1}, []int{2, 2}},
		{[]int{5, 1, 1, 1, 1, 1}, []int{0, 0}, []int{0, 1, 1, 1, 1, 1}, []int{5, 5}},
		{[]int{1, 1, 1, 1, 1, 1}, []int{0, 0, 0}, []int{0, 0, 1, 1, 2, 2}, []int{2, 2, 2}},
		{[]int{1, 1, 1, 1}, []int{2, 0}, []int{0, 1, 1, 1}, []int{3, 3}},
		{[]int{3}, []int{0, 0}, []int{0}, []int{3, 0}},
		{[]int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, []int{0, 0}, []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}, []int{16, 16}},
	} {
		load := slices.Clone(c.load)
		if got := CutInOrder(c.costs, load); !slices.Equal(got, c.want) || !slices.Equal(load, c.wantLoad) {
			t.Errorf("CutInOrder(%v, %v) = %v, loads %v; want %v, %v", c.costs, c.load, got, load, c.want, c.wantLoad)
		}
	}
}
