package gssymbolic

import (
	"slices"
	"strings"
	"testing"
)

// guideWith is a README of two sections: "Editor settings", which shares
// the words of the questions below, and "Scopes", which says scoping.
func guideWith(t *testing.T, scoping string) mdSource {
	return parseMD(t, "README.md", "# Guide\n\n## Editor settings\n\nThe editor reads its settings when it starts.\n\n## Scopes\n\n"+scoping+"\n")
}

// TestQuotedQualifiedNameLeads: a passage that writes whole a qualified
// name the question writes (a setting's dotted key, a slashed path, or the
// ".*" of every key under it) leads over one that only shares the name's
// words.
func TestQuotedQualifiedNameLeads(t *testing.T) {
	for question, scoping := range map[string]string{
		"Why does the editor ignore the mrpvm.llm.endpoint setting?":        "Every mrpvm.llm.* key is scoped to the machine.",
		"Why does the editor ignore the endpoint in .vscode/settings.json?": "A .vscode/settings.json file cannot point them elsewhere.",
	} {
		src := guideWith(t, scoping)
		target := strings.TrimSuffix(strings.TrimPrefix(question, "Why does "), "?")
		md := solveMD(t, "explain", question, target, []mdSource{src}, src.leaf(t, "Editor settings"), src.leaf(t, "Scopes"))
		checkMD(t, md[strings.Index(md, "Sources:"):], []string{"[1] Scopes"}, nil)
	}
}

// TestQualifiedNamesHaveThreeParts: a name of three dotted or slashed
// parts or more is qualified; a file or library name of two
// ("plugin.json", "urfave/cli") is not.
func TestQualifiedNamesHaveThreeParts(t *testing.T) {
	named := map[string][]string{
		"set mrpvm.llm.endpoint there":   {"mrpvm.llm.endpoint"},
		"in .vscode/settings.json":       {".vscode/settings.json"},
		"the mrpvm.llm.* settings":       {"mrpvm.llm.*"},
		"edit plugin.json of urfave/cli": nil,
	}
	for text, want := range named {
		if got := dottedNames(text); !slices.Equal(got, want) {
			t.Errorf("dottedNames(%q) = %q, want %q", text, got, want)
		}
	}
}
