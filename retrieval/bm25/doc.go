// Package bm25 is the lexical retrieval core shared by the kb-plugins: Okapi
// BM25 over Knowledge Units with per-field weights (a BM25F-style weighted
// term frequency and length) and a role boost, kept as an inverted index in a
// plugin's plugin.KV namespace and maintained incrementally per source.
//
// Queries run term-at-a-time with MaxScore-style pruning: terms are taken in
// decreasing order of their score upper bound, and once the bounds of the
// remaining terms cannot lift an unseen unit into the top k, those terms only
// update units that are already candidates. Decoded postings are cached per
// Index and kept valid across writes made through the same Index.
//
// A query's terms are weighed before scoring (query.go): question
// boilerplate ("how", "is there a way") weighs nothing, light verbs ("get",
// "make") weigh little so that their object decides, and the words of a
// clause naming an action the user avoids ("without deleting it") are not
// searched unless the rest of the query holds them too.
package bm25
