package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestAnAmountIsAnsweredByWhatNamesTheThingMeasured: "how many files my
// shell session may have open" is not answered by an example that opens
// a shell session and shares the question's other words, but never says
// "files"; an example that shows the limit of open files answers it.
func TestAnAmountIsAnsweredByWhatNamesTheThingMeasured(t *testing.T) {
	other := tldrExample{"cypher-shell", "common/cypher-shell.md", "Open an interactive shell session with a Neo4j database.", "Show the open shell session limits and settings at once", "cypher-shell {{[-a|--address]}} {{neo4j://host:port}}"}
	right := tldrExample{"ulimit", "common/ulimit.md", "Get and set user limits of a shell session.", "Show the limit of files the shell session may have open at once", "ulimit -n"}
	df := map[string]int{"show open limit settings": 300, "shell session once": 100, "files": 400, "interactive database": 60}
	c := sourced{corpus: corpus{n: 1000, df: freqs(df)}, src: map[string]string{other.id: other.page(), right.id: right.page()}}
	cases := []answerCase{
		{"an example that never names the files", other.answer(), descriptionUnit(t, other.id, other.page()), plugin.StatusRejected},
		{"an example that names the files", right.answer(), descriptionUnit(t, right.id, right.page()), plugin.StatusAccepted},
	}
	intent := plugin.Intent{ID: "i1", Act: "implement", Target: "see how many files my shell session may have open at once"}
	expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{intent}}, kus.LevelLeaf, "asks an amount of", cases)
}

func TestMeasuredNoun(t *testing.T) {
	for target, want := range map[string]string{
		"How much space does a folder take up in total": "space",
		"how many files my shell session may have open": "file",
		"How much slower per query is kb-balanced":      "",
		"Is there a limit on how many it takes":         "",
		"print the lines of a file":                     "",
	} {
		if got := measuredNoun(target); got != want {
			t.Errorf("measuredNoun(%q) = %q, want %q", target, got, want)
		}
	}
}
