package bm25

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// benchSources parses the Markdown files of MRPVM_BENCH_WS.
func benchSources(b *testing.B) (ids []string, units [][]*kus.KU) {
	ws := testtree.BenchWorkspace(b)
	files, err := filepath.Glob(filepath.Join(ws, "*.md"))
	if err != nil || len(files) == 0 {
		b.Fatal("no Markdown files in", ws, err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		id := strings.TrimSuffix(filepath.Base(f), ".md")
		doc, err := kus.Parse(src, kus.SourceInfo{SourceID: id, SourceType: kus.SourceMarkdown})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
		units = append(units, doc.Units)
	}
	return ids, units
}

// BenchmarkAnalyse builds the forward records of a workspace's sources
// (the Prepare half of an ingest), bypassing the record cache.
func BenchmarkAnalyse(b *testing.B) {
	_, units := benchSources(b)
	x := New(DefaultParams())
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range units {
			x.analyse(u)
		}
	}
}

// BenchmarkIndexSources writes a workspace's sources into an empty index
// (the commit half of an ingest), their records prepared beforehand.
func BenchmarkIndexSources(b *testing.B) {
	ids, units := benchSources(b)
	x := New(DefaultParams())
	for _, u := range units {
		x.Prepare(u)
	}
	b.ReportAllocs()
	for b.Loop() {
		kv := kvtest.New()
		for i, u := range units {
			if err := x.IndexSource(kv, ids[i], u, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
