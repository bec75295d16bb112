package plugin

import (
	"errors"

	"github.com/mrpvm/mrpvm/kus"
)

// MaxK is the largest number of hits a search returns.
const MaxK = 1000

// SearchRequest is one ranked search (Searcher).
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
	KUs KUReader
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

// ErrBadRequest is wrapped by errors about an invalid SearchRequest.
var ErrBadRequest = errors.New("invalid search request")

// IsIndexCorrupt reports whether err says a plugin's index is corrupt: it
// wraps an *Error with code CodeIndexCorrupt.
func IsIndexCorrupt(err error) bool {
	var se *Error
	return errors.As(err, &se) && se.Code == CodeIndexCorrupt
}
