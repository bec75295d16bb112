package analysis

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin/text"
)

// sciFactCorpus is the shared SciFact corpus, relative to this package.
const sciFactCorpus = "../../../shared/data/scifact/corpus.jsonl"

func loadCorpus(tb testing.TB) [][2]string {
	f, err := os.Open(sciFactCorpus)
	if err != nil {
		tb.Skipf("SciFact corpus not available: %v", err)
	}
	defer f.Close()
	var docs [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var d struct{ Title, Text string }
		require.NoError(tb, json.Unmarshal(sc.Bytes(), &d))
		docs = append(docs, [2]string{d.Title, d.Text})
	}
	require.NoError(tb, sc.Err())
	return docs
}

// sameAnalysis requires the memo's analysis of s to equal a fresh one.
func sameAnalysis(t *testing.T, a *text.Analyzer, m *Memo, s string) {
	t.Helper()
	got := m.Analyse(a, s)
	want := newText(s)
	want.add(a, s)
	require.Equal(t, want.All, got.All, s)
	require.Equal(t, want.IDs, got.IDs, s)
	main := []string{}
	a.Each(s, func(tok text.Token) {
		if !tok.Part {
			main = append(main, tok.Term)
		}
	})
	require.Equal(t, main, got.Main, s)
}

// TestMemoMatchesAnalyse analyses each SciFact abstract's texts as an
// ingest does (title, a claim made of its first sentences, a summary cut
// mid-sentence, the abstract) through one Memo per source.
func TestMemoMatchesAnalyse(t *testing.T) {
	docs := loadCorpus(t)
	if testing.Short() {
		docs = docs[:500]
	}
	a := text.English()
	var m Memo
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range docs {
		m.Reset()
		body := d[1]
		claim := body
		if i := strings.Index(body, ". "); i > 0 {
			claim = body[:i+1]
		}
		cut := body
		if len(body) > 40 {
			cut = body[:r.IntN(len(body))] + "…"
		}
		for _, s := range []string{d[0], claim, cut, body, body + " " + d[0]} {
			sameAnalysis(t, a, &m, s)
		}
	}
}

// TestMemoEdgeCases splits texts at every kind of sentence end next to the
// tokenizer's special cases (flags, compounds, numbers, mnemonics).
func TestMemoEdgeCases(t *testing.T) {
	a := text.English()
	parts := []string{
		"Use --directory DIR to set it.", "-v prints more! ", "--flag at start? ", "It is 3. 5 are left.",
		"The value is 3.14. Next one.", "[e]dit the file. [x] done. a[b]c.", "x86-64 and IL-6 rise.",
		"1,000. 2,000 cells.", "State-of-the-art methods!  Then", "中文. 文字。 x.", "TNF-α. NF-κB.",
		"patient's. don't. ", "end.Next and end. Next.", "\tTabs.\tand\nnewlines.\r\nCRLF.", "...", ". . .",
		"A sentence that is long enough to be looked up on its own.", "a.", "-", "'s.",
	}
	var m Memo
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		if r.IntN(4) == 0 {
			m.Reset()
		}
		var b strings.Builder
		for n := r.IntN(6); n >= 0; n-- {
			b.WriteString(parts[r.IntN(len(parts))])
			b.WriteString([]string{" ", "", "  ", "\n"}[r.IntN(4)])
		}
		sameAnalysis(t, a, &m, b.String())
	}
}

func TestSentenceEnd(t *testing.T) {
	s := "The first sentence is here. Second sentence follows.  Short. The fourth one ends the text."
	var got []string
	for start := 0; start < len(s); {
		end, next := sentenceEnd(s, start)
		got = append(got, s[start:end])
		start = next
	}
	require.Equal(t, []string{"The first sentence is here.", "Second sentence follows.  Short.", "The fourth one ends the text."}, got)
}

// sentenceEndBytewise is sentenceEnd as first written, byte by byte.
func sentenceEndBytewise(s string, start int) (end, next int) {
	for i := start + minSentence; i+1 < len(s); i++ {
		if c := s[i]; (c == '.' || c == '!' || c == '?') && isSpace(s[i+1]) {
			next = i + 2
			for next < len(s) && isSpace(s[next]) {
				next++
			}
			return i + 1, next
		}
	}
	return len(s), len(s)
}

// TestSentenceEndAsBytewise compares sentenceEnd with the byte-by-byte
// scan on random texts dense in terminators and spaces.
func TestSentenceEndAsBytewise(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		b := make([]byte, r.IntN(120))
		for i := range b {
			b[i] = "ab.!? \n\t3,"[r.IntN(10)]
		}
		s := string(b)
		for start := 0; start <= len(s); start += 1 + r.IntN(8) {
			e1, n1 := sentenceEnd(s, start)
			e2, n2 := sentenceEndBytewise(s, start)
			if e1 != e2 || n1 != n2 {
				t.Fatalf("sentenceEnd(%q, %d) = %d, %d; bytewise %d, %d", s, start, e1, n1, e2, n2)
			}
		}
	}
}
