// Package ireval evaluates the retrieval cores on BEIR-format data (SciFact):
// it loads a corpus, queries and relevance judgments, turns each document
// into KUs the way the workspace ingest does (a Markdown file "# title\n\ntext"
// read by kus.Parse), builds indexes in a real bbolt file, and computes
// nDCG@10, Recall@100 and MRR@10 of a ranked run.
package ireval
