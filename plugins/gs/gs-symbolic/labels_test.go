package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestLabelsAreNotStatements: the "Covers: a; b." list of a section's
// sub-headings and a sentence that only repeats a unit's Topic are labels;
// the answer states Claims instead.
func TestLabelsAreNotStatements(t *testing.T) {
	page := &kus.KU{ID: "p::1", Title: "kb-fast", SourceID: "plugin::kb-fast", Range: kus.Range{StartLine: 1}, Level: kus.LevelSummary,
		Claim:    "Fast KB Retriever.",
		TextBody: "Fast KB Retriever. Lexical-first retrieval with a small result budget.\n\nCovers: kb-fast versus kb-balanced and kb-thinkingdb; when to use kb-fast."}
	unit := &kus.KU{ID: "p::2", Title: "kb-fast", Topic: "kb-fast versus kb-thinkingdb", SourceID: "plugin::kb-fast", Range: kus.Range{StartLine: 5},
		Claim: "kb-fast is the cheapest kb-plugin: lexical-first BM25 retrieval that returns at most 3 KUs."}
	other := plugintest.Text("t::1", "kb-thinkingdb", "plugin::kb-thinkingdb", 5, "kb-fast versus kb-thinkingdb. kb-thinkingdb fuses BM25 with proofs over the facts it extracts.")
	cases := []struct {
		name, target string
		act          string
		want, not    []string
	}{
		{"comparison", "difference between kb-fast and kb-thinkingdb", "compare",
			[]string{"cheapest kb-plugin", "fuses BM25"}, []string{"Covers", "versus kb-balanced", "| kb-fast versus kb-thinkingdb |"}},
		{"description", "kb-fast versus kb-thinkingdb", "describe",
			[]string{"cheapest kb-plugin"}, []string{"Covers", "kb-fast versus kb-thinkingdb [", "kb-fast versus kb-thinkingdb. ["}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := solve(t, nil, &plugin.SolveInput{Intents: []plugin.Intent{{ID: "i1", Act: tc.act, Target: tc.target}},
				Evidence: []plugin.ScoredKU{{KU: page, Score: 1}, {KU: unit, Score: 0.9}, {KU: other, Score: 0.8}}})
			checkMD(t, res.ResponseMarkdown, tc.want, tc.not)
		})
	}
}
