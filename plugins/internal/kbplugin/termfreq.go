package kbplugin

import (
	"context"
	"fmt"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval"
)

var _ retrieval.TermCounter = (*Engine)(nil)

// TermFreq reports how many sources of the knowledge base hold an
// analysed term, out of how many sources (kb.TermCounter), from the
// plugin's BM25 index: the postings its own ranking reads, so nothing more
// is kept for them at ingest.
func (e *Engine) TermFreq(ctx context.Context, term string) (holding, sources int, err error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	if e.store == nil {
		return 0, 0, nil
	}
	err = e.store.View(func(kv plugin.KV) error {
		bkv, err := bm25KV(kv)
		if err != nil {
			return err
		}
		h, n, err := e.bm.TermFreq(bkv, term)
		holding, sources = h, n
		return err
	})
	if err != nil {
		return 0, 0, fmt.Errorf("%s: term frequency: %w", e.prof.ID, errorOf(err))
	}
	return holding, sources, nil
}
