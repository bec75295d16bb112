package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

// TestADescriptionTiedToACaseExplains: an example's description that ties
// what it says to a case ("has reversed meaning in this case") states a
// condition, as "when" or "if" does, and so answers a "why" question; a
// "case" that is not such a phrase ("upper case") does not.
func TestADescriptionTiedToACaseExplains(t *testing.T) {
	for want, descs := range map[bool][]string{
		true: {
			"Auto-resolve conflicts by favoring the working branch (`theirs` keyword has reversed meaning in this case)",
			"Keep the old file, in which case nothing is written",
			"Print the name of each file, in each case",
		},
		false: {"Convert a file to upper case", "Match names regardless of case"},
	} {
		for _, desc := range descs {
			if explains("- "+desc+":\n\n  `frob --flag`\n", nil, plugin.RunContext{}) != want {
				t.Errorf("explains says %v of the example described %q", !want, desc)
			}
		}
	}
}
