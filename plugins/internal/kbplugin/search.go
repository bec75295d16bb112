package kbplugin

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// MaxQueryBytes bounds the query text a search analyses; longer queries
// are cut at a rune boundary (and the result says so).
const MaxQueryBytes = 4096

// searchDepth is the number of BM25 candidate units the HDC rerank and the
// ThinkingDB fusion see for a source-level search of k sources.
func searchDepth(k int) int { return max(300, 3*k) }

var (
	_ plugin.Searcher = (*Engine)(nil)
	_ plugin.Warmer   = (*Engine)(nil)
)

// Warm loads what the plugin's searches keep in memory (plugin.Warmer): the
// BM25 unit table, the lexicon for a profile that expands questions, and
// the ThinkingDB fact graph for a profile that reasons.
func (e *Engine) Warm(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if e.hd != nil {
		// A table that cannot be read leaves questions unexpanded; the
		// embedded table is checked by the lexicon's tests.
		_ = lexicon.Err()
	}
	if e.store == nil {
		return nil
	}
	err := e.store.View(func(kv plugin.KV) error {
		bkv, err := bm25KV(kv)
		if err != nil {
			return err
		}
		if err := e.bm.Warm(bkv); err != nil {
			return err
		}
		if e.td != nil {
			return e.td.Warm(kv)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: warm: %w", e.prof.ID, errorOf(err))
	}
	return nil
}

// Search ranks the persistent index for a free-text query with the
// profile's strategies (plugin.Searcher). Unlike Retrieve it neither splits
// guidance from evidence nor weighs levels by a task's act: the ranking is
// the plugin's retrieval ranking itself. A source-level search scores each
// source as its best KU.
func (e *Engine) Search(ctx context.Context, req plugin.SearchRequest) (*plugin.SearchResult, error) {
	if req.K < 1 || req.K > plugin.MaxK {
		return nil, fmt.Errorf("%s: %w: k %d is outside [1, %d]", e.prof.ID, plugin.ErrBadRequest, req.K, plugin.MaxK)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.store == nil {
		return nil, fmt.Errorf("%s: %w", e.prof.ID, plugin.Errorf("no_knowledge_base", "%s was built without a knowledge base store", e.prof.ID))
	}
	res := &plugin.SearchResult{Hits: []plugin.Hit{}, Terms: []string{}}
	query, cut := clip(strings.TrimSpace(req.Query), MaxQueryBytes)
	res.Truncated = cut
	if query == "" {
		return res, nil
	}
	// A KU-level search over-fetches so that dropping KUs covered by a
	// better one (a section and its leaf) still leaves k. The whole pool
	// is ranked (reranked, then weighed by the reference prior) before it
	// is cut to k, so the first hits do not depend on how many are asked
	// for.
	depth := max(4*req.K, 40)
	if req.BySource {
		depth = searchDepth(req.K)
	}
	var rk ranking
	err := e.store.View(func(kv plugin.KV) error {
		var err error
		rk, err = e.rank(kv, query, "", depth, depth, req.BySource)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.prof.ID, errorOf(err))
	}
	if rk.terms != nil {
		res.Terms = rk.terms
	}
	res.SearchedFor = rk.searched
	res.Considered = rk.considered
	type hitKU struct {
		c scored
		u *kus.KU
	}
	hits := make([]hitKU, 0, len(rk.cands))
	for _, c := range rk.cands {
		h := hitKU{c: c}
		if req.KUs != nil {
			u, err := req.KUs.KU(c.id)
			if err != nil {
				return nil, fmt.Errorf("%s: read ku %s: %w", e.prof.ID, c.id, err)
			}
			if u == nil {
				continue // indexed but no longer stored: the index lags a removal
			}
			h.u = u
		}
		hits = append(hits, h)
		if req.BySource && len(hits) >= req.K {
			break
		}
	}
	if !req.BySource && req.KUs != nil {
		// On equal scores the most specific unit goes first: a leaf
		// points at the lines that matched, its summary at the file.
		slices.SortStableFunc(hits, func(a, b hitKU) int {
			if c := cmp.Compare(b.c.score, a.c.score); c != 0 {
				return c
			}
			return cmp.Compare(levelRank(a.u), levelRank(b.u))
		})
	}
	chosen, covered := map[string]bool{}, map[string]bool{}
	for _, x := range hits {
		if len(res.Hits) >= req.K {
			break
		}
		c, u := x.c, x.u
		if u != nil && !req.BySource {
			// A summary or section repeating a listed leaf (or a leaf
			// inside a listed section) adds nothing to the list.
			if covered[u.ID] || overlaps(u, chosen, req.KUs) {
				continue
			}
			ancestors(u, req.KUs, covered)
			chosen[u.ID] = true
		}
		res.Hits = append(res.Hits, plugin.Hit{KUID: c.id, SourceID: c.source, Score: c.score, Strategy: e.strategy(c), Why: c.why, KU: u})
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

// ancestors marks u's parents, grandparents and great-grandparents.
func ancestors(u *kus.KU, r plugin.KUReader, into map[string]bool) {
	p := u
	for depth := 0; depth < 3 && len(p.ParentUnitIDs) > 0; depth++ {
		for _, id := range p.ParentUnitIDs {
			into[id] = true
		}
		next, err := r.KU(p.ParentUnitIDs[0])
		if err != nil || next == nil {
			return
		}
		p = next
	}
}

// levelRank orders levels from the most specific.
func levelRank(u *kus.KU) int {
	switch levelOf(u) {
	case kus.LevelSummary:
		return 2
	case kus.LevelSection:
		return 1
	}
	return 0
}
