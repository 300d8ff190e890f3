// Package regset is a dense bit set used by SIR's data-flow analyses.
package regset

import "math/bits"

// Set is a bit set over 0..n-1.
type Set []uint64

// New returns an empty set for n elements.
func New(n int) Set { return make(Set, (n+63)/64) }

// Full returns a set holding 0..n-1.
func Full(n int) Set {
	s := New(n)
	s.Fill(n)
	return s
}

// Fill makes s (of New(n)'s size) hold 0..n-1, without allocating.
func (s Set) Fill(n int) {
	for i := range s {
		s[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		s[len(s)-1] = 1<<uint(r) - 1
	}
}

func (s Set) Add(i int)      { s[i>>6] |= 1 << uint(i&63) }
func (s Set) Remove(i int)   { s[i>>6] &^= 1 << uint(i&63) }
func (s Set) Has(i int) bool { return s[i>>6]&(1<<uint(i&63)) != 0 }
func (s Set) Copy(t Set)     { copy(s, t) }
func (s Set) Clone() Set     { return append(Set(nil), s...) }
func (s Set) Clear()         { clear(s) }

// And sets s = s ∩ t.
func (s Set) And(t Set) {
	for i := range s {
		s[i] &= t[i]
	}
}

// Or sets s = s ∪ t and reports whether s changed.
func (s Set) Or(t Set) bool {
	ch := false
	for i := range s {
		n := s[i] | t[i]
		ch = ch || n != s[i]
		s[i] = n
	}
	return ch
}

// AndNot sets s = s \ t.
func (s Set) AndNot(t Set) {
	for i := range s {
		s[i] &^= t[i]
	}
}

// Equal reports whether s and t hold the same elements.
func (s Set) Equal(t Set) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Len counts the elements.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// ForEach calls fn for every element, in ascending order: a cost in the
// set's words plus its elements, not in the universe's size.
func (s Set) ForEach(fn func(i int)) {
	for wi, w := range s {
		for w != 0 {
			fn(wi<<6 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}
