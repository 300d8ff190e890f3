package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// Key names a cache entry: a SHA-256 of everything the entry depends on.
type Key [32]byte

// String is the key in lowercase hex, as it appears in the entry's file name.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// keyDomain starts every key's hash, so that a key never equals some other
// SHA-256 of the same fields, and so that changing the encoding below can
// change every key at once.
const keyDomain = "weft-cache-key/1"

// KeyBuilder hashes labelled fields into a Key. Each field is encoded as its
// kind, the label's length and bytes, then the data's length and bytes, so
// no two different sequences of fields give the same input to the hash
// (Add("a", "bc") and Add("ab", "c") differ, as do one field and two).
// The zero value is ready to use.
type KeyBuilder struct {
	h hash.Hash
}

// NewKey starts a key.
func NewKey() *KeyBuilder {
	b := &KeyBuilder{}
	b.init()
	return b
}

func (b *KeyBuilder) init() {
	if b.h == nil {
		b.h = sha256.New()
		b.h.Write([]byte(keyDomain))
	}
}

// Field kinds: a number added with AddUint64 never collides with bytes that
// happen to encode the same number.
const (
	kindBytes  = 'b'
	kindUint64 = 'u'
)

func (b *KeyBuilder) field(kind byte, label string, data []byte) {
	b.init()
	var n [8]byte
	b.h.Write([]byte{kind})
	binary.BigEndian.PutUint64(n[:], uint64(len(label)))
	b.h.Write(n[:])
	b.h.Write([]byte(label))
	binary.BigEndian.PutUint64(n[:], uint64(len(data)))
	b.h.Write(n[:])
	b.h.Write(data)
}

// Add adds a field with the given label and data.
func (b *KeyBuilder) Add(label string, data []byte) *KeyBuilder {
	b.field(kindBytes, label, data)
	return b
}

// AddString adds a text field; it is the same as Add with the string's bytes.
func (b *KeyBuilder) AddString(label, s string) *KeyBuilder {
	b.field(kindBytes, label, []byte(s))
	return b
}

// AddUint64 adds a number field.
func (b *KeyBuilder) AddUint64(label string, v uint64) *KeyBuilder {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], v)
	b.field(kindUint64, label, n[:])
	return b
}

// Sum returns the key of the fields added so far. It does not change the
// builder: more fields may follow, giving another key.
func (b *KeyBuilder) Sum() Key {
	b.init()
	var k Key
	b.h.Sum(k[:0])
	return k
}
