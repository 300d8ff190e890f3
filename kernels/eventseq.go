package kernels

import (
	"math"

	"github.com/weft-hdl/weft/slt"
)

// Event keys (sir.Event.Seq) of partitioned tasks: each lane writes its own
// runtime-event ring, and the simulator merges the rings of one call by
// key, so a key must grow along the order in which the sequential kernel
// runs the processes. A fused kernel evaluates the fired trigger groups in
// ascending group order, each in its Evaluate order, then settles the comb
// nodes in schedule order: evaluate keys count from 0, settle keys from
// 1<<31.

const settleSeqBase = 1 << 31

// ffSeq is the key of process k of trigger group g.
func (c *compiler) ffSeq(g, k int) uint32 {
	if c.ffBase == nil {
		c.ffBase = make([]int, len(c.s.FF)+1)
		for i, grp := range c.s.FF {
			c.ffBase[i+1] = c.ffBase[i] + len(grp.Evaluate)
		}
	}
	return uint32(min(c.ffBase[g]+k, settleSeqBase-1))
}

// nodeSeq is the key of comb node n (n.Index is its place in the
// schedule's order).
func nodeSeq(n *slt.Node) uint32 { return uint32(min(settleSeqBase+n.Index, math.MaxUint32)) }
