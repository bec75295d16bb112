package bm25

import (
	"fmt"

	"github.com/mrpvm/mrpvm/plugin"
)

// TermFreq returns how many indexed sources hold term, an analysed term
// as the index's analyzer produces it, and how many sources are indexed.
// It counts sources, not units: a term repeated down one page's summary,
// section and leaf is one page using it. An empty index gives 0, 0.
func (x *Index) TermFreq(kv plugin.KV, term string) (holding, sources int, err error) {
	st, ok, err := readStats(kv)
	if err != nil {
		return 0, 0, fmt.Errorf("bm25: term frequency: %w", err)
	}
	if !ok || st.units == 0 {
		return 0, 0, nil
	}
	v, err := x.snapshot(kv, st, []string{term})
	if err != nil {
		return 0, 0, fmt.Errorf("bm25: term frequency: %w", err)
	}
	if term == "" || len(v.lists) == 0 || v.lists[0] == nil {
		return 0, v.sources, nil
	}
	seen := make([]bool, v.sources)
	for _, d := range v.lists[0].docs {
		if s := v.docSrcN[d]; !seen[s] {
			seen[s] = true
			holding++
		}
	}
	return holding, v.sources, nil
}
