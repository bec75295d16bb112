package thinkingdb

import (
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/kus"
)

// benchWorkspace is the folder of Markdown sources the ingest benchmark
// reads: $MRPVM_BENCH_WS, else the SciFact workspace of issue 4.
func benchWorkspace() string {
	if d := os.Getenv("MRPVM_BENCH_WS"); d != "" {
		return d
	}
	return "/tmp/i4/ws1"
}

// parseDir parses every .md file under dir (sorted by path).
func parseDir(tb testing.TB, dir string) []*kus.Document {
	tb.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		tb.Skipf("no workspace: %v", err)
	}
	sort.Strings(paths)
	var docs []*kus.Document
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		doc, err := kus.Parse(src, kus.SourceInfo{SourceID: filepath.ToSlash(rel)})
		if err != nil {
			continue
		}
		docs = append(docs, doc)
	}
	if len(docs) == 0 {
		tb.Skipf("no Markdown sources under %s", dir)
	}
	return docs
}

// BenchmarkIngestFacts extracts the facts of every source of the workspace
// as Prepare does at ingest.
func BenchmarkIngestFacts(b *testing.B) {
	docs := parseDir(b, benchWorkspace())
	x := New(DefaultParams())
	b.ReportAllocs()
	t0 := cpuTime()
	for b.Loop() {
		for _, d := range docs {
			x.SourceFacts(d.Source.SourceID, d.Units)
		}
	}
	b.ReportMetric(float64((cpuTime()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far: unlike the
// wall clock, it does not count time the process waited for a busy CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
