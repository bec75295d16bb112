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

// TestWrittenIdentifierLeads: a passage that writes whole a camel-case
// identifier the question writes ("c.FullPath()") leads over one that
// shares more of the question's other words ("gin", "handler"), which
// every passage about handlers says; a word in capitals is no such
// identifier.
func TestWrittenIdentifierLeads(t *testing.T) {
	src := parseMD(t, "docs/doc.md", "# Gin\n\n## Parameters in path\n\nIn a gin handler, c.Param reads a path parameter.\n\n"+
		"## Route definition\n\nThe route definition that matched is what c.FullPath() returns.\n")
	question := "What does c.FullPath() give me in a gin handler?"
	md := solveMD(t, "define", question, "c.FullPath() give me in a gin handler", []mdSource{src},
		src.leaf(t, "Parameters in path"), src.leaf(t, "Route definition"))
	checkMD(t, md[strings.Index(md, "Sources:"):], []string{"[1] Route definition"}, nil)
	for text, want := range map[string][]string{
		"c.FullPath() and SetDefault": {"FullPath", "SetDefault"},
		"a random UUID over SSH":      nil,
		"a lossless WebP image":       {"WebP"},
	} {
		if got := identNames(text); !slices.Equal(got, want) {
			t.Errorf("identNames(%q) = %q, want %q", text, got, want)
		}
	}
}
