package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSituationContextOfOwnedThing: a statement about the user's own
// thing lends it with what the statement says of it; a statement in the
// present progressive lends its verb with its object, one in the past
// only the object. "" marks a statement that lends nothing.
func TestSituationContextOfOwnedThing(t *testing.T) {
	lent := map[string]string{
		"My web app sits behind a proxy.":               "web app sits behind a proxy",
		"Our build server is slow all the time":         "build server is slow all the time",
		"My it":                                         "",
		"One of my containers seems to be hogging RAM.": "containers seems to be hogging RAM",
		"A few of our hosts lost their DNS.":            "hosts lost their DNS",
		"One of them hangs.":                            "",
		"I'm moving a pile of photos into an album.":    "moving a pile of photos into an album",
		"We are renaming the branches":                  "renaming the branches",
		"I moved a pile of photos into an album.":       "a pile of photos into an album",
		"I was moving a pile of photos":                 "a pile of photos",
	}
	for statement, want := range lent {
		got, ok := situationContext(statement)
		assert.Equalf(t, want != "", ok, "%q lends something", statement)
		assert.Equalf(t, want, got, "what %q lends", statement)
	}
}
