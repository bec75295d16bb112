package text

import (
	"math/bits"
	"unicode/utf8"
)

// A front is a small direct-mapped cache of plain words in front of the
// analyzer's term cache, used by one Each call at a time (Analyzer.fronts
// pools them). Most words of a text are short runs of ASCII letters or
// digits; for them Each lowercases the word straight into the key of a
// front slot, and the frequent ones then cost neither the scan that builds
// the lowercased word nor a lookup in the shared map (a hash of the word
// and several cache misses through its groups, slots and key bytes).
// An entry never changes once a word has one (its term is a function of
// the word, and its ID is fixed when the term is first numbered), so a
// front may keep it for as long as its analyzer lives.
type front struct {
	slots [frontSlots]frontSlot
}

// frontKey is the longest word a front caches.
const frontKey = 16

// frontBits sizes a front: 1<<frontBits slots of 40 bytes.
const frontBits = 12

const frontSlots = 1 << frontBits

// frontSlot is one cached word: its bytes (little-endian, zero-padded),
// its length + 1 (0: empty), its term ("" for a stop word) and the
// term's ID.
type frontSlot struct {
	k0, k1 uint64
	n      uint32
	id     uint32
	term   string
}

// The kinds of bytes scanASCII saw.
const (
	asciiLetter = 1 << iota
	asciiDigit
)

// scanASCII returns the end j of the run of ASCII letters and digits at
// s[i:], the lowercased bytes of its first frontKey bytes as a front key
// (little-endian, zero-padded), and whether it holds letters, digits or
// both. Such a word, whole and not mixing letters with digits, is one
// that emitWord passes whole to emitPlain and to nothing else.
func scanASCII(s string, i int) (j int, k0, k1 uint64, kind uint8) {
	for j = i; j < len(s); j++ {
		c := s[j]
		if c >= utf8.RuneSelf || !asciiWord[c] {
			break
		}
		c |= 0x20 // lowercases A-Z; digits keep their value
		if c <= '9' {
			kind |= asciiDigit
		} else {
			kind |= asciiLetter
		}
		switch n := j - i; {
		case n < 8:
			k0 |= uint64(c) << (8 * n)
		case n < 16:
			k1 |= uint64(c) << (8 * (n - 8))
		}
	}
	return j, k0, k1, kind
}

// connector marks the ASCII bytes that may join word runes (scanWord).
var connector = [utf8.RuneSelf]bool{'-': true, '_': true, '\'': true, '.': true, ',': true}

// slot returns the slot of the word with key k0, k1 and length n.
func (f *front) slot(k0, k1 uint64, n int) *frontSlot {
	h := (k0 ^ bits.RotateLeft64(k1, 29) ^ uint64(n)<<59) * 0x9E3779B97F4A7C15
	return &f.slots[h>>(64-frontBits)]
}

// plain returns the entry of the plain ASCII word with key k0, k1 and
// length n (1..frontKey), from f or else from the analyzer.
func (a *Analyzer) plain(f *front, k0, k1 uint64, n int) entry {
	s := f.slot(k0, k1, n)
	if s.k0 == k0 && s.k1 == k1 && s.n == uint32(n)+1 {
		return entry{term: s.term, id: s.id}
	}
	var b [frontKey]byte
	for i := range n {
		if i < 8 {
			b[i] = byte(k0 >> (8 * i))
		} else {
			b[i] = byte(k1 >> (8 * (i - 8)))
		}
	}
	e := a.lookup(b[:n])
	*s = frontSlot{k0: k0, k1: k1, n: uint32(n) + 1, id: e.id, term: e.term}
	return e
}
