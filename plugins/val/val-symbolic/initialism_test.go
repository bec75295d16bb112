package valsymbolic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

func TestInitialismsSpellOutRunsOfContentWords(t *testing.T) {
	got := initialisms("Submit a pull request. Then see the command line interface")
	require.True(t, got["pr"])
	require.True(t, got["cli"])
	require.False(t, got["sp"], "a common word breaks the run")
	require.False(t, got["rt"], "punctuation breaks the run")
}

// TestInitialismCoveredBySourceSpellingItOut: a question that names a
// thing by its initialism ("pr") is covered by a cited source that spells
// its words out ("pull request"), even where the answer quotes other lines
// of it; a source that does not spell them out leaves it uncovered.
func TestInitialismCoveredBySourceSpellingItOut(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"run tests formatter": 300, "pr": 3})}
	answer := "Run the tests and the formatter. [1]\n\nSources:\n[1] Contributing — CONTRIBUTING.md:1\n"
	citing := func(body string) plugin.ValidateInput {
		ev := plugin.ScoredKU{KU: plugintest.Text("c::1", "Contributing", "CONTRIBUTING.md", 1, body)}
		return plugin.ValidateInput{Intents: intent("run the formatter before a pr"), Answer: answer, Evidence: []plugin.ScoredKU{ev}}
	}
	expectInputs(t, c, `"pr" is not covered`, []inputCase{
		{"spelt out", citing("Run the tests and the formatter.\n\nSubmit a pull request."), plugin.StatusAccepted},
		{"not spelt out", citing("Run the tests and the formatter.\n\nSend the patch."), plugin.StatusRejected},
	})
}
