// Package memo is a small bounded cache keyed by content hashes. The
// retrieval cores use it to keep the CPU-bound half of indexing a source
// (analysis, encoding, fact extraction) between a Prepare call, which may
// run on any goroutine ahead of the write transaction, and the IndexSource
// call inside it; and to let the kb-plugins that index the same source one
// after the other share that work.
package memo
