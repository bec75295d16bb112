package retrieval

import "github.com/mrpvm/mrpvm/retrieval/lexicon"

// Relatives are the words related in meaning to an analysed term (as
// plugins/sdk/text analyses it), from the general English relation table
// retrieval expands queries with: close are its synonyms and derived forms
// ("halt" and "stopper" for "stop"), broader the lemmas of its direct
// hypernyms. Both are nil for a term the table does not hold.
func Relatives(term string) (close, broader []string) {
	for _, r := range lexicon.Related(term) {
		if r.Kind == lexicon.Broader {
			broader = append(broader, r.Term)
		} else {
			close = append(close, r.Term)
		}
	}
	return close, broader
}
