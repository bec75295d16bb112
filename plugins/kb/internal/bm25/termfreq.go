package bm25

import (
	"fmt"

	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// TermFreq returns how many indexed units hold term, an analysed term as
// the index's analyzer produces it, and how many units are indexed: the
// document frequency the ranking's IDF is computed from. An empty index
// gives 0, 0.
func (x *Index) TermFreq(kv sdk.KV, term string) (holding int, units uint64, err error) {
	st, ok, err := readStats(kv)
	if err != nil {
		return 0, 0, fmt.Errorf("bm25: term frequency: %w", err)
	}
	if !ok || st.units == 0 {
		return 0, 0, nil
	}
	if term == "" {
		return 0, st.units, nil
	}
	v, err := x.snapshot(kv, st, []string{term})
	if err != nil {
		return 0, 0, fmt.Errorf("bm25: term frequency: %w", err)
	}
	if len(v.lists) > 0 && v.lists[0] != nil {
		holding = len(v.lists[0].docs)
	}
	return holding, st.units, nil
}
