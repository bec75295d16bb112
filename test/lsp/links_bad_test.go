package lsp_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// openDoc opens a workspace file in the editor with its text on disk.
func (e *editor) openDoc(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(rel)))
	if err != nil {
		e.t.Fatal(err)
	}
	u := e.uri(rel)
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": string(b)}})
	return u
}

// waitCodes waits until the last diagnostics published for u, sorted and
// joined with commas, are want.
func (e *editor) waitCodes(u, want string) {
	e.t.Helper()
	got := ""
	e.waitFor("diagnostics "+want+" for "+u, 5*time.Second, func([]note) bool {
		c, ok := e.diagnosticsForLocked(u)
		sort.Strings(c)
		got = strings.Join(c, ",")
		return ok && got == want
	})
}

// TestLinkingFilesDiagnosticsFollowTheTarget: when a heading is edited,
// the file renamed or deleted, the diagnostics of the files linking to it
// are published again, not only the edited file's.
func TestLinkingFilesDiagnosticsFollowTheTarget(t *testing.T) {
	e := startLinks(t)
	readme := e.openDoc("README.md")
	base := "broken_anchor@4,broken_link@4,broken_wiki_link@4,link_outside_workspace@4"
	e.waitCodes(readme, base)

	// Editing guide.md's "## Usage" heading breaks README's [ref]: guide.md#usage.
	guide := e.openDoc("guide.md")
	b, _ := os.ReadFile(filepath.Join(e.root, "guide.md"))
	edited := strings.Replace(string(b), "## Usage", "## Using it", 1)
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": guide, "version": 2},
		"contentChanges": []any{map[string]any{"text": edited}}})
	e.waitCodes(readme, "broken_anchor@4,broken_anchor@6,"+base[len("broken_anchor@4,"):])
	// And back: the diagnostic goes away.
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": guide, "version": 3},
		"contentChanges": []any{map[string]any{"text": string(b)}}})
	e.waitCodes(readme, base)

	// The same for a closed linking file: docs/setup.md (never opened)
	// links to guide.md#install-steps twice.
	setup := e.uri("docs/setup.md")
	renamed := strings.Replace(string(b), "## Install Steps", "## Installing", 1)
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": guide, "version": 4},
		"contentChanges": []any{map[string]any{"text": renamed}}})
	e.waitCodes(setup, "broken_anchor@4,broken_anchor@4")
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": guide, "version": 5},
		"contentChanges": []any{map[string]any{"text": string(b)}}})
	e.waitCodes(setup, "")

	// Deleting guide.md breaks README's links to it.
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": guide}})
	if err := os.Remove(filepath.Join(e.root, "guide.md")); err != nil {
		t.Fatal(err)
	}
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": guide, "type": 3}}})
	e.waitCodes(readme, "broken_anchor@4,broken_link@4,broken_link@6,broken_wiki_link@2,broken_wiki_link@2,broken_wiki_link@4,link_outside_workspace@4")

	// Restoring it under a new name (a file rename) is followed too: the
	// wiki links find guide by name again only when it is back.
	if err := os.WriteFile(filepath.Join(e.root, "guide.md"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": guide, "type": 1}}})
	e.waitCodes(readme, base)
	if err := os.Rename(filepath.Join(e.root, "guide.md"), filepath.Join(e.root, "manual.md")); err != nil {
		t.Fatal(err)
	}
	e.notify("workspace/didRenameFiles", map[string]any{"files": []any{
		map[string]any{"oldUri": guide, "newUri": e.uri("manual.md")},
	}})
	e.waitCodes(readme, "broken_anchor@4,broken_link@4,broken_link@6,broken_wiki_link@2,broken_wiki_link@2,broken_wiki_link@4,link_outside_workspace@4")
}
