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
