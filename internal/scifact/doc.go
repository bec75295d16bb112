// Package scifact reads the SciFact corpus for tests and benchmarks. The
// corpus is not part of the repository: it lies beside the checkout, at
// ../shared/data/scifact/corpus.jsonl from the module root, and a test or
// benchmark that needs it is skipped when it is absent.
package scifact
