// Package kbplugin implements the kb-plugin contract (docs/contracts.md) shared by kb-fast,
// kb-balanced and kb-thinkingdb: indexing in onSourceText, retrieval with
// evidence and phase-scoped guidance, level choice, sufficiency, the
// retrieval trace, and session KUs visible to their session only. Each
// plugin picks a profile: BM25 alone, BM25 reranked by HDC, or BM25 fused
// with ThinkingDB proofs.
package kbplugin
