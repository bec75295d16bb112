//go:build amd64 && !purego

package hdc

import "golang.org/x/sys/cpu"

// useAVX512 selects the AVX-512 kernel of addFour: 64-bit multiplies
// (AVX512DQ) generate eight words of a term vector at once and ternary
// logic does a full adder in two instructions.
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// avxConsts are the kernel's constants: (i+1)*gamma for lanes i = 0..7,
// then 8*gamma, 56*gamma and the two SplitMix64 multipliers.
var avxConsts = [12]uint64{
	1 * gamma, 2 * gamma % (1 << 64), 3 * gamma % (1 << 64), 4 * gamma % (1 << 64),
	5 * gamma % (1 << 64), 6 * gamma % (1 << 64), 7 * gamma % (1 << 64), 8 * gamma % (1 << 64),
	8 * gamma % (1 << 64), 56 * gamma % (1 << 64), 0xbf58476d1ce4e5b9, 0x94d049bb133111eb,
}

// addFourAVX512 is addFour's loop over the words: seeds are the terms'
// seeds, pos their position vectors, prev the vector of the term before
// (replaced by the last term's), planes the bundle's first plane of
// nplanes (contiguous, at least 4 with room for every carry).
//
//go:noescape
func addFourAVX512(seeds *[4]uint64, pos *[4]*Vector, prev *Vector, planes *Vector, nplanes int)

func addFourKernel(b *Bundle, seeds *[4]uint64, pos *[4]*Vector, prev *Vector) bool {
	if !useAVX512 || len(b.planes) < 4 {
		return false
	}
	addFourAVX512(seeds, pos, prev, &b.planes[0], len(b.planes))
	return true
}
