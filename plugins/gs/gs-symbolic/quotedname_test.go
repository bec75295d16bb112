package gssymbolic

import (
	"slices"
	"strings"
	"testing"
)

// TestQuotedQualifiedNameLeads: a passage that writes whole a qualified
// name the question writes (a setting's dotted key, a slashed path, or the
// ".*" of every key under it) leads over one that only shares the name's
// words.
func TestQuotedQualifiedNameLeads(t *testing.T) {
	cases := []struct {
		name, question, quoting string
	}{
		{"setting under a wildcard", "Why does the editor ignore the mrpvm.llm.endpoint setting?",
			"Every mrpvm.llm.* key is scoped to the machine."},
		{"slashed path", "Why does the editor ignore the endpoint in .vscode/settings.json?",
			"A .vscode/settings.json file cannot point them elsewhere."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := parseMD(t, "README.md", "# Guide\n\n## Editor settings\n\nThe editor reads its settings when it starts.\n\n"+
				"## Scopes\n\n"+tc.quoting+"\n")
			target := strings.TrimSuffix(strings.TrimPrefix(tc.question, "Why does "), "?")
			md := solveMD(t, "explain", tc.question, target, []mdSource{src}, src.leaf(t, "Editor settings"), src.leaf(t, "Scopes"))
			checkMD(t, md[strings.Index(md, "Sources:"):], []string{"[1] Scopes"}, nil)
		})
	}
}

// TestQualifiedNamesHaveThreeParts: a name of three dotted or slashed
// parts or more is qualified; a file or library name of two
// ("plugin.json", "urfave/cli") is not.
func TestQualifiedNamesHaveThreeParts(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"set mrpvm.llm.endpoint there", []string{"mrpvm.llm.endpoint"}},
		{"in .vscode/settings.json", []string{".vscode/settings.json"}},
		{"the mrpvm.llm.* settings", []string{"mrpvm.llm.*"}},
		{"edit plugin.json of urfave/cli", nil},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			if got := dottedNames(tc.text); !slices.Equal(got, tc.want) {
				t.Fatalf("dottedNames = %q, want %q", got, tc.want)
			}
		})
	}
}
