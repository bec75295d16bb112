package scifact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Doc is one abstract of the corpus.
type Doc struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

// CorpusPath is the corpus file: ../shared/data/scifact/corpus.jsonl from
// the module root.
func CorpusPath() string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	return filepath.Join(root, "..", "shared", "data", "scifact", "corpus.jsonl")
}

// Docs returns the corpus's abstracts in file order; it skips tb when the
// corpus is absent and fails it when a line is not a JSON document.
func Docs(tb testing.TB) []Doc {
	tb.Helper()
	f, err := os.Open(CorpusPath())
	if err != nil {
		tb.Skipf("SciFact corpus not available: %v", err)
	}
	defer f.Close()
	var docs []Doc
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var d Doc
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			tb.Fatal(err)
		}
		docs = append(docs, d)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return docs
}
