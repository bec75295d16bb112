package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// favours tells, for a statement's text, whether c gives it a bonus.
func favours(c cue) func(text string) bool {
	return func(text string) bool { return c.bonus(statement{text: text}) > 0 }
}

// TestDefiningSentenceNamesTheTermInItsSubject: a sentence defines the
// asked term only when its subject's head is that term; one whose subject
// mentions it inside a clause ("a call that fails because the wrapper ...
// is not repeated") says what something else is.
func TestDefiningSentenceNamesTheTermInItsSubject(t *testing.T) {
	c := cue{define: true, want: symbolic.ContentTerms("Plugin Result block of an external wrapper")}
	checkCalls(t, "favours", favours(c), map[string]bool{
		"A wrapper plugin is a folder holding a manifest and an executable.":                          true,
		"The result block is what a wrapper prints on standard output.":                               true,
		"A call that fails because the wrapper itself is broken is not repeated in the same request.": false,
		"A file, when the wrapper changes it, is checked again before the next call.":                 false,
	})
}

// TestOpensWithTheDefinedTerm: a statement that opens with a label is
// about what the label names; one that lists the asked term under another
// label ("content: title, role (...)") does not open with it.
func TestOpensWithTheDefinedTerm(t *testing.T) {
	checkPredicate(t, "opensWith", opensWith, []pairCase{
		{"content: title, role (Comparison, Explanation, Procedure), topic, claim;", "role", false},
		{"role: what kind of knowledge a unit carries.", "role", true},
		{"A KU has a role that says what kind of knowledge it carries.", "role", true},
		{"Doc generation - docgen auto-generates routing documentation.", "docgen", true},
	})
}
