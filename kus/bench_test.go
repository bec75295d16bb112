package kus

import (
	"fmt"
	"testing"

	"github.com/yuin/goldmark/text"

	"github.com/mrpvm/mrpvm/internal/scifact"
)

// loadSciFactMarkdown renders every SciFact abstract as the Markdown file
// mkworkspace writes for it.
func loadSciFactMarkdown(tb testing.TB) [][]byte {
	var docs [][]byte
	for _, d := range scifact.Docs(tb) {
		docs = append(docs, []byte(fmt.Sprintf("# %s\n\n%s\n", d.Title, d.Text)))
	}
	return docs
}

// sciFactBench returns the SciFact documents and sets the benchmark's
// bytes per operation to their total size.
func sciFactBench(b *testing.B) [][]byte {
	docs := loadSciFactMarkdown(b)
	total := 0
	for _, d := range docs {
		total += len(d)
	}
	b.SetBytes(int64(total))
	return docs
}

// BenchmarkParse measures KU extraction throughput over the SciFact corpus.
// Run with -cpu 1 to read it as single-core MB/s.
func BenchmarkParse(b *testing.B) {
	docs := sciFactBench(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, d := range docs {
			if _, err := Parse(d, SourceInfo{SourceID: fmt.Sprint("doc-", j, ".md")}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkGoldmarkOnly is the baseline: goldmark parsing alone, so the
// cost of KU extraction on top of it reads as a ratio.
func BenchmarkGoldmarkOnly(b *testing.B) {
	docs := sciFactBench(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range docs {
			_ = markdown.Parser().Parse(textReader(d))
		}
	}
}

func textReader(src []byte) text.Reader { return text.NewReader(src) }
