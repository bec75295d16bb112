package kbplugin

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/plugins/kb"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// MaxQueryBytes bounds the query text a search analyses; longer queries
// are cut at a rune boundary (and the result says so).
const MaxQueryBytes = 4096

// searchDepth is the number of BM25 candidate units the HDC rerank and the
// ThinkingDB fusion see for a source-level search of k sources.
func searchDepth(k int) int { return max(300, 3*k) }

var _ kb.Searcher = (*Engine)(nil)

// Search ranks the persistent index for a free-text query with the
// profile's strategies (kb.Searcher). Unlike Retrieve it neither splits
// guidance from evidence nor weighs levels by a task's act: the ranking is
// the plugin's retrieval ranking itself. A source-level search scores each
// source as its best KU.
func (e *Engine) Search(ctx context.Context, req kb.SearchRequest) (*kb.SearchResult, error) {
	if req.K < 1 || req.K > kb.MaxK {
		return nil, fmt.Errorf("%s: %w: k %d is outside [1, %d]", e.prof.ID, kb.ErrBadRequest, req.K, kb.MaxK)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.store == nil {
		return nil, fmt.Errorf("%s: %w", e.prof.ID, sdk.Errorf("no_knowledge_base", "%s was built without a knowledge base store", e.prof.ID))
	}
	res := &kb.SearchResult{Hits: []kb.Hit{}, Terms: []string{}}
	query, cut := clip(strings.TrimSpace(req.Query), MaxQueryBytes)
	res.Truncated = cut
	if query == "" {
		return res, nil
	}
	// A KU-level search over-fetches so that dropping KUs covered by a
	// better one (a section and its leaf) still leaves k.
	depth, k := max(4*req.K, 40), 2*req.K
	if req.BySource {
		depth, k = searchDepth(req.K), req.K
	}
	var rk ranking
	err := e.store.View(func(kv sdk.KV) error {
		var err error
		rk, err = e.rank(kv, query, "", depth, k, req.BySource)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.prof.ID, errorOf(err))
	}
	if rk.terms != nil {
		res.Terms = rk.terms
	}
	res.Considered = rk.considered
	chosen := map[string]bool{}
	for _, c := range rk.cands {
		if len(res.Hits) >= req.K {
			break
		}
		h := kb.Hit{KUID: c.id, SourceID: c.source, Score: c.score, Strategy: e.strategy(c), Why: c.why}
		if req.KUs != nil {
			u, err := req.KUs.KU(c.id)
			if err != nil {
				return nil, fmt.Errorf("%s: read ku %s: %w", e.prof.ID, c.id, err)
			}
			if u == nil {
				continue // indexed but no longer stored: the index lags a removal
			}
			if !req.BySource && overlaps(u, chosen, req.KUs) {
				continue
			}
			h.KU = u
			chosen[u.ID] = true
		}
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}

// clip cuts s to at most n bytes at a rune boundary.
func clip(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
