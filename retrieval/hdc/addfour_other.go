//go:build !amd64 || purego

package hdc

// useAVX512 is false: there is no assembly kernel for this architecture.
const useAVX512 = false

func addFourKernel(b *Bundle, seeds *[4]uint64, pos *[4]*Vector, prev *Vector) bool { return false }
