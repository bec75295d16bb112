//go:build amd64 && !purego

package hdc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/cpu"
)

// withAVX512 runs f with the AVX-512 kernel on or off.
func withAVX512(on bool, f func()) {
	old := useAVX512
	useAVX512 = on
	defer func() { useAVX512 = old }()
	f()
}

// TestAddFourKernelMatchesGo compares the AVX-512 kernel with the Go loop
// on random counters (carries rippling through many planes) and terms.
func TestAddFourKernelMatchesGo(t *testing.T) {
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512DQ {
		t.Skip("no AVX-512 on this machine")
	}
	r := rand.New(rand.NewPCG(7, 7))
	for round := range 200 {
		nplanes := 4 + r.IntN(9)
		var base Bundle
		for p := range nplanes {
			var v Vector
			if p < nplanes-1 { // the top plane stays clear: room for every carry
				v = randomVector(r)
				if p >= 3 && r.IntN(2) == 0 {
					v = Vector{} // and some planes empty, so that ripples stop early
				}
			}
			base.planes = append(base.planes, v)
		}
		base.n = 1<<(nplanes-1) - 9
		terms := make([]string, 4)
		for i := range terms {
			terms[i] = fmt.Sprintf("term%d", r.IntN(1000))
		}
		first := r.IntN(40)
		prevV := randomVector(r)
		run := func(on bool) (Bundle, Vector) {
			b := Bundle{planes: append([]Vector(nil), base.planes...), n: base.n}
			prev := prevV
			withAVX512(on, func() { b.addFour(terms, first, &prev) })
			return b, prev
		}
		goB, goPrev := run(false)
		asmB, asmPrev := run(true)
		require.Equal(t, goPrev, asmPrev, "round %d: prev", round)
		require.Equal(t, goB.n, asmB.n, "round %d", round)
		require.Equal(t, goB.planes, asmB.planes, "round %d: planes", round)
	}
	// Whole texts, both ways.
	e := DefaultParams().Encoder
	for _, d := range repoDocs(t) {
		for _, u := range d.Units {
			terms := e.Terms(u.TextBody)
			var b Bundle
			var goV, asmV Vector
			withAVX512(false, func() { goV = e.Encode(terms, nil, &b) })
			withAVX512(true, func() { asmV = e.Encode(terms, nil, &b) })
			require.Equal(t, goV, asmV, u.ID)
		}
	}
}
