// Package retrieval is the retrieval engine's face to the programs that
// measure it: BEIR queries, TREC runs, qrels and the metrics nDCG@10,
// Recall@100 and MRR@10, which `mrpvm search` and the benchmarks use. The
// cores are its subpackages (bm25, hdc, thinkingdb, analysis, lexicon,
// ...); the kb-plugins built on them are plugins/internal/kbplugin, and the
// ranked search they offer outside the VM loop is the contract's
// plugin.Searcher.
package retrieval
