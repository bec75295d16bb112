package bm25

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// expandKB indexes one single-unit source per body, named by its key,
// among pages on other subjects, as a knowledge base holds.
func expandKB(t *testing.T, x *Index, docs map[string]string) *kvtest.Mem {
	t.Helper()
	var pages [][2]string
	for _, src := range slices.Sorted(maps.Keys(docs)) {
		pages = append(pages, [2]string{src, docs[src]})
	}
	for i, body := range []string{"Resize an image.", "Play an audio track.", "Cut a video.", "Back up a folder.",
		"Start a web server.", "Query a database.", "Send an email.", "Mount a disk."} {
		pages = append(pages, [2]string{fmt.Sprintf("other%d.md", i), body})
	}
	return pagesKB(t, x, pages)
}

// expandQuery expands the terms of question with the relatives related
// gives, into the vocabulary of the knowledge base kv, requiring no error.
func expandQuery(t *testing.T, x *Index, kv *kvtest.Mem, question string, related func(string) []Relative) (extra []string, weights []float64) {
	t.Helper()
	terms, qtf := x.QueryTerms(question)
	extra, weights, err := x.Expand(kv, terms, qtf, related)
	require.NoError(t, err)
	return extra, weights
}

func relatedOf(m map[string][]Relative) func(string) []Relative {
	return func(t string) []Relative { return m[t] }
}

func sources(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.SourceID)
	}
	return out
}

// A relative the knowledge base does not hold is never searched: the
// expansion is into the index's own vocabulary.
func TestExpandOnlyIntoIndexVocabulary(t *testing.T) {
	x := New(DefaultParams())
	kv := expandKB(t, x, map[string]string{
		"tr.md":   "Translate characters of a file to uppercase letters.",
		"tr2.md":  "Map uppercase letters to lower case letters of a file.",
		"cat.md":  "Print a file.",
		"head.md": "Print the first lines of a file.",
	})
	extra, ws := expandQuery(t, x, kv, "capital letters", relatedOf(map[string][]Relative{"capit": {{Term: "majuscul", Weight: 0.5}, {Term: "uppercas", Weight: 0.5}}}))
	assert.Equal(t, []string{"uppercas"}, extra, "majuscule is not in the knowledge base")
	require.Len(t, ws, 1)
	assert.Greater(t, ws[0], 0.0)
	assert.LessOrEqual(t, ws[0], 0.5, "a relative weighs at most its share")
}

// A page holding the question's own word outranks a page holding only
// its relative; the relative still reaches the second page, which the
// question's words alone cannot.
func TestExpandExactTermOutranksRelative(t *testing.T) {
	x := New(DefaultParams())
	kv := expandKB(t, x, map[string]string{
		"own.md":      "Turn every letter of a file into a capital.",
		"relative.md": "Turn every letter of a file into uppercase.",
		"a.md":        "Uppercase letters in a file name are kept.",
		"b.md":        "Compress a file.",
		"c.md":        "Count the letters of a capital city name.",
	})
	q := "capital letter"
	extra, ws := expandQuery(t, x, kv, q, relatedOf(map[string][]Relative{"capit": {{Term: "uppercas", Weight: 0.5}}}))
	require.Equal(t, []string{"uppercas"}, extra)
	plain, err := x.SearchQuery(kv, Query{Text: q, K: 10})
	require.NoError(t, err)
	r, err := x.SearchQuery(kv, Query{Text: q, K: 10, Extra: extra, ExtraWeights: ws})
	require.NoError(t, err)
	got := sources(r.Hits)
	require.Contains(t, got, "relative.md")
	assert.Less(t, slicesIndex(got, "own.md"), slicesIndex(got, "relative.md"), "the question's own word wins")
	score := func(hits []Hit, src string) float64 {
		for _, h := range hits {
			if h.SourceID == src {
				return h.Score
			}
		}
		return 0
	}
	assert.Greater(t, score(r.Hits, "relative.md"), score(plain.Hits, "relative.md"), "the relative lifts the page that uses it")
	assert.Equal(t, score(r.Hits, "c.md"), score(plain.Hits, "c.md"), "a page without the relative keeps its score")
	assert.Equal(t, plain.Terms, r.Terms, "the reported terms are the question's own")
}

// Of a word's relatives, the one the knowledge base uses together with
// the question's other words is kept; one of another sense, which never
// meets them, is not.
func TestExpandKeepsRelativesOfTheQuestionsSense(t *testing.T) {
	x := New(DefaultParams())
	kv := expandKB(t, x, map[string]string{
		"tr.md":    "Convert lowercase letters to uppercase letters.",
		"case.md":  "Change uppercase letters in file names to lowercase letters.",
		"tax.md":   "Compute the tax on an asset sold this year.",
		"asset.md": "List every asset of the company and its value.",
		"print.md": "Print letters of the alphabet.",
		"files.md": "Copy files between folders.",
	})
	extra, _ := expandQuery(t, x, kv, "capital letters", relatedOf(map[string][]Relative{"capit": {{Term: "asset", Weight: 0.5}, {Term: "uppercas", Weight: 0.5}}}))
	assert.Contains(t, extra, "uppercas", "uppercase meets letters in the knowledge base")
	assert.NotContains(t, extra, "asset", "asset never meets letters")
}

// The plural the stemmer keeps apart ("CPUs") and the hyphenated form of
// a word written as one ("upper-case") are searched as the word itself.
func TestExpandVariantSpellings(t *testing.T) {
	x := New(DefaultParams())
	kv := expandKB(t, x, map[string]string{
		"nproc.md": "Print the number of processing units (normally CPUs) available.",
		"tr.md":    "Translate the contents of a file to upper-case.",
		"ls.md":    "List files.",
	})
	for q, want := range map[string]string{"cpu": "cpus", "uppercase": "upper-case"} {
		extra, ws := expandQuery(t, x, kv, q, nil)
		require.Equal(t, []string{want}, extra, q)
		r, err := x.SearchQuery(kv, Query{Text: q, K: 3, Extra: extra, ExtraWeights: ws})
		require.NoError(t, err)
		require.NotEmpty(t, r.Hits, q)
	}
}

// Question words and light verbs are not expanded, and an empty index
// expands nothing.
func TestExpandLeavesQuestionWordsAlone(t *testing.T) {
	x := New(DefaultParams())
	kv := expandKB(t, x, map[string]string{"a.md": "Create a symbolic link.", "b.md": "Produce a report."})
	extra, _ := expandQuery(t, x, kv, "how do I make a link", relatedOf(map[string][]Relative{"make": {{Term: "creat", Weight: 1}}, "link": {{Term: "produc", Weight: 1}}}))
	assert.NotContains(t, extra, "creat", "make is a light verb")
	extra, _ = expandQuery(t, x, kvtest.New(), "how do I make a link", relatedOf(map[string][]Relative{"link": {{Term: "creat", Weight: 1}}}))
	assert.Empty(t, extra)
}
