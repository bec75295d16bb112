package thinkingdb

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// update rewrites testdata/extract/*.golden from the current extractor:
// go test ./retrieval/thinkingdb -run Golden -update. Review the
// diff before committing: every stored fact of a knowledge base depends on
// the extraction, so a change needs a new index version.
var update = flag.Bool("update", false, "rewrite testdata/extract/*.golden from the current extractor")

// repoTexts returns the claims, procedures and bodies of the KUs parsed
// from this repository's Markdown files, and the files' raw text.
func repoTexts(t *testing.T) []string {
	t.Helper()
	var texts []string
	for _, f := range kvtest.RepoMarkdown(t) {
		texts = append(texts, string(f.Src))
		if f.Doc != nil {
			texts = append(texts, unitTexts(f.Doc.Units)...)
		}
	}
	require.NotEmpty(t, texts)
	return texts
}

func unitTexts(units []*kus.KU) []string {
	var out []string
	for _, u := range units {
		for _, s := range []string{u.Claim, u.Procedure, u.TextBody} {
			if s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// trickyTexts exercise the word splitter and the phrase rules.
var trickyTexts = []string{
	"",
	"IL-6 causes x_y. Done!",
	"a- b. 1.5 e.g. it's",
	"TNF-α (NF-κB), café-au-lait;\nnext",
	"x\u0301y -z ÉTÉ.Ü",
	"a\xffb c'\u00e9",
	"The Protein IS A Type Of enzyme. Aspirin Inhibits COX-2 and reduces Inflammation.",
	"\u212Aind of magic: Kelvin \u212A is a unit. İnsulin İS A hormone.",
	"Smoking causes cancer, which causes death; the drug is caused by the bug",
	"Obesity is associated with diabetes and the heart. It can the. A uses B uses C.",
	"Mitochondria are part of cells. Cells are part of tissues. Tissues are part of organs.",
	"the the the uses the the. and uses or. a and b causes c and d or",
	"X is a type of is a type of Y. Z leads to leads to W. causes causes causes",
	"ΑΒΓ causes ΔΕΖ. Straße requires Fluß. ǅemal uses ǈudevit.",
	"A ... causes ... B?! C;D\nE causes F\n\nG",
	"Insulin-like growth factor 1 (IGF-1) promotes cell growth and inhibits apoptosis in many tissues.",
	"VERY LONG SUBJECT PHRASE WITH MANY WORDS causes VERY LONG OBJECT PHRASE WITH MANY WORDS INDEED",
}

// goldenTexts returns the fixed texts the sentence golden file records:
// the tricky texts, a sentence for every cue phrase and the lines of
// testdata/extract/texts.txt (sentences of this repository's documents
// that bear facts), each also upper-cased.
func goldenTexts(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "extract", "texts.txt"))
	require.NoError(t, err)
	texts := append([]string(nil), trickyTexts...)
	for _, c := range cueList {
		texts = append(texts, "The Alpha gene "+c.phrase+" the beta protein of cells.")
	}
	for _, l := range strings.Split(string(src), "\n") {
		if l != "" {
			texts = append(texts, l)
		}
	}
	for _, s := range texts[:len(texts):len(texts)] {
		texts = append(texts, strings.ToUpper(s))
	}
	return texts
}

// goldenSources parses the fixed Markdown of testdata/extract: context
// units with symbolic facts, and sections whose summaries repeat the start
// of their first leaf.
func goldenSources(t *testing.T) []*kus.Document {
	return kvtest.GoldenDocs(t, filepath.Join("testdata", "extract"))
}

// factLines renders facts for a golden file, one line a fact with every
// field.
func factLines(fs []Fact) []string {
	var lines []string
	for _, f := range fs {
		lines = append(lines, fmt.Sprintf("  %q %s %q conf=%g keys=%q/%q ku=%q source=%q extracted=%t",
			f.Subject, f.Relation, f.Object, f.Confidence, f.SubjectKey, f.ObjectKey, f.KU, f.Source, f.Extracted))
	}
	return lines
}

// requireGolden compares lines with testdata/extract/<name>, or rewrites
// the file with -update.
func requireGolden(t *testing.T, name string, lines []string) {
	t.Helper()
	kvtest.RequireGolden(t, filepath.Join("testdata", "extract", name), lines, *update)
}

// TestSentencesGolden pins the facts extracted from every golden text:
// the extractor's optimisations (vocabulary codes, the word scanner, the
// memo) must not change a single fact.
func TestSentencesGolden(t *testing.T) {
	e := &Extractor{}
	var lines []string
	facts := 0
	for _, s := range goldenTexts(t) {
		fs := e.Sentences(s)
		facts += len(fs)
		lines = append(lines, fmt.Sprintf("text %q", s))
		lines = append(lines, factLines(fs)...)
	}
	t.Logf("%d facts", facts)
	require.Greater(t, facts, 100, "the texts exercise extraction")
	requireGolden(t, "sentences.golden", lines)
}

// TestSourceFactsGolden pins the facts of whole sources: symbolic facts
// first where valid, summaries before leaves, duplicates dropped.
func TestSourceFactsGolden(t *testing.T) {
	x := New(DefaultParams())
	var lines []string
	facts, symbolic := 0, 0
	for _, doc := range goldenSources(t) {
		p := doc.Source.SourceID
		fs := x.SourceFacts(p, doc.Units)
		requireNoDuplicateKeys(t, fs)
		for _, f := range fs {
			facts++
			if !f.Extracted {
				symbolic++
			}
		}
		lines = append(lines, "source "+p)
		lines = append(lines, factLines(fs)...)
	}
	t.Logf("%d facts (%d symbolic)", facts, symbolic)
	require.Greater(t, facts, 20)
	require.Positive(t, symbolic)
	requireGolden(t, "sources.golden", lines)
}

func requireNoDuplicateKeys(t *testing.T, fs []Fact) {
	t.Helper()
	seen := map[[3]string]bool{}
	for i := range fs {
		k := factKey(&fs[i])
		require.False(t, seen[k], "duplicate fact %v", k)
		seen[k] = true
	}
}

// requireWellFormed checks what every extracted fact of s satisfies: a
// relation, two different non-empty keys, and subject and object made of
// words of s joined by single spaces.
func requireWellFormed(t *testing.T, s string, fs []Fact) {
	t.Helper()
	for _, f := range fs {
		require.NotEqual(t, RelNone, f.Relation, "%q", s)
		require.NotEmpty(t, f.SubjectKey, "%q", s)
		require.NotEmpty(t, f.ObjectKey, "%q", s)
		require.NotEqual(t, f.SubjectKey, f.ObjectKey, "%q", s)
		require.True(t, f.Confidence > 0 && f.Confidence <= 1, "%q", s)
		for _, phrase := range []string{f.Subject, f.Object} {
			for _, w := range strings.Split(phrase, " ") {
				require.NotEmpty(t, w, "%q in %q", phrase, s)
				require.Contains(t, s, w, "%q", phrase)
			}
		}
	}
}

// FuzzSentences checks on any two texts what the golden files cannot: the
// extractor never panics, its facts are well formed, sentences are
// independent (the facts of a + "\n" + b are those of a, then those of b),
// and the memo that reuses a seen text's sentences gives the facts of
// extracting afresh (the seeds run with go test).
func FuzzSentences(f *testing.F) {
	for i, s := range trickyTexts {
		f.Add(s, trickyTexts[(i+1)%len(trickyTexts)])
	}
	f.Add(trickyTexts[len(trickyTexts)-1], trickyTexts[len(trickyTexts)-1][:70]+" uses the memo.")
	e := &Extractor{}
	f.Fuzz(func(t *testing.T, a, b string) {
		fa, fb := e.Sentences(a), e.Sentences(b)
		requireWellFormed(t, a, fa)
		require.Equal(t, append(fa[:len(fa):len(fa)], fb...), e.Sentences(a+"\n"+b), "%q + %q", a, b)
		for _, s := range []string{b, a[:min(len(a), len(b))] + b, a + b} {
			var m textMemo
			m.facts(e, a)
			require.Equal(t, e.Sentences(s), m.facts(e, s), "%q after %q", s, a)
		}
	})
}

func TestVocabCode(t *testing.T) {
	require.Greater(t, len(vocabWords), 100)
	for c, w := range vocabWords[1:] {
		code := uint16(c + 1)
		require.Equal(t, code, vocabCode(w), w)
		require.Equal(t, code, vocabCode(strings.ToUpper(w)), w)
		require.Equal(t, code, vocabCode(strings.ToUpper(w[:1])+w[1:]), w)
		require.Zero(t, vocabCode(w+"x"), w)
		require.Zero(t, vocabCode("x"+w), w)
	}
	require.Equal(t, vocab["kind"], vocabCode("\u212Aind"), "KELVIN SIGN lowercases to k")
	require.Zero(t, vocabCode(""))
	for _, s := range repoTexts(t) {
		for _, w := range splitWords(s) {
			if !w.punct {
				require.Equal(t, vocab[strings.ToLower(w.raw)], vocabCode(w.raw), w.raw)
			}
		}
	}
}

// TestSourceFactsDedupLongUnits covers units with many facts, repeated
// within a text, across a unit's texts and across units.
func TestSourceFactsDedupLongUnits(t *testing.T) {
	x := New(DefaultParams())
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "Gene%d causes disease%d. ", i%23, i%23)
	}
	body := b.String()
	units := []*kus.KU{
		{ID: "s::leaf1", Level: kus.LevelLeaf, Claim: "Gene3 causes disease3.", TextBody: body},
		{ID: "s::leaf2", Level: kus.LevelLeaf, Procedure: "Gene30 causes disease30. Gene1 causes disease1.", TextBody: body + "Gene99 requires water."},
		{ID: "s::sum", Level: kus.LevelSummary, TextBody: "Gene5 causes disease5. Gene77 causes disease77."},
	}
	got := x.SourceFacts("s", units)
	require.Len(t, got, 23+1+1+1)
	requireNoDuplicateKeys(t, got)
	lines := append([]string{"source s"}, factLines(got)...)
	for _, u := range units {
		// A unit alone: its facts without the memo are those SourceFacts
		// finds with it.
		fs := x.ex.Facts(u)
		require.Equal(t, x.SourceFacts("", []*kus.KU{u}), fs, u.ID)
		lines = append(lines, "unit "+u.ID)
		lines = append(lines, factLines(fs)...)
	}
	requireGolden(t, "dedup.golden", lines)
}

