// Package hdc is the hyperdimensional (vector-symbolic) layer of kb-balanced:
// 4096-bit binary hypervectors, bind = XOR, bundle = bitwise majority
// computed word-parallel with bit-sliced counters, similarity = 1 -
// Hamming/4096, and a deterministic random vector for every symbol (a
// seeded hash expanded by splitmix64).
//
// KUs are encoded at ingest into field hypervectors that are persisted in
// the plugin's KV namespace, and BM25 candidates are reranked by the BM25
// score fused with the weighted field similarities (see Params), plus MMR
// diversity.
package hdc

import (
	"encoding/binary"
	"math/bits"
)

// Bits is the dimension of a hypervector; Words the number of uint64 words.
const (
	Bits  = 4096
	Words = Bits / 64
)

// Vector is a binary hypervector.
type Vector [Words]uint64

// splitmix64 is the SplitMix64 step: it advances *s and returns a
// well-mixed 64-bit value.
func splitmix64(s *uint64) uint64 {
	*s += gamma
	return mix64(*s)
}

// gamma is the SplitMix64 increment: word i of Random(seed) is
// mix64(seed + (i+1)*gamma), so words can be generated independently.
const gamma = 0x9e3779b97f4a7c15

// mix64 is the SplitMix64 output function.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Seed returns the 64-bit seed of a symbol: FNV-1a of its name.
func Seed(symbol string) uint64 {
	return fnv1a(fnvOffset, symbol)
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnv1a(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// Random fills v with the pseudo-random vector of seed.
func Random(seed uint64, v *Vector) {
	s := seed
	for i := range v {
		v[i] = splitmix64(&s)
	}
}

// Symbol returns the vector of a symbol: deterministic across runs and
// machines, and independent of other symbols.
func Symbol(symbol string) Vector {
	var v Vector
	Random(Seed(symbol), &v)
	return v
}

// Bind returns a XOR b. Binding is its own inverse and yields a vector
// dissimilar to both operands.
func Bind(a, b *Vector) Vector {
	var v Vector
	for i := range v {
		v[i] = a[i] ^ b[i]
	}
	return v
}

// Hamming returns the number of differing bits.
func Hamming(a, b *Vector) int {
	// Four independent sums: the popcounts pipeline instead of waiting on
	// one accumulator (20 % faster than the plain loop).
	var n0, n1, n2, n3 int
	for i := 0; i < Words; i += 4 {
		n0 += bits.OnesCount64(a[i] ^ b[i])
		n1 += bits.OnesCount64(a[i+1] ^ b[i+1])
		n2 += bits.OnesCount64(a[i+2] ^ b[i+2])
		n3 += bits.OnesCount64(a[i+3] ^ b[i+3])
	}
	return n0 + n1 + n2 + n3
}

// HammingBytes is Hamming(a, v) for the vector v that b encodes (FromBytes),
// read in place.
func HammingBytes(a *Vector, b []byte) int {
	b = b[:Words*8]
	var n0, n1, n2, n3 int
	for i := 0; i < Words; i += 4 {
		n0 += bits.OnesCount64(a[i] ^ binary.LittleEndian.Uint64(b[8*i:]))
		n1 += bits.OnesCount64(a[i+1] ^ binary.LittleEndian.Uint64(b[8*i+8:]))
		n2 += bits.OnesCount64(a[i+2] ^ binary.LittleEndian.Uint64(b[8*i+16:]))
		n3 += bits.OnesCount64(a[i+3] ^ binary.LittleEndian.Uint64(b[8*i+24:]))
	}
	return n0 + n1 + n2 + n3
}

// Similarity returns 1 - Hamming/4096: 1 for equal vectors, about 0.5 for
// unrelated ones.
func Similarity(a, b *Vector) float64 {
	return 1 - float64(Hamming(a, b))/Bits
}

// Score maps a similarity to a field score, max(0, (sim-0.5)*2): unrelated
// vectors (similarity about 0.5) score 0, identical ones 1.
func Score(sim float64) float64 {
	return max(0, (sim-0.5)*2)
}

// AppendBytes appends v in little-endian order (512 bytes).
func AppendBytes(b []byte, v *Vector) []byte {
	for _, w := range v {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

// FromBytes decodes a vector written by AppendBytes; b must hold 512 bytes.
func FromBytes(b []byte, v *Vector) {
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
}

// Bundle accumulates vectors for a majority vote. Each bit position has a
// counter stored bit-sliced across planes (plane p holds bit p of all 4096
// counters), so adding is word-parallel. Vectors are added eight at a time
// through a carry-save adder tree (as in Harley-Seal population counts):
// seven full adders fold them into planes 0-2 and one ripple-carry addition
// moves the resulting eights into the higher planes.
type Bundle struct {
	planes  []Vector
	n       int // total weight added
	pending [8]Vector
	np      int
}

// Reset empties the bundle, keeping its memory.
func (b *Bundle) Reset() {
	b.planes = b.planes[:0]
	b.n = 0
	b.np = 0
}

// Len returns the total weight added.
func (b *Bundle) Len() int { return b.n }

// Add adds v with weight 1.
func (b *Bundle) Add(v *Vector) {
	b.n++
	b.pending[b.np] = *v
	b.np++
	if b.np == len(b.pending) {
		b.addEight()
		b.np = 0
	}
}

// AddXor adds a XOR (b rotated by k words) with weight 1, without building
// the bound vector first.
func (b *Bundle) AddXor(x, y *Vector, k int) {
	b.n++
	slot := &b.pending[b.np]
	if k == 0 {
		for w := range slot {
			slot[w] = x[w] ^ y[w]
		}
	} else {
		k = (k%Words + Words) % Words
		for w := 0; w < k; w++ {
			slot[w] = x[w] ^ y[Words-k+w]
		}
		for w := k; w < Words; w++ {
			slot[w] = x[w] ^ y[w-k]
		}
	}
	b.np++
	if b.np == len(b.pending) {
		b.addEight()
		b.np = 0
	}
}

// csa is a full adder over 64 lanes: it returns the carry and the sum bits
// of a + b + c.
func csa(a, b, c uint64) (carry, sum uint64) {
	u := a ^ b
	return a&b | u&c, u ^ c
}

// addEight adds the eight pending vectors.
func (b *Bundle) addEight() {
	// Counters never exceed the weight added: grow the planes first, so
	// that ripple does not reallocate them under the pointers below.
	for len(b.planes) < max(3, bits.Len(uint(b.n))) {
		b.planes = append(b.planes, Vector{})
	}
	p := &b.pending
	ones, twos, fours := &b.planes[0], &b.planes[1], &b.planes[2]
	for w := 0; w < Words; w++ {
		twosA, o := csa(ones[w], p[0][w], p[1][w])
		twosB, o2 := csa(o, p[2][w], p[3][w])
		foursA, t := csa(twos[w], twosA, twosB)
		twosA, o = csa(o2, p[4][w], p[5][w])
		twosB, o = csa(o, p[6][w], p[7][w])
		foursB, t2 := csa(t, twosA, twosB)
		eights, f := csa(fours[w], foursA, foursB)
		ones[w], twos[w], fours[w] = o, t2, f
		b.ripple(3, w, eights)
	}
}

// addPositionsPairs adds what Encoder.Encode adds for terms with
// Positions and Pairs and no weights: every term's vector bound to its
// position vector (term i to position i mod NumPositions) and, for every
// two adjacent terms, the first one's vector bound to the second one's
// rotated by one word. That is 2n-1 vectors for n terms; the first term's
// own vector and the last n-1 mod 4 terms' go through AddXor, the others
// four terms (eight vectors) at a time in one pass over the words that
// generates the term vectors word by word (never storing them) and feeds
// them straight into the carry-save adders.
func (b *Bundle) addPositionsPairs(terms []string) {
	n := len(terms)
	if n == 0 {
		return
	}
	// Size the counters for the final weight up front: no plane is added
	// (nor the slice moved) while adding.
	for len(b.planes) < max(3, bits.Len(uint(b.n+2*n-1))) {
		b.planes = append(b.planes, Vector{})
	}
	var vs [2]Vector
	prev, v := &vs[0], &vs[1]
	Random(termSeed(terms[0]), prev)
	b.AddXor(prev, &positions[0], 0)
	i := 1
	for ; i+4 <= n; i += 4 {
		// prev holds the vector of term i-1 and then that of term i+3.
		b.addFour(terms[i:i+4], i, prev)
	}
	for ; i < n; i++ {
		Random(termSeed(terms[i]), v)
		b.AddXor(v, &positions[i%NumPositions], 0)
		b.AddXor(prev, v, 1)
		prev, v = v, prev
	}
}

// addFour adds the eight vectors of terms first..first+3 (terms[k] is term
// first+k): each term bound to its position, and each bound to the
// previous term rotated. prev holds the vector of term first-1 and is
// replaced by that of term first+3.
func (b *Bundle) addFour(terms []string, first int, prev *Vector) {
	_ = terms[3]
	s0, s1, s2, s3 := termSeed(terms[0]), termSeed(terms[1]), termSeed(terms[2]), termSeed(terms[3])
	p0 := &positions[first%NumPositions]
	p1 := &positions[(first+1)%NumPositions]
	p2 := &positions[(first+2)%NumPositions]
	p3 := &positions[(first+3)%NumPositions]
	if useAVX512 {
		b.n += 8
		if addFourKernel(b, &[4]uint64{s0, s1, s2, s3}, &[4]*Vector{p0, p1, p2, p3}, prev) {
			return
		}
		b.n -= 8
	}
	// rk is the word of term k's vector before the current one (rotation
	// by one word): the last word first.
	const last = uint64(Words * gamma % (1 << 64)) // word Words-1 is at seed+Words*gamma
	r0, r1, r2, r3 := mix64(s0+last), mix64(s1+last), mix64(s2+last), mix64(s3+last)
	ones, twos, fours := &b.planes[0], &b.planes[1], &b.planes[2]
	high := b.planes[3:]
	b.n += 8
	for w := 0; w < Words; w++ {
		s0 += gamma
		s1 += gamma
		s2 += gamma
		s3 += gamma
		c0, c1, c2, c3 := mix64(s0), mix64(s1), mix64(s2), mix64(s3)
		twosA, o := csa(ones[w], c0^p0[w], prev[w]^r0)
		twosB, o2 := csa(o, c1^p1[w], c0^r1)
		foursA, t := csa(twos[w], twosA, twosB)
		twosA, o = csa(o2, c2^p2[w], c1^r2)
		twosB, o = csa(o, c3^p3[w], c2^r3)
		foursB, t2 := csa(t, twosA, twosB)
		eights, f := csa(fours[w], foursA, foursB)
		ones[w], twos[w], fours[w] = o, t2, f
		prev[w] = c3
		r0, r1, r2, r3 = c0, c1, c2, c3
		for p := 0; eights != 0; p++ {
			carry := high[p][w] & eights
			high[p][w] ^= eights
			eights = carry
		}
	}
}

// ripple adds carry (one bit per lane) into word w from plane p up.
func (b *Bundle) ripple(p, w int, carry uint64) {
	for ; carry != 0; p++ {
		if p == len(b.planes) {
			b.planes = append(b.planes, Vector{})
		}
		t := b.planes[p][w] & carry
		b.planes[p][w] ^= carry
		carry = t
	}
}

// flush adds the pending vectors: padded with zero vectors (which add
// nothing) and folded like a full batch, cheaper than rippling each.
func (b *Bundle) flush() {
	if b.np == 0 {
		return
	}
	for i := b.np; i < len(b.pending); i++ {
		b.pending[i] = Vector{}
	}
	b.addEight()
	b.np = 0
}

// AddWeighted adds v with a positive integer weight: the counters of its
// set bits grow by weight, one carry-propagating addition of the constant
// per set bit plane of weight.
func (b *Bundle) AddWeighted(v *Vector, weight int) {
	if weight <= 0 {
		return
	}
	if weight == 1 {
		b.Add(v)
		return
	}
	b.n += weight
	for w := 0; w < Words; w++ {
		x := v[w]
		if x == 0 {
			continue
		}
		// Add weight to every lane set in x: lane-wise add of the constant
		// weight, masked by x.
		var carry uint64
		for p := 0; weight>>p != 0 || carry != 0; p++ {
			if p == len(b.planes) {
				b.planes = append(b.planes, Vector{})
			}
			var k uint64
			if weight>>p&1 == 1 {
				k = x
			}
			c := b.planes[p][w]
			b.planes[p][w] = c ^ k ^ carry
			carry = c&k | c&carry | k&carry
		}
	}
}

// Majority returns the bitwise majority of the added vectors: bit i is set
// when more than half of the weight had it set; exact ties take the bit of
// tie (a fixed random vector, so ties do not bias towards 0).
func (b *Bundle) Majority(tie *Vector) Vector {
	var out Vector
	if b.n == 0 {
		return out
	}
	b.flush()
	t := uint64(b.n / 2)
	if t>>uint(len(b.planes)) != 0 {
		// The threshold needs more bits than any counter has: no lane can
		// exceed it or equal it.
		return out
	}
	// Compare every counter with t from the top plane down, a plane for
	// all words at a time: gt marks the lanes found greater, eq those
	// equal so far.
	gt := &out
	eq := Vector{}
	for w := range eq {
		eq[w] = ^uint64(0)
	}
	for p := len(b.planes) - 1; p >= 0; p-- {
		c := &b.planes[p]
		if t>>uint(p)&1 == 1 {
			for w := range eq {
				eq[w] &= c[w]
			}
		} else {
			for w := range eq {
				gt[w] |= eq[w] & c[w]
				eq[w] &^= c[w]
			}
		}
	}
	if b.n%2 == 0 && tie != nil {
		for w := range gt {
			gt[w] |= eq[w] & tie[w]
		}
	}
	return out
}

// tieVector breaks exact ties in majorities.
var tieVector = Symbol("\x00hdc:tie")
