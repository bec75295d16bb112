package kvtest

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
)

// BenchWorkspace is the folder of Markdown sources the ingest benchmarks
// and workspace tests read: $MRPVM_BENCH_WS, else the SciFact workspace
// built by mkworkspace at /tmp/i4/ws1.
func BenchWorkspace() string {
	if d := os.Getenv("MRPVM_BENCH_WS"); d != "" {
		return d
	}
	return "/tmp/i4/ws1"
}

// ParseDir parses every .md file under dir, sorted by path; it skips the
// test when dir cannot be walked or holds no Markdown source.
func ParseDir(tb testing.TB, dir string) []*kus.Document {
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
