package kvtest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// MarkdownFile is one Markdown file of the repository: its path (relative
// to the test's folder), its text and its parse (nil when parsing failed).
type MarkdownFile struct {
	Path string
	Src  []byte
	Doc  *kus.Document
}

// RepoMarkdown reads and parses the Markdown files of this repository (real
// technical text with context units, claims and procedures), in path
// order, leaving out node_modules and hidden folders. The root is the
// nearest folder above the test's holding go.mod.
func RepoMarkdown(tb testing.TB) []MarkdownFile {
	tb.Helper()
	root := "."
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		if i == 16 {
			tb.Fatal("no go.mod above the test's folder")
		}
		root = filepath.Join(root, "..")
	}
	var files []MarkdownFile
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(p) != ".md" {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f := MarkdownFile{Path: p, Src: src}
		if doc, err := kus.Parse(src, kus.SourceInfo{SourceID: filepath.ToSlash(p)}); err == nil {
			f.Doc = doc
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Fatal("no Markdown files in the repository")
	}
	return files
}
