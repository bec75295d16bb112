package kbplugin

import (
	"github.com/mrpvm/mrpvm/retrieval/bm25"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// relativeShare is the share of a query word's weight each kind of
// lexicon relative may carry: a synonym says nearly the same, a derived
// form names the same action or thing in another part of speech, a
// broader term only its kind.
var relativeShare = [...]float64{lexicon.Synonym: 0.5, lexicon.Derived: 0.5, lexicon.Broader: 0.25}

// related gives bm25.Expand a query term's lexicon relatives.
func related(term string) []bm25.Relative {
	rel := lexicon.Related(term)
	if len(rel) == 0 {
		return nil
	}
	out := make([]bm25.Relative, len(rel))
	for i, r := range rel {
		out[i] = bm25.Relative{Term: r.Term, Weight: relativeShare[r.Kind]}
	}
	return out
}
