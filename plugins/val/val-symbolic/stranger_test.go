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
	asked := func(prompt string) plugin.ValidateInput {
		return plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt},
			Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: "migrate my knowledge base from obsidian sync"}},
			Answer:  answer, Evidence: []plugin.ScoredKU{ev}}
	}
	expectInputs(t, c, "which no source of the knowledge base holds", []inputCase{
		{"a name", asked("How do I migrate my knowledge base from Obsidian Sync?"), plugin.StatusRejected},
		{"a lower-case word", asked("How do I migrate my knowledge base from obsidian sync?"), plugin.StatusAccepted},
	})
}
