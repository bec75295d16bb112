// Package kb holds the evaluation helpers of the built-in kb-plugins that
// `mrpvm search` and the benchmarks use: BEIR queries, TREC runs, qrels and
// the metrics nDCG@10, Recall@100 and MRR@10. The ranked search the
// kb-plugins offer outside the VM loop is the contract's plugin.Searcher.
//
// The retrieval cores themselves live in retrieval and are not
// importable outside plugins/kb.
package retrieval
