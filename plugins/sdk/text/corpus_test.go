package text

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/plugins/sdk/text/internal/oldtext"
)

// sciFactCorpus is the shared SciFact corpus, relative to this package.
const sciFactCorpus = "../../../../shared/data/scifact/corpus.jsonl"

// loadCorpus returns the titles and abstracts of the SciFact corpus.
func loadCorpus(tb testing.TB) []string {
	f, err := os.Open(sciFactCorpus)
	if err != nil {
		tb.Skipf("SciFact corpus not available: %v", err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var d struct{ Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			tb.Fatal(err)
		}
		texts = append(texts, d.Title, d.Text)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
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

// oldTokens returns the tokens of s under the frozen analyzer, IDs left 0.
func oldTokens(a *oldtext.Analyzer, s string) []Token {
	var toks []Token
	a.Each(s, func(t oldtext.Token) { toks = append(toks, Token{Term: t.Term, Pos: t.Pos, Part: t.Part}) })
	return toks
}

// checkSameAsOld analyses texts with a fresh analyzer of opts and with the
// frozen copy of the analyzer before term IDs, and requires identical
// tokens, and IDs that number the terms one to one.
func checkSameAsOld(t *testing.T, opts Options, oldOpts oldtext.Options, texts []string) {
	a, old := New(opts), oldtext.New(oldOpts)
	byID := map[uint32]string{}
	idOf := map[string]uint32{}
	for _, s := range texts {
		var got []Token
		a.Each(s, func(tok Token) {
			if tok.ID == 0 {
				t.Fatalf("term %q of %q has no ID", tok.Term, s)
			}
			if term, ok := byID[tok.ID]; ok && term != tok.Term {
				t.Fatalf("ID %d is %q and %q", tok.ID, term, tok.Term)
			}
			if id, ok := idOf[tok.Term]; ok && id != tok.ID {
				t.Fatalf("term %q has IDs %d and %d", tok.Term, id, tok.ID)
			}
			byID[tok.ID], idOf[tok.Term] = tok.Term, tok.ID
			tok.ID = 0
			got = append(got, tok)
		})
		if want := oldTokens(old, s); !slices.Equal(want, got) {
			t.Fatalf("tokens of %q:\nold %v\nnew %v", s, want, got)
		}
	}
}

// TestSameTokensAsBeforeIDs compares the analyzer with its frozen copy from
// before term IDs over the SciFact corpus, twice (cold and warm cache).
func TestSameTokensAsBeforeIDs(t *testing.T) {
	texts := loadCorpus(t)
	if testing.Short() {
		texts = texts[:1000]
	}
	texts = append(texts, texts...)
	checkSameAsOld(t, DefaultOptions(), oldtext.DefaultOptions(), texts)
}

// TestSameTokensAsBeforeIDsEdgeCases compares the two analyzers on the
// edge cases of the tokenizer, under several options.
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
	checkSameAsOld(t, DefaultOptions(), oldtext.DefaultOptions(), texts)
	checkSameAsOld(t, Options{}, oldtext.Options{}, texts)
	checkSameAsOld(t, Options{Stopwords: ShortStopwords(), Stem: true, Parts: true, MaxTokenLen: 5},
		oldtext.Options{Stopwords: oldtext.ShortStopwords(), Stem: true, Parts: true, MaxTokenLen: 5}, texts)
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
