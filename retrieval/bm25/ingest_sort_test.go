package bm25

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mrpvm/mrpvm/internal/bindec"
)

// TestSortTermOrder sorts terms that share long prefixes, hold zero and
// 0xff bytes, and number enough to leave fewer bytes for the prefix.
func TestSortTermOrder(t *testing.T) {
	fixed := []string{"b", "abcdefgh", "abcdefgi", "abcdefghz", "", "abcdefgh\x00", "a", "a\x00",
		"zzzzzzzzzz", "abcdefg", "é", "abc", "\xff\xff\xff\xff\xff\xff\xff\xff", "\xff"}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 14, 300, 70000} {
		terms := slices.Clone(fixed)
		if n < len(terms) {
			terms = terms[:n]
		}
		for len(terms) < n {
			w := make([]byte, r.IntN(12))
			for i := range w {
				w[i] = "ab\x00\xff"[r.IntN(4)]
			}
			terms = append(terms, string(w))
		}
		order := make([]int32, len(terms))
		var ks []uint64
		sortTermOrder(order, &ks, func(i int32) string { return terms[i] })
		got := make([]string, len(order))
		seen := make([]bool, len(order))
		for k, i := range order {
			if seen[i] {
				t.Fatalf("n=%d: index %d twice", n, i)
			}
			seen[i] = true
			got[k] = terms[i]
		}
		want := slices.Clone(terms)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: sorted %q, want %q", n, got, want)
		}
	}
}

// TestNextEntry reads entries with small and large numbers, masks and
// frequencies, and truncated ones, as decoder.rawEntry does.
func TestNextEntry(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var tf [NumFields]uint32
		for f := range tf {
			if r.IntN(3) == 0 {
				tf[f] = uint32(r.IntN(300))
			}
		}
		b := appendEntry(nil, uint64(r.IntN(400)), &tf)
		b = append(b, 7, 1, 1) // the next entry
		if cut := r.IntN(4); cut == 0 {
			b = b[:r.IntN(len(b))]
		}
		d := decoder{bindec.Decoder{B: b}}
		wantNum, wantRest := d.rawEntry()
		num, rest, tail, ok := nextEntry(b)
		if ok != !d.Bad {
			t.Fatalf("%x: ok %v, decoder error %v", b, ok, d.Bad)
		}
		if ok && (num != wantNum || !slices.Equal(rest, wantRest) || !slices.Equal(tail, d.B)) {
			t.Fatalf("%x: got %d %x %x, want %d %x %x", b, num, rest, tail, wantNum, wantRest, d.B)
		}
	}
}
