package kbsearch

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/retrieval"
)

// Defaults of a search request that leaves them out.
const (
	DefaultPlugin = "kb-balanced"
	DefaultK      = 10
)

// Stable codes of the errors a search request is refused with.
const (
	CodeEmptyQuery    = "empty_query"
	CodeBadK          = "bad_k"
	CodeUnknownPlugin = "unknown_plugin"
	CodeNotSearchable = "not_searchable"
)

// Error is a refused search request: the request, not the knowledge
// base, is at fault.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func refuse(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CheckQuery refuses an empty query and a hit count outside [1, kb.MaxK].
func CheckQuery(query string, k int) error {
	if strings.TrimSpace(query) == "" {
		return refuse(CodeEmptyQuery, "the query is empty")
	}
	return CheckK(k)
}

// CheckK refuses a hit count outside [1, kb.MaxK].
func CheckK(k int) error {
	if k < 1 || k > retrieval.MaxK {
		return refuse(CodeBadK, "k %d is outside [1, %d]", k, retrieval.MaxK)
	}
	return nil
}

// Searcher runs searches with one kb-plugin and rebuilds its index once
// (in the Searcher's life) when the plugin reports it corrupt. A Searcher
// serves one command or one request; it is not for concurrent use while
// a rebuild may run.
type Searcher struct {
	s  retrieval.Searcher
	id string
	kb *ingest.KB
	// Warn, when set, is told of a rebuild as it starts and ends.
	Warn     func(format string, args ...any)
	repaired bool
}

// New finds the enabled kb-plugin id ("" : DefaultPlugin) in reg and
// returns a Searcher over k with it; an unknown plugin or one that
// cannot rank outside the VM loop is refused (*Error).
func New(reg *plugins.Registry, k *ingest.KB, id string) (*Searcher, error) {
	if id == "" {
		id = DefaultPlugin
	}
	p, ok := reg.KB(id)
	if !ok {
		var ids []string
		for _, x := range reg.KBPlugins() {
			ids = append(ids, x.Descriptor().ID)
		}
		return nil, refuse(CodeUnknownPlugin, "no enabled kb-plugin %q (have: %s)", id, strings.Join(ids, ", "))
	}
	s, ok := p.(retrieval.Searcher)
	if !ok {
		return nil, refuse(CodeNotSearchable, "%s cannot rank outside the VM loop (it does not implement search); ask with the kb stage pinned to it instead", id)
	}
	return &Searcher{s: s, id: id, kb: k}, nil
}

// Plugin is the id of the kb-plugin that ranks.
func (s *Searcher) Plugin() string { return s.id }

// Search answers one query. The request's KUs default to the knowledge
// base's store, so that hits carry their KU.
func (s *Searcher) Search(ctx context.Context, req retrieval.SearchRequest) (res *retrieval.SearchResult, err error) {
	if req.KUs == nil {
		req.KUs = s.kb.Store()
	}
	err = s.repairing(ctx, func() error {
		res, err = s.s.Search(ctx, req)
		return err
	})
	return res, err
}

// repairing runs fn and, when it reports the plugin's index corrupt (the
// first time in this Searcher), rebuilds the index and runs fn again.
func (s *Searcher) repairing(ctx context.Context, fn func() error) error {
	err := fn()
	if err == nil || !retrieval.IsIndexCorrupt(err) || s.repaired {
		return err
	}
	if err := s.repair(ctx, err); err != nil {
		return err
	}
	return fn()
}

func (s *Searcher) warn(format string, args ...any) {
	if s.Warn != nil {
		s.Warn(format, args...)
	}
}

// repair rebuilds the plugin's index from the stored KUs after it reported
// the index corrupt.
func (s *Searcher) repair(ctx context.Context, cause error) error {
	s.repaired = true
	s.warn("search: the index of %s is corrupt (%v); rebuilding it from the stored KUs", s.id, cause)
	t0 := time.Now()
	if err := s.kb.RepairHook(ctx, s.id); err != nil {
		return fmt.Errorf("search: %s: %s: rebuilding the index failed: %w", s.id, plugin.CodeIndexCorrupt, err)
	}
	s.warn("search: rebuilt the index of %s in %.2fs", s.id, time.Since(t0).Seconds())
	return nil
}

// Warm loads the index state the plugin's searches keep in memory, when
// it has any (kb.Warmer), repairing a corrupt index as Search does.
func (s *Searcher) Warm(ctx context.Context) error {
	w, ok := s.s.(retrieval.Warmer)
	if !ok {
		return nil
	}
	return s.repairing(ctx, func() error { return w.Warm(ctx) })
}

// Ranked is the source-level answer to one query of a batch: document ids
// (kb.DocID) best first, with their scores.
type Ranked struct {
	Docs   []string
	Scores []float64
}

// Batch answers every query (sources, best first) on workers goroutines;
// a corrupt index is rebuilt once and the batch run again.
func (s *Searcher) Batch(ctx context.Context, queries []retrieval.Query, k, workers int) (out []Ranked, err error) {
	err = s.repairing(ctx, func() error {
		out, err = s.batchOnce(ctx, queries, k, workers)
		return err
	})
	return out, err
}

func (s *Searcher) batchOnce(ctx context.Context, queries []retrieval.Query, k, workers int) ([]Ranked, error) {
	out := make([]Ranked, len(queries))
	workers = max(1, min(workers, len(queries)))
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(queries) || ctx.Err() != nil {
					return
				}
				res, err := s.s.Search(ctx, retrieval.SearchRequest{Query: queries[i].Text, K: k, BySource: true})
				if err != nil {
					cancel(fmt.Errorf("query %s: %w", queries[i].ID, err))
					return
				}
				r := Ranked{Docs: make([]string, len(res.Hits)), Scores: make([]float64, len(res.Hits))}
				for j, h := range res.Hits {
					r.Docs[j], r.Scores[j] = retrieval.DocID(h.SourceID), h.Score
				}
				out[i] = r
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return out, nil
}

// SourceURI is the URI an editor opens for a source of the knowledge
// base of workspace: a file URI, or mrpvm:<id> for a source that is no
// workspace file (a plugin's KUs), as the VM's evidence has it.
func SourceURI(workspace, sourceID string) string {
	if strings.Contains(sourceID, "::") || workspace == "" {
		return "mrpvm:" + sourceID
	}
	abs := filepath.Join(workspace, filepath.FromSlash(sourceID))
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
