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
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"- Auto-resolve conflicts by favoring the working branch (`theirs` keyword has reversed meaning in this case):\n\n  `git rebase -X theirs main`\n", true},
		{"- Keep the old file, in which case nothing is written:\n\n  `frob --keep`\n", true},
		{"- Print the name of each file, in each case:\n\n  `frob --name`\n", true},
		{"- Convert a file to upper case:\n\n  `frob --upper file`\n", false},
		{"- Match names regardless of case:\n\n  `frob -i name`\n", false},
	} {
		if got := explains(tc.body, nil, plugin.RunContext{}); got != tc.want {
			t.Errorf("explains(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}