// TestMemoReusesWholeSentencesOnly cuts texts at every byte and checks
// that the facts of a cut text, extracted after the whole text (the memo
// reusing the sentences they share), are those of the cut text alone.
func TestMemoReusesWholeSentencesOnly(t *testing.T) {
	e := &Extractor{}
	texts := []string{
		"IL-6 causes inflammation. Aspirin inhibits COX-2 at 1.5 mg. Smoking causes cancer; obesity is associated with diabetes.\nThe drug is caused by the bug! Insulin promotes growth? Done.",
		"Alpha uses beta. Gamma uses delta 1.5 times. Epsilon uses zeta.ü Eta uses theta.é Iota uses kappa. e.g. Lambda uses mu.",
	}
	for _, s := range repoTexts(t) {
		if len(s) > 300 && len(s) < 3000 && len(texts) < 6 && len(e.Sentences(s)) > 2 {
			texts = append(texts, s)
		}
	}
	reused := 0
	for _, whole := range texts {
		for k := 0; k <= len(whole); k++ {
			for _, tail := range []string{"…", "", "5 causes x.", "é uses y", "x"} {
				var m textMemo
				m.facts(e, whole)
				cut := whole[:k] + tail
				got := m.facts(e, cut)
				require.Equal(t, e.Sentences(cut), got, "%q cut at %d + %q", whole, k, tail)
				if len(m.texts) == 2 && m.texts[1].end > m.texts[1].start && k >= headLen {
					reused++
				}
			}
		}
	}
	require.Greater(t, reused, 100)
}

// TestSourceFactsConcurrent extracts sources from several goroutines at
// once (as the ingest's parse workers do): pooled memos are never shared.
func TestSourceFactsConcurrent(t *testing.T) {
	x := New(DefaultParams())
	var docs []*kus.Document
	for i, s := range repoTexts(t) {
		docs = append(docs, &kus.Document{Source: kus.SourceInfo{SourceID: fmt.Sprint(i)}, Units: []*kus.KU{
			{ID: "leaf", Level: kus.LevelLeaf, TextBody: s},
			{ID: "sum", Level: kus.LevelSummary, TextBody: s[:len(s)/2] + "…"},
		}})
	}
	kvtest.RequireSameConcurrently(t, len(docs), func(i int) []Fact {
		return x.SourceFacts(docs[i].Source.SourceID, docs[i].Units)
	})
}

// splitWords splits text into words (letters, digits and inner - _ ' .)
// and punctuation marks; newlines count as sentence ends.
func splitWords(s string) []word {
	var out []word
	for i := 0; i < len(s); {
		w, next, ok := nextWord(s, i)
		if ok {
			out = append(out, w)
		}
		i = next
	}
	return out
}
