package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/scifact"
	"github.com/mrpvm/mrpvm/retrieval/ireval"
)

// writeSciFact writes the SciFact corpus as one Markdown file per abstract,
// as ../shared/tools/mkworkspace does, and returns the folder and its size.
func writeSciFact(tb testing.TB) (string, int64) {
	tb.Helper()
	if _, err := os.Stat(scifact.CorpusPath()); err != nil {
		tb.Skipf("SciFact corpus not available: %v", err)
	}
	docs, err := ireval.ReadDocs(scifact.CorpusPath())
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	total, err := ireval.WriteWorkspace(dir, docs)
	if err != nil {
		tb.Fatal(err)
	}
	return dir, total
}

// BenchmarkIngestSciFact measures a cold ingest, a warm (unchanged) ingest
// and a one-file change in the same run and reports their ratio.
func BenchmarkIngestSciFact(b *testing.B) {
	ws, size := writeSciFact(b)
	var cold, warm, one time.Duration
	for i := 0; i < b.N; i++ {
		dbPath := filepath.Join(b.TempDir(), "kb.db")
		kb, err := Open(Options{Workspace: ws, DBPath: dbPath})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		rep, err := kb.Ingest(context.Background(), RunOptions{})
		if err != nil || rep.Failed() {
			b.Fatal(err, rep)
		}
		cold += time.Since(t0)
		kb.Close()

		kb, err = Open(Options{Workspace: ws, DBPath: dbPath})
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		rep, err = kb.Ingest(context.Background(), RunOptions{})
		if err != nil || rep.Files != 0 {
			b.Fatal(err, rep)
		}
		warm += time.Since(t0)

		p := filepath.Join(ws, "4983.md")
		body, _ := os.ReadFile(p)
		os.WriteFile(p, append(body, []byte(fmt.Sprintf("\nEdit %d.\n", i))...), 0o644)
		later := time.Now().Add(time.Duration(i+1) * time.Second)
		os.Chtimes(p, later, later)
		t0 = time.Now()
		rep, err = kb.Ingest(context.Background(), RunOptions{})
		if err != nil || rep.Files != 1 {
			b.Fatal(err, rep)
		}
		one += time.Since(t0)
		kb.Close()
	}
	n := float64(b.N)
	b.ReportMetric(cold.Seconds()/n, "cold-s")
	b.ReportMetric(warm.Seconds()/n*1000, "warm-ms")
	b.ReportMetric(one.Seconds()/n*1000, "one-file-ms")
	b.ReportMetric(cold.Seconds()/warm.Seconds(), "cold/warm")
	b.ReportMetric(float64(size)/(cold.Seconds()/n)/1e6, "cold-MB/s")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}
