package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestAStatedSceneAsksNothing: a part of a question that only states the
// user's situation ("An XML file is all on one line", split off "How do I
// re-indent it?") is not answered by a source that shares its words; the
// same words asked as a question, or a thing asked about, still are.
func TestAStatedSceneAsksNothing(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"xml file line single": 20})}
	xml := plugintest.Claim("x::1", "xmltool", "common/xmltool.md", 3, "Read an XML file that is all on one single line.")
	expectInputs(t, c, "states what the user has", []inputCase{
		{"a stated scene", askCiting(xml, "An XML file is all on one single line", "verify", "An XML file is all on one single line"), plugin.StatusRejected},
		{"a scene ended with a semicolon", askCiting(xml, "An XML file is all on one single line;", "explain", "An XML file is all on one single line;"), plugin.StatusRejected},
		{"a question", askCiting(xml, "Is an XML file all on one single line?", "verify", "Is an XML file all on one single line"), plugin.StatusAccepted},
		{"a thing asked about", askCiting(xml, "the XML file on one single line", "define", "the XML file on one single line"), plugin.StatusAccepted},
	})
}

// TestSentenceKinds: a clause has a finite verb; a noun phrase has none.
// A sentence that tells what happened is what a "Why?" after it asks
// about; one that states a present state is not.
func TestSentenceKinds(t *testing.T) {
	expectEach(t, "finiteClause", finiteClause, map[string]bool{
		"An XML file is all on one single line": true,
		"A symbolic link points somewhere":      true,
		"the oldest":                            false,
		"the config files":                      false,
	})
	expectEach(t, "tellsEvent", tellsEvent, map[string]bool{
		"My wrapper's command is python3 and it stopped being allowed after an update": true,
		"An XML file is all on one single line":                                        false,
		"A symbolic link points somewhere":                                             false,
	})
}

// TestUnsaidAction: a follow-up's action must be said by the answer, as
// itself or a lexicon relative; light actions are not judged.
func TestUnsaidAction(t *testing.T) {
	said := saidTerms("You can set the logging level on a logger; please check the hook README.\n\n_Searched for: Clear them between checks (logrus)?_\n")
	unsaid := func(task string) string { return unsaidAction(task, said) }
	expectEach(t, "unsaidAction", unsaid, map[string]string{
		"Clear them between checks": "clear",
		"set them between checks":   "",
		"see them between checks":   "",
	})
}
