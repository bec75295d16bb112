package bm25

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLiveTopIsTheKthBestOfRisingScores checks the live threshold against
// a brute force: after every raise, theta is the k-th best of the keys'
// best scores (0 while fewer than k keys scored).
func TestLiveTopIsTheKthBestOfRisingScores(t *testing.T) {
	for _, tc := range []struct{ keys, k, raises int }{
		{keys: 5, k: 1, raises: 50},
		{keys: 40, k: 10, raises: 400},
		{keys: 300, k: 100, raises: 5000},
		{keys: 8, k: 20, raises: 60}, // fewer keys than k: theta stays 0
	} {
		r := rand.New(rand.NewPCG(uint64(tc.keys), uint64(tc.k)))
		var h liveTop
		h.reset(tc.k, tc.keys)
		best := make([]float64, tc.keys)
		for i := 0; i < tc.raises; i++ {
			key := r.IntN(tc.keys)
			v := best[key] + r.Float64() // partial scores only grow
			if r.IntN(4) == 0 && best[key] > 0 {
				v = best[key] // a repeated score changes nothing
			}
			best[key] = v
			got := h.raise(int32(key), v)
			var scored []float64
			for _, b := range best {
				if b > 0 {
					scored = append(scored, b)
				}
			}
			want := 0.0
			if len(scored) >= tc.k {
				slices.Sort(scored)
				want = scored[len(scored)-tc.k]
			}
			if got != want || h.theta() != want {
				t.Fatalf("keys %d k %d raise %d: theta %v, want %v", tc.keys, tc.k, i, got, want)
			}
		}
		h.clear()
		for key, p := range h.pos {
			if p != 0 {
				t.Fatalf("clear left key %d at position %d", key, p)
			}
		}
		if h.theta() != 0 {
			t.Fatalf("theta after clear: %v", h.theta())
		}
	}
}
