package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestObjectThatPointsBack checks that a "that" standing for a thing
// said before (closing the question, or followed by a preposition) makes
// a question a follow-up, while a relative or conjunctive "that" does
// not.
func TestObjectThatPointsBack(t *testing.T) {
	pointsBackTo := map[string]bool{
		"How do I save that to a file instead of the screen?": true,
		"How do I undo that?":                             true,
		"Can I send that over ssh?":                       true,
		"Is there a tool that counts words?":              false,
		"How do I check that the file exists?":            false,
		"How do I make sure that my script runs at boot?": false,
	}
	for q, want := range pointsBackTo {
		got, _ := followUp(q)
		assert.Equalf(t, want, got, "followUp(%q)", q)
	}
}
