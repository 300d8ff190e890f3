package design

import (
	"math/big"
	"math/bits"
)

// Concatenations and replications are built word by word: shifting the
// value built so far once per part, as {a, b, c} reads, costs the square of
// its width, minutes for {6000000{1'b1}}.

// bitWriter fills a value from its least significant bit up.
type bitWriter struct {
	words []big.Word
	n     int // bits written
}

func newBitWriter(width int) *bitWriter {
	return &bitWriter{words: make([]big.Word, width/bits.UintSize+1)}
}

// put appends the low w bits of v (v >= 0) above the bits written so far.
func (b *bitWriter) put(v *big.Int, w int) {
	src := v.Bits()
	idx, sh := b.n/bits.UintSize, uint(b.n%bits.UintSize)
	for i := 0; i*bits.UintSize < w && i < len(src); i++ {
		x := src[i]
		if rest := w - i*bits.UintSize; rest < bits.UintSize {
			x &= big.Word(1)<<uint(rest) - 1
		}
		b.words[idx+i] |= x << sh
		if sh != 0 && idx+i+1 < len(b.words) {
			b.words[idx+i+1] |= x >> (bits.UintSize - sh)
		}
	}
	b.n += w
}

func (b *bitWriter) value() *big.Int { return new(big.Int).SetBits(b.words) }

// ConcatBits is the concatenation of vals, the most significant first;
// widths[i] is the width of vals[i] (each value non-negative; bits above
// its width are dropped). It takes time linear in the total width.
func ConcatBits(vals []*big.Int, widths []int) *big.Int {
	total := 0
	for _, w := range widths {
		total += w
	}
	b := newBitWriter(total)
	for i := len(vals) - 1; i >= 0; i-- {
		b.put(vals[i], widths[i])
	}
	return b.value()
}

// ReplicateBits is n copies of the w-bit value v side by side, in time
// linear in n*w.
func ReplicateBits(v *big.Int, w, n int) *big.Int {
	b := newBitWriter(w * n)
	for range n {
		b.put(v, w)
	}
	return b.value()
}
