package valsymbolic

import (
	"slices"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// leadTableAnswer opens a table with a lead-in citation and goes on with
// a sentence of another source.
const leadTableAnswer = leadTableBody +
	"Sources:\n[1] Asking questions — README.md:278\n[2] How the knowledge base is stored — README.md:990\n"

// leadTableBody is leadTableAnswer without its sources.
const leadTableBody = "Bad input gets a defined status, exit code and trace code [1]:\n\n" +
	"| input | status | code |\n| --- | --- | --- |\n| more than 16 KiB | as searched | `QUESTION_TRUNCATED` |\n\n" +
	"A damaged or truncated file is reported with the code `kb_corrupt`. [2]\n\n"

// TestALeadInCitationKeepsItsTable: the rows a lead-in citation opens are
// what the answer says from that source, not from the source of the
// sentence after the table.
func TestALeadInCitationKeepsItsTable(t *testing.T) {
	asking := &kus.KU{ID: "README.md::5::1", Title: "Asking questions", SourceID: "README.md"}
	stored := &kus.KU{ID: "README.md::30::0", Title: "How the knowledge base is stored", SourceID: "README.md"}
	units := unitTexts(statements(leadTableBody), map[int]*kus.KU{1: asking, 2: stored})
	row := "| more than 16 KiB | as searched | `QUESTION_TRUNCATED` |"
	if !slices.Contains(units[1], row) {
		t.Errorf("source 1 should say its table's row: %q", units[1])
	}
	if slices.Contains(units[2], row) {
		t.Errorf("source 2 should not say the row of source 1's table: %q", units[2])
	}
}

// TestATableRowDefinesTheCodeItHolds: "What does the QUESTION_TRUNCATED
// code mean?" is answered by the table row that holds the code, which
// the answer opens with a lead-in citation and follows with a sentence of
// another source.
func TestATableRowDefinesTheCodeItHolds(t *testing.T) {
	asking := plugintest.Text("README.md::5::1", "Asking questions", "README.md", 278,
		"Bad input gets a defined status, exit code and trace code:\n\n| input | status | code |\n| --- | --- | --- |\n"+
			"| more than 16 KiB | as searched | `QUESTION_TRUNCATED` |\n| an empty question | invalid | `EMPTY_QUESTION` |\n")
	stored := plugintest.Text("README.md::30::0", "How the knowledge base is stored", "README.md", 990,
		"A damaged or truncated file is reported with the code `kb_corrupt`.\n")
	df := freqs(map[string]int{"input status code file answer trace": 300, "question_truncated": 2})
	c := corpus{n: 1000, df: df}
	in := plugin.ValidateInput{
		Payload:  plugin.Payload{Prompt: "What does the QUESTION_TRUNCATED code in a trace mean?"},
		Intents:  []plugin.Intent{{ID: "i1", Act: "define", Target: "the QUESTION_TRUNCATED code in a trace"}},
		Answer:   leadTableAnswer,
		Evidence: []plugin.ScoredKU{{KU: asking, Score: 1, Level: kus.LevelLeaf}, {KU: stored, Score: 0.8, Level: kus.LevelLeaf}},
	}
	expect(t, validate(t, c, &in), plugin.StatusAccepted, "")
}
