package scc

import (
	"slices"
	"testing"
)

func TestTarjan(t *testing.T) {
	// 0 -> 1 -> 2 -> 0 is a loop; 2 -> 3; 3 -> 4 -> 3 another; 5 alone.
	adj := [][]int32{{1}, {2}, {0, 3}, {4}, {3}, nil}
	comp, n := Tarjan(len(adj), func(v int) []int32 { return adj[v] })
	if n != 3 {
		t.Fatalf("%d components: %v", n, comp)
	}
	if comp[0] != comp[1] || comp[1] != comp[2] || comp[3] != comp[4] || comp[0] == comp[3] || comp[5] == comp[0] || comp[5] == comp[3] {
		t.Fatalf("components %v", comp)
	}
	// Reverse topological: {3,4} completes before {0,1,2}, which reaches it.
	if comp[3] > comp[0] {
		t.Errorf("components %v are not in reverse topological order", comp)
	}
	// A long chain does not recurse.
	const long = 1 << 20
	comp, n = Tarjan(long, func(v int) []int32 {
		if v+1 < long {
			return []int32{int32(v + 1)}
		}
		return nil
	})
	if n != long || comp[0] != long-1 || comp[long-1] != 0 {
		t.Errorf("chain: %d components, comp[0]=%d", n, comp[0])
	}
	if !slices.Equal(comp[:2], []int32{long - 1, long - 2}) {
		t.Errorf("chain numbering %v", comp[:2])
	}
}
