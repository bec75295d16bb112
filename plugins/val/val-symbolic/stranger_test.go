package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestAnUnknownNameNeedsTheRestCovered: a question that names something
// the knowledge base holds nowhere ("Obsidian") is about it, and a source
// that shares the question's other words does not answer it; the same
// word written in lower case may be a paraphrase and weighs as before.
func TestAnUnknownNameNeedsTheRestCovered(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"migrate knowledge base sync": 20})}
	ev := plugin.ScoredKU{KU: plugintest.Claim("m::1", "Migrating", "docs/migrate.md", 3, "Migrate the knowledge base and keep it in sync."), Score: 1}
	answer := "Migrate the knowledge base and keep it in sync. [1]\n\nSources:\n[1] Migrating — docs/migrate.md:3\n"
	cases := []struct {
		name, prompt string
		want         plugin.Status
	}{
		{"a name", "How do I migrate my knowledge base from Obsidian Sync?", plugin.StatusRejected},
		{"a lower-case word", "How do I migrate my knowledge base from obsidian sync?", plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{
				Payload: plugin.Payload{Prompt: tc.prompt},
				Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: "migrate my knowledge base from obsidian sync"}},
				Answer:  answer, Evidence: []plugin.ScoredKU{ev}})
			expect(t, res, tc.want, "which no source of the knowledge base holds")
		})
	}
}
