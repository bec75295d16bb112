// Package thinkingdb is the symbolic layer of kb-thinkingdb: a persisted
// store of (subject, relation, object) facts taken from KUs' symbolic fields
// and extracted from fact-bearing sentences, and a bounded closure (seed
// facts matched to the query, a depth-3 neighbourhood, two-premise Horn
// rules for at most 3 rounds, 64 derived facts, 32 proofs, 12 kept) whose
// proofs are fused with the BM25 ranking.
package thinkingdb
