package bm25

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkLiveTopRaise raises random keys' scores as a query's postings do.
func BenchmarkLiveTopRaise(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const keys, n = 20000, 1 << 16
	ks := make([]int32, n)
	vs := make([]float64, n)
	best := make([]float64, keys)
	for i := range ks {
		k := r.IntN(keys)
		best[k] += r.Float64()
		ks[i], vs[i] = int32(k), best[k]
	}
	var h liveTop
	b.ResetTimer()
	for range b.N {
		h.reset(300, keys)
		for i, k := range ks {
			h.raise(k, vs[i])
		}
		h.clear()
	}
}
