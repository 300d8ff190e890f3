package regset

import (
	"slices"
	"testing"
)

func TestForEach(t *testing.T) {
	s := New(200)
	want := []int{0, 1, 63, 64, 65, 127, 128, 199}
	for _, i := range want {
		s.Add(i)
	}
	var got []int
	s.ForEach(func(i int) { got = append(got, i) })
	if !slices.Equal(got, want) || s.Len() != len(want) {
		t.Fatalf("ForEach visited %v, want %v", got, want)
	}
	New(0).ForEach(func(int) { t.Fatal("an empty set has no element") })
}
