package text

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAvoided: a clause naming an action the request avoids, whoever does
// it, is set apart from what it seeks, to the end of the clause; a clause
// naming a thing, a bare "not" and a flag spelled with "without" are not.
func TestAvoided(t *testing.T) {
	for _, tc := range []struct{ in, sought, avoided string }{
		{"clear a cache folder without restarting the daemon", "clear a cache folder", "restarting the daemon"},
		{"rename a branch without first pushing it, then share it", "rename a branch , then share it", "first pushing it"},
		{"merge two lists instead of sorting them so that order stays", "merge two lists so that order stays", "sorting them"},
		{"set a quota without touching its owner or group?", "set a quota ?", "touching its owner or group"},
		{"Rather than printing it, save the report", ", save the report", "printing it"},
		{"install the package without it asking for confirmation", "install the package", "it asking for confirmation"},
		{"run the backup without using sudo", "run the backup", "using sudo"},
		{"unmarshal them without viper treating every dot as nesting", "unmarshal them", "viper treating every dot as nesting"},
		{"build a router without the default middleware", "build a router without the default middleware", ""},
		{"build a router without the logging middleware", "build a router without the logging middleware", ""},
		{"serve static files without directory listing", "serve static files without directory listing", ""},
		{"use a local queue instead of a remote one", "use a local queue instead of a remote one", ""},
		{"why are labels not case sensitive", "why are labels not case sensitive", ""},
		{"configure --without-docs builds", "configure --without-docs builds", ""},
		{"count lines without anything else", "count lines without anything else", ""},
	} {
		sought, avoided := Avoided(tc.in)
		assert.Equal(t, tc.sought, sought, tc.in)
		assert.Equal(t, tc.avoided, avoided, tc.in)
	}
}
