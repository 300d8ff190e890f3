package bench

import (
	"math/big"

	"github.com/weft-hdl/weft/dut"
)

// Sampled is a pre-edge view of some signals: the values they had just
// before the kernels of the latest evaluation in which an edge fired
// ran, which is what flops clocked by that edge sampled. weft shows the
// post-edge state after `tb.RisingEdge(clk)` (flops already updated, comb
// logic settled); cocotb shows the values before the edge's nonblocking
// assignments. A monitor that must see what the design registered at the
// edge (valid && ready of a handshake, the data beside them) reads them
// through a Sampled:
//
//	pre := tb.PreEdge(valid, ready, data)
//	for {
//		tb.RisingEdge(clk)
//		if pre.Get(valid) == 1 && pre.Get(ready) == 1 {
//			got = append(got, pre.Get(data))
//		}
//	}
//
// Inputs the bench wrote at the edge's time are included (flops see them:
// writes at one time are evaluated together with the clock edge of that
// time, after the input settle). A rising edge of a bench clock that
// fires nothing in the design (a bus that only wires through, no flop on
// that clock) samples right after its evaluation: no kernel of the edge
// ran, so that is the state a flop would have seen. While a Sampled
// exists, clock cycles run on the scheduler, not on the Tick fast path,
// since the fused tick loop has no pre-edge hook.
type Sampled struct {
	tb    *Bench
	sigs  []*dut.Signal
	index map[*dut.Signal]int
	words [][]uint64
}

// PreEdge starts sampling sigs before every edge evaluation (see
// Sampled). Until the first edge, Get returns the current values.
func (tb *Bench) PreEdge(sigs ...*dut.Signal) *Sampled {
	p := &Sampled{tb: tb, index: map[*dut.Signal]int{}}
	for _, sig := range sigs {
		if !tb.checkSig("PreEdge", sig) {
			return p
		}
		if sig.IsArray() {
			tb.failf("PreEdge(%s): an array; sample its elements", sig.Name())
			return p
		}
		p.index[sig] = len(p.sigs)
		p.sigs = append(p.sigs, sig)
		p.words = append(p.words, nil)
	}
	p.capture()
	if len(tb.samplers) == 0 {
		tb.s.SetPreEdge(tb.preEdge)
	}
	tb.samplers = append(tb.samplers, p)
	return p
}

func (tb *Bench) preEdge() {
	tb.sampled = true
	for _, p := range tb.samplers {
		p.capture()
	}
}

func (p *Sampled) capture() {
	for i, sig := range p.sigs {
		ws, err := p.tb.s.GetWords(sig.Home(), elemOf(sig), p.words[i][:0])
		if err != nil {
			p.tb.failf("PreEdge: %s: %v", sig.Name(), err)
			return
		}
		p.words[i] = ws
	}
}

// elemOf is the element index a scalar signal handle reads.
func elemOf(sig *dut.Signal) int { return sig.ElemIndex() }

func (p *Sampled) find(sig *dut.Signal) []uint64 {
	i, ok := p.index[sig]
	if !ok && sig != nil {
		// Another handle on the same signal (each tb.Signal call makes
		// one): the same element of the same signal is the same sample.
		for j, x := range p.sigs {
			if x.Home() == sig.Home() && x.ElemIndex() == sig.ElemIndex() {
				i, ok = j, true
				break
			}
		}
	}
	if !ok {
		p.tb.failf("Sampled.Get(%s): the signal is not sampled; name it in PreEdge", sigName(sig))
		return nil
	}
	return p.words[i]
}

// Get is sig's pre-edge value (the low 64 bits of a wider signal).
func (p *Sampled) Get(sig *dut.Signal) uint64 {
	ws := p.find(sig)
	if len(ws) == 0 {
		return 0
	}
	return ws[0]
}

// GetBig is sig's pre-edge value at any width.
func (p *Sampled) GetBig(sig *dut.Signal) *big.Int {
	ws := p.find(sig)
	x := new(big.Int)
	for i := len(ws) - 1; i >= 0; i-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(ws[i]))
	}
	return x
}

// Stop ends the sampling (the fast path may run again).
func (p *Sampled) Stop() {
	tb := p.tb
	live := tb.samplers[:0]
	for _, x := range tb.samplers {
		if x != p {
			live = append(live, x)
		}
	}
	clear(tb.samplers[len(live):])
	tb.samplers = live
	if len(live) == 0 {
		tb.s.SetPreEdge(nil)
	}
}
