package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/kbsearch"
	"github.com/mrpvm/mrpvm/retrieval"
)

// Error codes of mrpvm search (printed as "code: message"); the codes of
// a refused query or plugin are kbsearch's.
const (
	codeEmptyQuery = kbsearch.CodeEmptyQuery
	codeBadQueries = "bad_queries_file"
	codeBadQrels   = "bad_qrels_file"
	codeBadRun     = "bad_run_file"
	codeBadK       = kbsearch.CodeBadK
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
	if kbsearch.CheckK(o.k) != nil {
		return usageErr(codeBadK, "--k %d is outside [1, %d]", o.k, retrieval.MaxK)
	}
	// Read the inputs before opening anything: bad files fail fast.
	var queries []retrieval.Query
	var qrels retrieval.Qrels
	if batch {
		var err error
		if queries, err = retrieval.LoadQueries(o.queries); err != nil {
			return usageErr(codeBadQueries, "%v", err)
		}
		if o.qrels != "" {
			if qrels, err = retrieval.LoadQrels(o.qrels); err != nil {
				return usageErr(codeBadQrels, "%v", err)
			}
		}
	}

	a, err := openApp(ctx, kbOptions{quiet: flags.json, reads: true})
	if err != nil {
		return err
	}
	defer a.Close()
	sr, err := kbsearch.New(a.Catalog.Registry, a.kb, o.plugin)
	var refused *kbsearch.Error
	if errors.As(err, &refused) {
		msg := refused.Message
		if refused.Code == kbsearch.CodeNotSearchable {
			msg += fmt.Sprintf(": mrpvm ask --pin kb=%s", o.plugin)
		}
		return usageErr(refused.Code, "%s", msg)
	}
	if err != nil {
		return err
	}
	sr.Warn = warnf
	if !o.noIngest {
		if err := a.ingest(ctx); err != nil {
			return err
		}
	}
	if batch {
		return searchBatch(ctx, sr, queries, qrels, o)
	}
	return searchOne(ctx, sr, query, o)
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

func searchOne(ctx context.Context, s *kbsearch.Searcher, query string, o searchOptions) error {
	t0 := time.Now()
	res, err := s.Search(ctx, retrieval.SearchRequest{Query: query, K: o.k, BySource: o.bySource})
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
			"plugin": s.Plugin(), "query": query, "terms": res.Terms, "truncated": res.Truncated,
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
	termf(os.Stdout, "%d hits · %s · %.1f ms\n", len(hits), s.Plugin(), secs*1000)
	return nil
}

func printHits(w io.Writer, hits []hitJSON) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, h := range hits {
		termf(tw, "%2d\t%.4f\t%s:%d\t%s\n", h.Rank, h.Score, h.SourceID, h.Line, oneLine(h.Title, 72))
	}
	tw.Flush()
}

func searchBatch(ctx context.Context, s *kbsearch.Searcher, queries []retrieval.Query, qrels retrieval.Qrels, o searchOptions) error {
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
		tag = s.Plugin()
	}
	var tw *retrieval.TRECWriter
	if out != nil {
		tw = retrieval.NewTRECWriter(out, tag)
	}
	run := make(retrieval.Run, len(queries))
	// Open the index first (its unit table, fact graph): the batch then
	// times its queries, as a running server answers them.
	tw0 := time.Now()
	if err := s.Warm(ctx); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	warmSecs := time.Since(tw0).Seconds()
	t0 := time.Now()
	results, err := s.Batch(ctx, queries, o.k, o.workers)
	if err != nil {
		return err
	}
	for i, q := range queries {
		docs, scores := results[i].Docs, results[i].Scores
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
	var m *retrieval.Metrics
	if qrels != nil {
		x := retrieval.Evaluate(run, qrels)
		m = &x
	}
	msg := os.Stdout
	if runPath == "-" {
		msg = os.Stderr // keep standard output a clean run
	}
	if flags.json && runPath != "-" {
		out := map[string]any{"plugin": s.Plugin(), "queries": len(queries), "seconds": secs, "openSeconds": warmSecs, "queriesPerSecond": qps, "run": nullIfEmpty(o.run)}
		if m != nil {
			out["metrics"] = map[string]any{"ndcg@10": m.NDCG10, "recall@100": m.Recall100, "mrr@10": m.MRR10, "judgedQueries": m.Queries}
		}
		return printJSON(msg, out)
	}
	termf(msg, "%d queries with %s in %.3fs (%.0f queries/s)\n", len(queries), s.Plugin(), secs, qps)
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
