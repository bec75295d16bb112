package retrieval_test

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/plugin"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/retrieval"
	"github.com/mrpvm/mrpvm/workspace"
)

// BenchmarkColdIngestAll measures a cold ingest of the workspace named by
// MRPVM_BENCH_WS (e.g. the SciFact workspace of test/bench/bleve) with every
// built-in kb-plugin attached, as `mrpvm ingest` runs it. Profile with
//
//	MRPVM_BENCH_WS=/tmp/i4/ws1 go test ./plugins/kb/ -run '^$' -bench ColdIngestAll -benchtime 1x -cpuprofile cpu.prof
func BenchmarkColdIngestAll(b *testing.B) {
	ws := testtree.BenchWorkspace(b)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		db := filepath.Join(b.TempDir(), "kb.db")
		w, err := workspace.Open(workspace.Options{Root: ws, DBPath: db, NoWrappers: true, NoLLM: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep, err := w.KB.Ingest(context.Background(), ingest.RunOptions{})
		if err != nil || rep.Failed() {
			b.Fatal(err, rep)
		}
		b.StopTimer()
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkSearchBatch answers the queries of MRPVM_BENCH_QUERIES (BEIR
// JSONL) with kb-plugin MRPVM_BENCH_PLUGIN (default kb-balanced) over the
// knowledge base MRPVM_BENCH_DB of workspace MRPVM_BENCH_WS, top 100
// sources each, one query at a time, as `mrpvm search --queries` does per
// worker. MRPVM_BENCH_HEAP names a heap profile written after the
// queries, while the caches are still alive.
func BenchmarkSearchBatch(b *testing.B) {
	ws, db, qf := os.Getenv("MRPVM_BENCH_WS"), os.Getenv("MRPVM_BENCH_DB"), os.Getenv("MRPVM_BENCH_QUERIES")
	if ws == "" || db == "" || qf == "" {
		b.Skip("set MRPVM_BENCH_WS, MRPVM_BENCH_DB and MRPVM_BENCH_QUERIES")
	}
	pluginID := cmp.Or(os.Getenv("MRPVM_BENCH_PLUGIN"), "kb-balanced")
	queries, err := retrieval.LoadQueries(qf)
	if err != nil {
		b.Fatal(err)
	}
	w, err := workspace.Open(workspace.Options{Root: ws, DBPath: db, NoWrappers: true, NoLLM: true})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	p, ok := w.Catalog.Registry.KB(pluginID)
	if !ok {
		b.Fatalf("no kb-plugin %s", pluginID)
	}
	s, ok := p.(plugin.Searcher)
	if !ok {
		b.Fatalf("%s cannot search", pluginID)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range queries {
			if _, err := s.Search(ctx, plugin.SearchRequest{Query: q.Text, K: 100, BySource: true}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if path := os.Getenv("MRPVM_BENCH_HEAP"); path != "" {
		// What the caches hold at the end, before the workspace closes.
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
