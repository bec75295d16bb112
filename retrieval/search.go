// Package kb is the public face of the built-in kb-plugins outside the
// plugin VM: a ranked search over the knowledge base (the Searcher that
// kb-fast, kb-balanced and kb-thinkingdb implement) and the evaluation
// helpers `mrpvm search` and the benchmarks use (BEIR queries, TREC runs,
// qrels, nDCG@10, Recall@100, MRR@10).
//
// The retrieval cores themselves live in retrieval and are not
// importable outside plugins/kb.
package retrieval

import (
	"context"
	"errors"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TermCounter is implemented by kb-plugins that can say how common a term
// is in the knowledge base: how many sources hold term (analysed as
// sdk/text analyses it: lower-cased, stemmed) out of how many sources. The
// VM builds the run context's plugin.Corpus on it.
type TermCounter interface {
	TermFreq(ctx context.Context, term string) (holding, sources int, err error)
}

// MaxK is the largest number of hits a search returns.
const MaxK = 1000

// SearchRequest is one ranked search.
type SearchRequest struct {
	// Query is free text; it is analysed like indexed text (stop words
	// dropped, stems), so a query of stop words alone finds nothing.
	Query string
	// K is the number of hits wanted, in [1, MaxK].
	K int
	// BySource ranks sources instead of KUs: a source scores as its best
	// KU and appears once, represented by that KU.
	BySource bool
	// KUs, when set, resolves each hit's KU (title, range) and lets a
	// KU-level search drop a KU already covered by a better one (its
	// parent section or child leaf).
	KUs plugin.KUReader
}

// Hit is one ranked KU (or, with BySource, the best KU of a source).
type Hit struct {
	KUID     string  `json:"kuId"`
	SourceID string  `json:"sourceId"`
	Score    float64 `json:"score"`
	// Strategy names what ranked the hit: bm25, bm25+hdc or thinkingdb.
	Strategy string `json:"strategy"`
	// Why holds the proof chains that cite the KU (kb-thinkingdb).
	Why string `json:"why,omitempty"`
	// KU is the unit itself when the request had a KU reader.
	KU *kus.KU `json:"-"`
}

// SearchResult is the answer to a SearchRequest.
type SearchResult struct {
	Hits []Hit `json:"hits"`
	// Terms are the analysed query terms that were searched (empty for a
	// query of stop words or punctuation only).
	Terms []string `json:"terms"`
	// Considered counts the KUs (and facts) scored.
	Considered int `json:"considered"`
	// Truncated reports a query cut to its first bytes before analysis.
	Truncated bool `json:"truncated,omitempty"`
	// SearchedFor is the query as searched when spelling corrections
	// changed it ("" otherwise).
	SearchedFor string `json:"searchedFor,omitempty"`
}

// Searcher is implemented by kb-plugins that rank their index for a free
// text query outside the VM loop. A search returns an error wrapping an
// *plugin.Error with code plugin.CodeIndexCorrupt when the plugin's private
// index cannot be read; the caller should rebuild it from the stored KUs
// (ingest.KB.RepairHook) and ask again.
type Searcher interface {
	Search(ctx context.Context, req SearchRequest) (*SearchResult, error)
}

// Warmer is implemented by kb-plugins whose searches read in-memory state
// built from the persistent index on first use (unit tables, fact graphs).
// Warm builds it ahead of the first query, so that a server answers its
// first question as fast as the next, and a batch times its queries rather
// than opening the index. It is safe to call at any time and cheap when the
// state is current; an index that cannot be read is reported like Search
// reports it.
type Warmer interface {
	Warm(ctx context.Context) error
}

// ErrBadRequest is wrapped by errors about an invalid SearchRequest.
var ErrBadRequest = errors.New("invalid search request")

// IsIndexCorrupt reports whether err says a plugin's index is corrupt.
func IsIndexCorrupt(err error) bool {
	var se *plugin.Error
	return errors.As(err, &se) && se.Code == plugin.CodeIndexCorrupt
}
