package hdc

import (
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/kb/internal/analysis"
	"github.com/mrpvm/mrpvm/plugins/sdk/text"
)

// benchWorkspace is the folder of Markdown sources the ingest benchmarks
// encode: $MRPVM_BENCH_WS, else the SciFact workspace of issue 4.
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

// analyseLikeBM25 analyses the field texts of units as the BM25 side does
// just before the encoder runs at ingest (so analysis.Lookup hits).
func analyseLikeBM25(units []*kus.KU) {
	a := text.English()
	for _, u := range units {
		for _, s := range []string{u.Title, u.Topic, u.Claim, u.Procedure, u.TextBody} {
			if s != "" {
				analysis.Analyse(a, s)
			}
		}
	}
}

// BenchmarkIngestEncode encodes every source of the workspace as Prepare
// does at ingest, each right after its BM25 analysis (not timed).
func BenchmarkIngestEncode(b *testing.B) {
	docs := parseDir(b, benchWorkspace())
	e := DefaultParams().Encoder
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		const batch = 64
		for i := 0; i < len(docs); i += batch {
			part := docs[i:min(i+batch, len(docs))]
			b.StopTimer()
			for _, d := range part {
				analyseLikeBM25(d.Units)
			}
			b.StartTimer()
			t0 := cpuTime()
			for _, d := range part {
				encodeUnits(e.EncodeUnits(d.Units))
			}
			cpu += cpuTime() - t0
		}
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far: unlike the
// wall clock, it does not count time the process waited for a busy CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
