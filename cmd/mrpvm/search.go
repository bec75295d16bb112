package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/engine"
	"github.com/mrpvm/mrpvm/plugins/kb"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// Error codes of mrpvm search (printed as "code: message").
const (
	codeEmptyQuery    = "empty_query"
	codeBadQueries    = "bad_queries_file"
	codeBadQrels      = "bad_qrels_file"
	codeBadRun        = "bad_run_file"
	codeUnknownPlugin = "unknown_plugin"
	codeNotSearchable = "not_searchable"
	codeBadK          = "bad_k"
)

// searchOptions are the flags of mrpvm search.
type searchOptions struct {
	plugin   string
	k        int
	bySource bool
	queries  string
	run      string
	qrels    string
	tag      string
	noIngest bool
	workers  int
}

func init() {
	var o searchOptions
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY | --queries FILE.jsonl [--run OUT.trec] [--qrels FILE.tsv]",
		Short: "Rank the knowledge base for a query with one kb-plugin (or evaluate a batch of queries)",
		Long: `search brings the knowledge base up to date (changed files only), then
ranks it with one kb-plugin's retrieval strategies, without the rest of the
VM loop.

One query prints the best KUs with file:line, title and score (--by-source
keeps the best KU of each file). With --json it prints
{"plugin", "query", "terms", "truncated", "seconds", "hits": [{"rank", "kuId", "sourceId", "line", "title", "score", "strategy", "why"}]}.

--queries reads BEIR queries ({"_id", "text"} per line) and ranks sources
for each in one process: a source scores as its best KU. --run writes the
TREC run "qid Q0 docid rank score tag" (docid: the workspace-relative path
without .md; "-" for standard output); --qrels scores the run (nDCG@10,
Recall@100, MRR@10). With --json the batch prints
{"plugin", "queries", "seconds", "openSeconds", "queriesPerSecond", "run", "metrics"}:
seconds times the queries; openSeconds is the time spent loading the index
state searches keep in memory before the first query.

A query of stop words only finds nothing; a query over 4096 bytes is cut
there. A plugin index found corrupt is rebuilt from the stored KUs (with a
warning) and the query asked again. Exit status: 0 (also for no hits),
1 on failure, 2 for invalid input (empty query, unreadable or malformed
files, unknown plugin).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd, args, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.plugin, "plugin", "kb-balanced", "kb-plugin that ranks (kb-fast, kb-balanced, kb-thinkingdb)")
	f.IntVar(&o.k, "k", 0, "hits per query, at least 1 (default 10 for one query, 100 for --queries)")
	f.BoolVar(&o.bySource, "by-source", false, "one hit per file, scored as its best KU (always on with --queries)")
	f.StringVar(&o.queries, "queries", "", "BEIR queries file (JSONL with _id and text) to answer in one batch")
	f.StringVar(&o.run, "run", "", "write the batch's TREC run to this file (\"-\": standard output)")
	f.StringVar(&o.qrels, "qrels", "", "relevance judgments (BEIR TSV or TREC qrels) to score the batch with")
	f.StringVar(&o.tag, "tag", "", "run tag in the TREC file (default: the plugin id)")
	f.BoolVar(&o.noIngest, "no-ingest", false, "search the knowledge base as it is, without checking the workspace for changes")
	f.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "queries of a batch answered at once")
	rootCmd.AddCommand(cmd)
}

func usageErr(code, format string, args ...any) error {
	return &exitError{code: exitInvalid, err: &codedError{code: code, err: fmt.Errorf("search: %s: %s", code, fmt.Sprintf(format, args...))}}
}

func runSearch(cmd *cobra.Command, args []string, o searchOptions) error {
	ctx := cmd.Context()
	batch := o.queries != ""
	var query string
	switch {
	case batch && len(args) > 0:
		return usageErr(codeEmptyQuery, "give either a QUERY or --queries, not both")
	case batch:
	case len(args) == 0:
		return usageErr(codeEmptyQuery, "no query: give QUERY or --queries FILE.jsonl")
	default:
		query = strings.Join(args, " ")
		if strings.TrimSpace(query) == "" {
			return usageErr(codeEmptyQuery, "the query is empty")
		}
		if o.run != "" || o.qrels != "" {
			return usageErr(codeBadQueries, "--run and --qrels need --queries")
		}
	}
	if !cmd.Flags().Changed("k") {
		o.k = 10
		if batch {
			o.k = 100
		}
	}
	if o.k < 1 || o.k > kb.MaxK {
		return usageErr(codeBadK, "--k %d is outside [1, %d]", o.k, kb.MaxK)
	}
	// Read the inputs before opening anything: bad files fail fast.
	var queries []kb.Query
	var qrels kb.Qrels
	if batch {
		var err error
		if queries, err = kb.LoadQueries(o.queries); err != nil {
			return usageErr(codeBadQueries, "%v", err)
		}
		if o.qrels != "" {
			if qrels, err = kb.LoadQrels(o.qrels); err != nil {
				return usageErr(codeBadQrels, "%v", err)
			}
		}
	}

	a, err := openApp(ctx, kbOptions{quiet: flags.json, reads: true})
	if err != nil {
		return err
	}
	defer a.Close()
	p, ok := a.Catalog.Registry.KB(o.plugin)
	if !ok {
		var ids []string
		for _, x := range a.Catalog.Registry.KBPlugins() {
			ids = append(ids, x.Descriptor().ID)
		}
		return usageErr(codeUnknownPlugin, "no enabled kb-plugin %q (have: %s)", o.plugin, strings.Join(ids, ", "))
	}
	s, ok := p.(kb.Searcher)
	if !ok {
		return usageErr(codeNotSearchable, "%s cannot rank outside the VM loop (it does not implement search); use mrpvm ask --pin kb=%s", o.plugin, o.plugin)
	}
	if !o.noIngest {
		if err := a.ingest(ctx); err != nil {
			return err
		}
	}
	sr := &searcher{s: s, id: o.plugin, kb: a.kb}
	if batch {
		return searchBatch(ctx, sr, queries, qrels, o)
	}
	return searchOne(ctx, sr, query, o)
}

// searcher runs searches with one plugin and repairs its index once when
// the plugin reports it corrupt.
type searcher struct {
	s        kb.Searcher
	id       string
	kb       *engine.KB
	repaired bool
}

func (s *searcher) search(ctx context.Context, req kb.SearchRequest) (res *kb.SearchResult, err error) {
	err = s.repairing(ctx, func() error {
		res, err = s.s.Search(ctx, req)
		return err
	})
	return res, err
}

// repairing runs fn and, when it reports the plugin's index corrupt (the
// first time in this command), rebuilds the index and runs fn again.
func (s *searcher) repairing(ctx context.Context, fn func() error) error {
	err := fn()
	if err == nil || !kb.IsIndexCorrupt(err) || s.repaired {
		return err
	}
	if err := s.repair(ctx, err); err != nil {
		return err
	}
	return fn()
}

// repair rebuilds the plugin's index from the stored KUs after it reported
// the index corrupt (once per command).
func (s *searcher) repair(ctx context.Context, cause error) error {
	s.repaired = true
	warnf("search: the index of %s is corrupt (%v); rebuilding it from the stored KUs", s.id, cause)
	t0 := time.Now()
	if err := s.kb.RepairHook(ctx, s.id); err != nil {
		return fmt.Errorf("search: %s: %s: rebuilding the index failed: %w", s.id, sdk.CodeIndexCorrupt, err)
	}
	warnf("search: rebuilt the index of %s in %.2fs", s.id, time.Since(t0).Seconds())
	return nil
}

// ranked is the source-level answer to one query of a batch.
type ranked struct {
	docs   []string
	scores []float64
}

// warm loads the index state the plugin's searches keep in memory, when it
// has any (kb.Warmer), repairing a corrupt index as search does.
func (s *searcher) warm(ctx context.Context) error {
	w, ok := s.s.(kb.Warmer)
	if !ok {
		return nil
	}
	return s.repairing(ctx, func() error { return w.Warm(ctx) })
}

// batch answers every query (sources, best first) on workers goroutines;
// a corrupt index is rebuilt once and the batch run again.
func (s *searcher) batch(ctx context.Context, queries []kb.Query, k, workers int) (out []ranked, err error) {
	err = s.repairing(ctx, func() error {
		out, err = s.batchOnce(ctx, queries, k, workers)
		return err
	})
	return out, err
}

func (s *searcher) batchOnce(ctx context.Context, queries []kb.Query, k, workers int) ([]ranked, error) {
	out := make([]ranked, len(queries))
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
				res, err := s.s.Search(ctx, kb.SearchRequest{Query: queries[i].Text, K: k, BySource: true})
				if err != nil {
					cancel(fmt.Errorf("query %s: %w", queries[i].ID, err))
					return
				}
				r := ranked{docs: make([]string, len(res.Hits)), scores: make([]float64, len(res.Hits))}
				for j, h := range res.Hits {
					r.docs[j], r.scores[j] = kb.DocID(h.SourceID), h.Score
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

// hitJSON is one hit of a single-query search in --json output.
type hitJSON struct {
	Rank     int     `json:"rank"`
	KUID     string  `json:"kuId"`
	SourceID string  `json:"sourceId"`
	Line     int     `json:"line"`
	Title    string  `json:"title"`
	Score    float64 `json:"score"`
	Strategy string  `json:"strategy"`
	Why      string  `json:"why,omitempty"`
}

func searchOne(ctx context.Context, s *searcher, query string, o searchOptions) error {
	t0 := time.Now()
	res, err := s.search(ctx, kb.SearchRequest{Query: query, K: o.k, BySource: o.bySource, KUs: s.kb.Store()})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	secs := time.Since(t0).Seconds()
	hits := make([]hitJSON, len(res.Hits))
	for i, h := range res.Hits {
		x := hitJSON{Rank: i + 1, KUID: h.KUID, SourceID: h.SourceID, Score: h.Score, Strategy: h.Strategy, Why: h.Why}
		if h.KU != nil {
			x.Line, x.Title = h.KU.Range.StartLine, h.KU.Title
		}
		hits[i] = x
	}
	if flags.json {
		return printJSON(os.Stdout, map[string]any{
			"plugin": s.id, "query": query, "terms": res.Terms, "truncated": res.Truncated,
			"seconds": secs, "hits": hits,
		})
	}
	if res.Truncated {
		warnf("search: the query is longer than %d bytes; only its beginning was searched", 4096)
	}
	if len(res.Terms) == 0 {
		notef("the query has no searchable terms (only stop words or punctuation)")
	}
	printHits(os.Stdout, hits)
	termf(os.Stdout, "%d hits · %s · %.1f ms\n", len(hits), s.id, secs*1000)
	return nil
}

func printHits(w io.Writer, hits []hitJSON) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, h := range hits {
		termf(tw, "%2d\t%.4f\t%s:%d\t%s\n", h.Rank, h.Score, h.SourceID, h.Line, oneLine(h.Title, 72))
	}
	tw.Flush()
}

func searchBatch(ctx context.Context, s *searcher, queries []kb.Query, qrels kb.Qrels, o searchOptions) error {
	var out io.Writer
	var file *os.File
	runPath := o.run
	if runPath == "" && qrels == nil {
		runPath = "-" // nothing else to show: the run itself
	}
	switch runPath {
	case "":
	case "-":
		out = os.Stdout
	default:
		f, err := os.Create(runPath)
		if err != nil {
			return usageErr(codeBadRun, "%v", err)
		}
		file, out = f, f
		defer file.Close()
	}
	tag := o.tag
	if tag == "" {
		tag = s.id
	}
	var tw *kb.TRECWriter
	if out != nil {
		tw = kb.NewTRECWriter(out, tag)
	}
	run := make(kb.Run, len(queries))
	// Open the index first (its unit table, fact graph): the batch then
	// times its queries, as a running server answers them.
	tw0 := time.Now()
	if err := s.warm(ctx); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	warmSecs := time.Since(tw0).Seconds()
	t0 := time.Now()
	results, err := s.batch(ctx, queries, o.k, o.workers)
	if err != nil {
		return err
	}
	for i, q := range queries {
		docs, scores := results[i].docs, results[i].scores
		if tw != nil {
			if err := tw.Write(q.ID, docs, scores); err != nil {
				return err
			}
		}
		if qrels != nil {
			run[q.ID] = docs
		}
	}
	secs := time.Since(t0).Seconds()
	if tw != nil {
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if file != nil {
		if err := file.Close(); err != nil {
			return fmt.Errorf("write run: %w", err)
		}
	}
	qps := 0.0
	if secs > 0 {
		qps = float64(len(queries)) / secs
	}
	var m *kb.Metrics
	if qrels != nil {
		x := kb.Evaluate(run, qrels)
		m = &x
	}
	msg := os.Stdout
	if runPath == "-" {
		msg = os.Stderr // keep standard output a clean run
	}
	if flags.json && runPath != "-" {
		out := map[string]any{"plugin": s.id, "queries": len(queries), "seconds": secs, "openSeconds": warmSecs, "queriesPerSecond": qps, "run": nullIfEmpty(o.run)}
		if m != nil {
			out["metrics"] = map[string]any{"ndcg@10": m.NDCG10, "recall@100": m.Recall100, "mrr@10": m.MRR10, "judgedQueries": m.Queries}
		}
		return printJSON(msg, out)
	}
	termf(msg, "%d queries with %s in %.3fs (%.0f queries/s)\n", len(queries), s.id, secs, qps)
	if m != nil {
		fmt.Fprintf(msg, "nDCG@10 %.4f  Recall@100 %.4f  MRR@10 %.4f  (%d judged queries)\n", m.NDCG10, m.Recall100, m.MRR10, m.Queries)
	}
	return nil
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
