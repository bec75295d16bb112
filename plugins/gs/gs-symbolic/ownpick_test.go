package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestRecommendationQuotesEachItemsOwnAdvice: a choice between two items
// quotes, besides the page that compares them, what each item's own page
// says about when to choose it, though that sentence does not name it.
func TestRecommendationQuotesEachItemsOwnAdvice(t *testing.T) {
	deep := plugintest.Text("d::1", "sd-deep", "plugin::sd-deep", 3, "Deep seed detector (expensive). sd-deep is the thorough seed detector. Best for ambiguous or complex requests.")
	fast := plugintest.Text("f::1", "sd-fast", "plugin::sd-fast", 3, "Fast seed detector. sd-fast is the lightweight seed detector.")
	versus := plugintest.Text("v::1", "sd-fast versus sd-deep", "plugin::sd-fast", 20, "sd-fast is cheaper than sd-deep; prefer sd-deep for requests with several questions.")
	res := solve(t, nil, &plugin.SolveInput{Payload: plugin.Payload{Prompt: "sd-deep or sd-fast: when is the deep one worth it?"},
		Intents:  []plugin.Intent{{ID: "i1", Act: "recommend", Target: "sd-deep or sd-fast: when is the deep one worth it"}},
		Evidence: []plugin.ScoredKU{{KU: deep, Score: 1}, {KU: versus, Score: 0.9}, {KU: fast, Score: 0.8}}})
	checkMD(t, res.ResponseMarkdown, []string{"prefer sd-deep for requests", "Best for ambiguous or complex requests."}, nil)
}
