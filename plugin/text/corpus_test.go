package text

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/internal/scifact"
)

// loadCorpus returns the titles and abstracts of the SciFact corpus.
func loadCorpus(tb testing.TB) []string {
	var texts []string
	for _, d := range scifact.Docs(tb) {
		texts = append(texts, d.Title, d.Text)
	}
	return texts
}

// BenchmarkEachCold analyses the SciFact corpus with a fresh analyzer (an
// empty term cache, as a cold ingest starts).
func BenchmarkEachCold(b *testing.B) {
	texts := loadCorpus(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		a := New(DefaultOptions())
		n = 0
		for _, s := range texts {
			a.Each(s, func(Token) { n++ })
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/token")
}

// BenchmarkEachWarm analyses the SciFact corpus with a warm term cache.
func BenchmarkEachWarm(b *testing.B) {
	texts := loadCorpus(b)
	a := New(DefaultOptions())
	n := 0
	for _, s := range texts {
		a.Each(s, func(Token) { n++ })
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range texts {
			a.Each(s, func(Token) {})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/token")
}

// TestSameTokensAsBeforeIDs compares the analyzer's tokens over the
// SciFact corpus, analysed twice (cold and warm cache), with the digests in
// testdata/scifact.golden, recorded from the analyzer before term IDs.
func TestSameTokensAsBeforeIDs(t *testing.T) {
	texts := loadCorpus(t)
	if testing.Short() {
		texts = texts[:1000]
	}
	checkGoldenDigests(t, "scifact.golden", DefaultOptions(), texts)
}

// TestSameTokensAsBeforeIDsEdgeCases compares the analyzer's tokens on the
// edge cases of the tokenizer, under several options, with the golden files
// recorded from the analyzer before term IDs.
func TestSameTokensAsBeforeIDsEdgeCases(t *testing.T) {
	texts := []string{
		"", "The and of it is", "Running runners ran easily", "enable kb-fast now", "x86-64 builds",
		"IL6 and h1n1", "v1.2", "TNF-α and NF-κB", "β cells", "λόγος", "use --directory DIR", "ls -l",
		"a - b", "word-", "snake_case_name", "pi is 3.14.", "[e]dit and e[x]ecute in [k]ibibytes",
		"[docs](url) - [x] done [1] a[i]", "v1.2.3 released", "1,000 cells, 2,5 mg", "end.Next",
		"the patient's blood", "the patient\u2019s blood", "don't stop", "state-of-the-art",
		"ÉCOLE Straße", "Αλφα βήτα", "Привет мир", "中文abc", "カタ", "naïve cafe\u0301", "٣٤ items",
		strings.Repeat("x", 70) + " ok", "bob@example.com", "IL-6 increases TNF-alpha", "5 µg",
		"kb-fast x86-64 --directory", "1,000.5", "中文 текст", "a'b'c", "--", "-a-", "\xff\xfe", "3.14.15", "'s",
		"the-the a_an 中-文", strings.Repeat("ab-", 30) + "c",
	}
	checkGolden(t, "edges-default.golden", DefaultOptions(), texts)
	checkGolden(t, "edges-none.golden", Options{}, texts)
	checkGolden(t, "edges-short-stem-parts-5.golden", Options{Stopwords: ShortStopwords(), Stem: true, Parts: true, MaxTokenLen: 5}, texts)
}

// TestIDsAfterCacheIsFull checks that terms keep their IDs, and new terms
// get ID 0, once the term cache stops growing.
func TestIDsAfterCacheIsFull(t *testing.T) {
	a := New(DefaultOptions())
	first := map[string]uint32{}
	a.Each("cells cell ab-cd", func(tok Token) { first[tok.Term] = tok.ID })
	a.mu.Lock()
	a.size = maxCache // the word cache is full: words are stemmed on every call
	a.mu.Unlock()
	a.Each("cellular cells ab-cd", func(tok Token) {
		if id, ok := first[tok.Term]; ok {
			assert.Equal(t, id, tok.ID, tok.Term)
		} else {
			assert.NotZero(t, tok.ID, tok.Term) // numbered: the term table has room
		}
	})
	a.mu.Lock()
	for i := len(a.ids); i < maxTerms; i++ {
		a.ids[fmt.Sprint("filler", i)] = uint32(i + 1)
	}
	a.mu.Unlock()
	a.Each("cell newterm ab-cd", func(tok Token) {
		if id, ok := first[tok.Term]; ok {
			assert.Equal(t, id, tok.ID, tok.Term)
		} else {
			assert.Zero(t, tok.ID, tok.Term)
		}
	})
}
