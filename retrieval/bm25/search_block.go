package bm25

import "encoding/binary"

// blockTerm returns the postings of term in block v (nil when the block
// lacks it); ok is false when v is corrupt before term's place. It is
// blockReader's walk with offsets instead of a decoder (no write barriers),
// and it compares a term's first byte before the whole term: terms are
// sorted, so most of those before term differ from it there already.
func blockTerm(v []byte, term string) (post []byte, ok bool) {
	left, pos := blockUvarint(v, 0)
	if pos < 0 {
		return nil, false
	}
	var first byte
	if len(term) > 0 {
		first = term[0]
	}
	for ; left > 0; left-- {
		n, p := blockUvarint(v, pos)
		if p < 0 || n > uint64(len(v)-p) {
			return nil, false
		}
		t := v[p : p+int(n)]
		m, q := blockUvarint(v, p+int(n))
		if q < 0 || m > uint64(len(v)-q) {
			return nil, false
		}
		pos = q + int(m)
		if len(t) > 0 && len(term) > 0 && t[0] < first {
			continue
		}
		if string(t) == term {
			return v[q:pos:pos], true
		}
		if string(t) > term {
			return nil, true
		}
	}
	return nil, true
}

// blockUvarint reads the uvarint at v[pos:] and returns it and the offset
// after it, or -1 as the offset when it is malformed.
func blockUvarint(v []byte, pos int) (uint64, int) {
	if pos < len(v) && v[pos] < 0x80 {
		return uint64(v[pos]), pos + 1
	}
	return longUvarint(v, pos)
}

// longUvarint is blockUvarint past its one-byte case: a loop that decodes
// most numbers in place tests that case itself (a call to blockUvarint is
// not inlined) and calls longUvarint for the rest.
func longUvarint(v []byte, pos int) (uint64, int) {
	if pos >= len(v) {
		return 0, -1
	}
	x, k := binary.Uvarint(v[pos:])
	if k <= 0 {
		return 0, -1
	}
	return x, pos + k
}
