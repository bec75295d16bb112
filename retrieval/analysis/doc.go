// Package analysis shares the analysis of KU texts between the retrieval
// cores. An ingest indexes every source with BM25 and then encodes the same
// texts (titles, leaf bodies) as hypervectors; both run the same analyzer
// over the same strings, so the second one takes the terms the first one
// produced instead of analysing the text again.
package analysis
