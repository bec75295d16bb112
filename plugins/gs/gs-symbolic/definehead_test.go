package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// TestDefiningSentenceNamesTheTermInItsSubject: a sentence defines the
// asked term only when its subject's head is that term; one whose subject
// mentions it inside a clause ("a call that fails because the wrapper ...
// is not repeated") says what something else is.
func TestDefiningSentenceNamesTheTermInItsSubject(t *testing.T) {
	c := cue{define: true, want: symbolic.ContentTerms("Plugin Result block of an external wrapper")}
	for text, want := range map[string]bool{
		"A wrapper plugin is a folder holding a manifest and an executable.":                          true,
		"The result block is what a wrapper prints on standard output.":                               true,
		"A call that fails because the wrapper itself is broken is not repeated in the same request.": false,
		"A file, when the wrapper changes it, is checked again before the next call.":                 false,
	} {
		got := c.bonus(statement{text: text}) > 0
		if got != want {
			t.Errorf("bonus(%q) > 0 = %v, want %v", text, got, want)
		}
	}
}
