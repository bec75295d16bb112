package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestTwoWordsTheKnowledgeBaseLacksNameASubjectOfTheirOwn: "encrypt the
// knowledge base file with a password" asks two English words no source
// holds, so a passage about the knowledge base file that shares the rest
// does not answer it; with one such word ("protect"), a paraphrase of
// what the pages may say in their own words, it does. A typing slip whose
// stem is a short word the lexicon knows ("ra" of "raed") is no word
// asked.
func TestTwoWordsTheKnowledgeBaseLacksNameASubjectOfTheirOwn(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"knowledg base": 40, "file store keep updat": 300, "tool": 20})},
		src: map[string]string{"README.md": "# tool\n\n## Storage\n\nThe tool keeps the knowledge base in one file and updates it.\n"}}
	storage := plugintest.Text("r::2", "Storage", "README.md", 3, "The tool keeps the knowledge base in one file and updates it.")
	answer := "The tool keeps the knowledge base in one file and updates it. [1]\n\nSources:\n[1] Storage — README.md:3\n"
	ask := func(prompt, target, searched string) plugin.ValidateInput {
		return plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt}, SearchedFor: searched,
			Intents: []plugin.Intent{{ID: "i1", Act: "explain", Target: target}},
			Answer:  answer, Evidence: []plugin.ScoredKU{{KU: storage, Score: 1, Level: kus.LevelSection}}}
	}
	expectInputs(t, c, "which no source of the knowledge base holds", []inputCase{
		{"two words the knowledge base lacks", ask("Where does the tool keep the knowledge base file encrypted with a password?",
			"where does the tool keep the knowledge base file encrypted with a password", ""), plugin.StatusRejected},
		{"one word the knowledge base lacks", ask("Where does the tool keep the protected knowledge base file?",
			"where does the tool keep the protected knowledge base file", ""), plugin.StatusAccepted},
		{"a typing slip", ask("Where does the tool keep the knowledge base file it raed, with a password?",
			"where does the tool keep the knowledge base file it raed with a password", ""), plugin.StatusAccepted},
	})
}
