// Package scc finds the strongly connected components of a directed graph:
// the one implementation slt/ (comb loops) and lanes/ (joined work that
// depends on itself) share.
package scc

// Tarjan computes the strongly connected components of a graph of n
// vertices without recursion. comp[v] numbers the components in the order
// Tarjan completes them, which is a reverse topological order.
func Tarjan(n int, succ func(v int) []int32) (comp []int32, count int) {
	index := make([]int32, n) // 0: unvisited; otherwise discovery number
	low := make([]int32, n)
	comp = make([]int32, n)
	onStack := make([]bool, n)
	stack := make([]int32, 0, 64)
	type frame struct{ v, ei int32 }
	call := make([]frame, 0, 64)
	next := int32(1)
	for s := 0; s < n; s++ {
		if index[s] != 0 {
			continue
		}
		index[s], low[s] = next, next
		next++
		stack = append(stack, int32(s))
		onStack[s] = true
		call = append(call, frame{int32(s), 0})
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			adj := succ(int(v))
			if int(f.ei) < len(adj) {
				w := adj[f.ei]
				f.ei++
				if index[w] == 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(count)
					if w == v {
						break
					}
				}
				count++
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				if low[v] < low[u] {
					low[u] = low[v]
				}
			}
		}
	}
	return comp, count
}
