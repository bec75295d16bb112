package thinkingdb

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/kb/internal/kvtest"
)

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

func requireSameFacts(t *testing.T, e *Extractor, s string) int {
	t.Helper()
	want := refSentences(e, s)
	got := e.Sentences(s)
	require.Equal(t, want, got, "%.200q", s)
	return len(want)
}

func TestSentencesMatchReference(t *testing.T) {
	e := &Extractor{}
	facts := 0
	texts := append(append([]string(nil), trickyTexts...), repoTexts(t)...)
	for _, s := range texts {
		facts += requireSameFacts(t, e, s)
		facts += requireSameFacts(t, e, strings.ToUpper(s))
	}
	n := len(texts)
	if !testing.Short() {
		if _, err := os.Stat(benchWorkspace()); err == nil {
			docs := parseDir(t, benchWorkspace())
			for _, d := range docs[:min(len(docs), 1500)] {
				for _, s := range unitTexts(d.Units) {
					facts += requireSameFacts(t, e, s)
					n++
				}
			}
		}
	}
	t.Logf("%d texts, %d facts", n, facts)
	require.Greater(t, facts, 100, "the texts exercise extraction")
}

// refSourceFacts is SourceFacts over the reference extractor.
func refSourceFacts(e *Extractor, src string, units []*kus.KU) []Fact {
	var out []Fact
	seen := map[[3]string]bool{}
	add := func(f Fact) {
		k := [3]string{f.SubjectKey, f.Relation.String(), f.ObjectKey}
		if !seen[k] {
			seen[k] = true
			f.Source = src
			out = append(out, f)
		}
	}
	for lvl := 0; lvl <= 2; lvl++ {
		for _, u := range units {
			if levelOrder(u.Level) != lvl {
				continue
			}
			// A valid symbolic fact wins (that path is not optimised).
			sym := *u
			sym.Claim, sym.Procedure, sym.TextBody = "", "", ""
			if fs := e.Facts(&sym); len(fs) > 0 {
				add(fs[0])
				continue
			}
			useen := map[[3]string]bool{}
			for _, s := range []string{u.Claim, u.Procedure, u.TextBody} {
				if s == "" {
					continue
				}
				for _, f := range refSentences(e, s) {
					k := [3]string{f.SubjectKey, f.Relation.String(), f.ObjectKey}
					if useen[k] {
						continue
					}
					useen[k] = true
					f.KU, f.Extracted = u.ID, true
					add(f)
				}
			}
		}
	}
	return out
}

func TestSourceFactsMatchReference(t *testing.T) {
	x := New(DefaultParams())
	root := filepath.Join("..", "..", "..", "..")
	var paths []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Ext(p) == ".md" {
			paths = append(paths, p)
		}
		return nil
	}))
	sort.Strings(paths)
	var docs []*kus.Document
	for _, p := range paths {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		doc, err := kus.Parse(src, kus.SourceInfo{SourceID: filepath.ToSlash(p)})
		if err == nil {
			docs = append(docs, doc)
		}
	}
	if !testing.Short() {
		if _, err := os.Stat(benchWorkspace()); err == nil {
			ws := parseDir(t, benchWorkspace())
			docs = append(docs, ws[:min(len(ws), 1500)]...)
		}
	}
	facts, symbolic := 0, 0
	for _, doc := range docs {
		p := doc.Source.SourceID
		want := refSourceFacts(&x.ex, p, doc.Units)
		require.Equal(t, want, x.SourceFacts(p, doc.Units), p)
		for _, f := range want {
			facts++
			if !f.Extracted {
				symbolic++
			}
		}
	}
	t.Logf("%d sources, %d facts (%d symbolic)", len(docs), facts, symbolic)
	require.Greater(t, facts, 20)
	require.Positive(t, symbolic)
}

// FuzzSentences compares the extractor with the reference on any text
// (the seeds run with go test).
func FuzzSentences(f *testing.F) {
	for _, s := range trickyTexts {
		f.Add(s)
	}
	e := &Extractor{}
	f.Fuzz(func(t *testing.T, s string) {
		require.Equal(t, refSentences(e, s), e.Sentences(s), "%q", s)
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
	want := refSourceFacts(&x.ex, "s", units)
	require.Len(t, want, 23+1+1+1)
	require.Equal(t, want, x.SourceFacts("s", units))
	for _, u := range units {
		var ref []Fact
		for _, f := range refSourceFacts(&x.ex, "", []*kus.KU{u}) {
			f.Source = ""
			ref = append(ref, f)
		}
		require.Equal(t, ref, x.ex.Facts(u), u.ID)
	}
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
				require.Equal(t, refSentences(e, cut), got, "%q cut at %d + %q", whole, k, tail)
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
	want := make([][]Fact, len(docs))
	for i, d := range docs {
		want[i] = x.SourceFacts(d.Source.SourceID, d.Units)
	}
	var wg sync.WaitGroup
	got := make([][][]Fact, 4)
	for g := range got {
		got[g] = make([][]Fact, len(docs))
		wg.Go(func() {
			for i := range docs {
				k := (i + g*(len(docs)/4+1)) % len(docs) // each goroutine starts elsewhere
				got[g][k] = x.SourceFacts(docs[k].Source.SourceID, docs[k].Units)
			}
		})
	}
	wg.Wait()
	for g := range got {
		require.Equal(t, want, got[g], "goroutine %d", g)
	}
}
