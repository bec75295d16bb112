package bm25

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/internal/bindec"
)

// sortTermOrder sets order[k] to the index of the k-th smallest of the
// n terms term(0..n-1), using ks as scratch space; order must have length n.
// Each term is sorted as one number, its first bytes (big-endian,
// zero-padded) above its index: numbers with different prefixes order as
// their terms do, so only the runs of terms that share a prefix are then
// compared as strings.
func sortTermOrder(order []int32, ks *[]uint64, term func(int32) string) {
	n := len(order)
	if n == 0 {
		return
	}
	if cap(*ks) < n {
		*ks = make([]uint64, n, n+n/4)
	}
	keys := (*ks)[:n]
	idxBits := uint(bits.Len(uint(n - 1)))
	if idxBits == 0 {
		idxBits = 1
	}
	prefixBytes := int((64 - idxBits) / 8)
	idxMask := uint64(1)<<idxBits - 1
	for i := range keys {
		keys[i] = prefixOf(term(int32(i)), prefixBytes) | uint64(i)
	}
	slices.Sort(keys)
	for k, key := range keys {
		order[k] = int32(key & idxMask)
	}
	// Order the runs that share a prefix by the whole term.
	for start := 0; start < n; {
		end := start + 1
		for end < n && keys[end]&^idxMask == keys[start]&^idxMask {
			end++
		}
		if end-start > 1 {
			slices.SortFunc(order[start:end], func(a, b int32) int { return strings.Compare(term(a), term(b)) })
		}
		start = end
	}
}

// prefixOf returns the first k bytes of s (k <= 8) in the top bytes of a
// big-endian number, zero-padded.
func prefixOf(s string, k int) uint64 {
	var p uint64
	n := min(len(s), k)
	for i := 0; i < n; i++ {
		p |= uint64(s[i]) << (56 - 8*i)
	}
	return p
}

// nextEntry reads the first entry of b, as decoder.rawEntry does: its
// number, the bytes after the number (field mask and frequencies), and the
// bytes after the entry; ok is false if b does not start with an entry.
// The common entry, every number below 128 and a mask of the first seven
// fields, is read without a decoder.
func nextEntry(b []byte) (num uint64, rest, tail []byte, ok bool) {
	if len(b) >= 2 && b[0] < 0x80 && b[1] < 0x80 {
		k := 2 + bits.OnesCount8(b[1])
		if k <= len(b) {
			small := true
			for _, c := range b[2:k] {
				small = small && c < 0x80
			}
			if small {
				return uint64(b[0]), b[1:k:k], b[k:], true
			}
		}
	}
	d := decoder{bindec.Decoder{B: b}}
	num, rest = d.rawEntry()
	return num, rest, d.B, !d.Bad
}
