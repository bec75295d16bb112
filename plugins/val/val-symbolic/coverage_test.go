package valsymbolic

import (
	"context"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// corpus is a knowledge base's source frequencies, as plugin.Corpus gives them.
type corpus struct {
	n  int
	df map[string]int
}

func (c corpus) Documents() int           { return c.n }
func (c corpus) DocFreq(t string) int     { return c.df[t] }
func (c corpus) SourceText(string) []byte { return nil }
func freq(words string, n int) map[string]int {
	out := map[string]int{}
	for _, t := range text.Terms(words) {
		out[t] = n
	}
	return out
}

// TestKeyCoverageWeighsRareTerms: an answer that shares only the common
// words of the question is rejected; one that covers its rare words, or a
// misspelling of them, is accepted.
func TestKeyCoverageWeighsRareTerms(t *testing.T) {
	df := freq("file line show print number", 900)
	for k, v := range freq("life game cells", 3) {
		df[k] = v
	}
	for k, v := range freq("static files serve", 20) {
		df[k] = v
	}
	c := corpus{n: 1000, df: df}
	life := plugin.ScoredKU{KU: &kus.KU{ID: "l::1", Title: "life", SourceID: "common/life.md", Range: kus.Range{StartLine: 1},
		Claim: "Run Conway's game of life with cells on a grid."}}
	static := plugin.ScoredKU{KU: &kus.KU{ID: "m::1", Title: "Static Files", SourceID: "mux/README.md", Range: kus.Range{StartLine: 3},
		Claim: "Serve static files from a folder with a file server."}}
	cases := []struct {
		name, target, answer string
		ev                   plugin.ScoredKU
		want                 plugin.Status
	}{
		{"rare word missing", "meaning of life", "Run Conway's game of life with cells on a grid. [1]\n\nSources:\n[1] life — common/life.md:1\n", life, plugin.StatusRejected},
		{"rare words covered", "game of life", "Run Conway's game of life with cells on a grid. [1]\n\nSources:\n[1] life — common/life.md:1\n", life, plugin.StatusAccepted},
		{"misspelt words covered", "serv statik files", "Serve static files from a folder with a file server. [1]\n\nSources:\n[1] Static Files — mux/README.md:3\n", static, plugin.StatusAccepted},
	}
	p, err := New(nil, plugin.Env{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := p.(plugin.ValPlugin).Validate(context.Background(), plugin.RunContext{Corpus: c},
				&plugin.ValidateInput{Intents: intent(tc.target), Answer: tc.answer, Evidence: []plugin.ScoredKU{tc.ev}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Fatalf("status %s, want %s (%s)", res.Status, tc.want, res.Reason)
			}
			if tc.want == plugin.StatusRejected && !strings.Contains(res.Reason, "meaning") {
				t.Errorf("the reason should name the uncovered word: %s", res.Reason)
			}
		})
	}
}
