package natsort

import (
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	got := []string{"g[10].u", "g[2].u", "g[1].v", "g[1].u", "a7x", "a", "b"}
	slices.SortFunc(got, Compare)
	want := []string{"a", "a7x", "b", "g[1].u", "g[1].v", "g[2].u", "g[10].u"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if Compare("g[2]", "g[002]") != 0 {
		t.Error("leading zeros should compare equal")
	}
}
