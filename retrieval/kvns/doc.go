// Package kvns holds what the retrieval cores (bm25, hdc, thinkingdb) do
// alike to the keys of the KV namespace they share: every index keeps its
// keys under its own prefix, deletes a group of them by prefix and clears
// all of them for a rebuild after corruption; its stats record opens with
// the same header (format version, nonce, generation), and a new life of
// the index draws a new nonce.
package kvns
