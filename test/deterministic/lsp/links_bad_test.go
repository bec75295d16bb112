package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/lsp"
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
	defer func() {
		if e.t.Failed() {
			e.t.Logf("last diagnostics of %s: %s", u, got)
		}
	}()
	e.waitFor("diagnostics "+want+" for "+u, 15*time.Second, func([]note) bool {
		c, ok := e.diagnosticsFor(u)
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
	e.notify("textDocument/didClose", docParams(guide))
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

// applyEdits applies a workspace edit's one-line text edits (UTF-16
// columns) to the files on disk.
func (e *editor) applyEdits(we workspaceEdit) {
	e.t.Helper()
	for u, list := range we.Changes {
		rel := strings.TrimPrefix(u, e.uri("")+"/")
		p := filepath.Join(e.root, filepath.FromSlash(rel))
		b, err := os.ReadFile(p)
		if err != nil {
			e.t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		sort.Slice(list, func(i, j int) bool {
			a, b := list[i].Range.Start, list[j].Range.Start
			return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
		})
		for _, te := range list {
			if te.Range.Start.Line != te.Range.End.Line {
				e.t.Fatalf("multi-line edit %+v", te)
			}
			u16 := utf16.Encode([]rune(lines[te.Range.Start.Line]))
			line := string(utf16.Decode(u16[:te.Range.Start.Character])) + te.NewText + string(utf16.Decode(u16[te.Range.End.Character:]))
			lines[te.Range.Start.Line] = line
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
}

// TestRenameWhileTheFirstIngestRuns renames a heading linked from other
// pages while the first ingest is held: the rename is answered from the
// link index at once, the edits written to disk are ingested after the
// held ingest, and the knowledge base ends with the new heading and none
// of the old.
func TestRenameWhileTheFirstIngestRuns(t *testing.T) {
	root := genArchivers(t)
	testtree.WriteFiles(t, root, map[string]string{
		"howto.md":    "# Howto\n\n## Unpack Everything\n\nUse tar or arc0 to unpack everything.\n",
		"links/a.md":  "# Links A\n\nSee [[howto#Unpack Everything]] and [it](../howto.md#unpack-everything).\n",
		"links/b.md":  "# Links B\n\nSee [[howto#unpack-everything|how to unpack]].\n",
		"links/cr.md": "\uFEFF# Links CR\r\n\r\nSee [unpack](../howto.md#unpack-everything).\r\n",
	})
	hook, held, release := holdFirstIngest(t)
	e := start(t, "", editorOptions{root: root, noWait: true, firstIngestHook: hook, initOpts: map[string]any{"askWaitMs": 0}})
	defer release() // before the server's shutdown on a failure
	select {
	case <-held:
	case <-time.After(20 * time.Second):
		t.Fatal("the first ingest never committed a source")
	}
	p := e.pos("howto.md", "Unpack Everything", 2)
	p["newName"] = "Unpack It All"
	var we workspaceEdit
	if err := e.call("textDocument/rename", p, &we); err != nil {
		t.Fatalf("rename during the first ingest: %v", err)
	}
	want := "howto.md@2:3=Unpack It All links/a.md@2:12=Unpack It All links/a.md@2:53=unpack-it-all " +
		"links/b.md@2:12=unpack-it-all links/cr.md@2:25=unpack-it-all"
	if got := e.edits(we); got != want {
		t.Fatalf("rename edits during the ingest:\n got %s\nwant %s", got, want)
	}
	e.applyEdits(we)
	var changes []any
	for u := range we.Changes {
		changes = append(changes, map[string]any{"uri": u, "type": 2})
	}
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
	// Still held: the link index already has the new heading.
	var locs []location
	q := e.pos("howto.md", "Unpack It All", 2)
	q["context"] = map[string]any{"includeDeclaration": false}
	e.mustCall("textDocument/references", q, &locs)
	if len(locs) != 4 {
		t.Errorf("references to the renamed heading during the ingest: %v", e.refs(locs))
	}
	release()
	e.waitIngest("howto.md", 30*time.Second)
	// The CRLF file's line end and BOM survive the edit.
	if b, _ := os.ReadFile(filepath.Join(root, "links", "cr.md")); string(b) != "\uFEFF# Links CR\r\n\r\nSee [unpack](../howto.md#unpack-it-all).\r\n" {
		t.Errorf("cr.md after the rename: %q", b)
	}
	symbols := func(query string) string {
		var out []struct {
			Name     string `json:"name"`
			Location location
		}
		e.mustCall("workspace/symbol", map[string]any{"query": query}, &out)
		var names []string
		for _, s := range out {
			names = append(names, s.Name)
		}
		return strings.Join(names, "|")
	}
	e.waitFor("the new heading in the knowledge base", 20*time.Second, func([]note) bool {
		return strings.Contains(symbols("Unpack It All"), "Unpack It All")
	})
	if got := symbols("Unpack Everything"); strings.Contains(got, "Unpack Everything") {
		t.Errorf("the old heading is still in the knowledge base: %s", got)
	}
	// A full ingest finds the knowledge base matching the files.
	var rep struct {
		Files     int   `json:"files"`
		Unchanged int   `json:"unchanged"`
		Removed   int   `json:"removed"`
		Errors    []any `json:"errors"`
	}
	if err := e.command("mrpvm.ingest", nil, &rep); err != nil || rep.Files != 0 || rep.Removed != 0 || rep.Unchanged < 45 || len(rep.Errors) != 0 {
		t.Errorf("a full ingest after the rename: %+v %v", rep, err)
	}
}

// TestLinksNeverLeaveTheWorkspace: links that climb out of the workspace
// with "..", wiki links naming outside files and a symlink to an outside
// file are never followed: completion, references, definition,
// documentLink, hover, rename and willRenameFiles name nothing outside
// and read nothing there.
func TestLinksNeverLeaveTheWorkspace(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	for p, text := range map[string]string{
		filepath.Join(base, "outside", "secret.md"): "# Secret Heading\n\nOUTSIDETEXT\n",
		filepath.Join(base, "secret.md"):            "# Top Secret\n\nOUTSIDETEXT\n",
		filepath.Join(root, "notes.md"): "# Notes\n\n## Local\n\n" +
			"[up](../outside/secret.md#secret-heading) [top](../secret.md) [[../outside/secret#Secret Heading]] [[../secret]]\n" +
			"[key](key.md#secret-heading) [local](#local) [[notes#Local]]\n",
		filepath.Join(root, ".git", "HEAD"): "ref: refs/heads/main\n",
	} {
		testtree.WriteFile(t, p, text)
	}
	if err := os.Symlink(filepath.Join(base, "outside", "secret.md"), filepath.Join(root, "key.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	e := start(t, "", editorOptions{root: root})
	outside := lspURIPrefix(base) + "/outside"
	leaks := func(what string, v any) {
		t.Helper()
		b, _ := json.Marshal(v)
		s := string(b)
		for _, bad := range []string{"OUTSIDETEXT", "Secret Heading", "Top Secret", outside, lspURIPrefix(base) + "/secret.md", "key.md"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s names %q: %s", what, bad, s)
			}
		}
	}
	u := e.openDoc("notes.md")
	e.waitCodes(u, "link_outside_workspace@4,link_outside_workspace@4,link_outside_workspace@4,link_outside_workspace@4,link_outside_workspace@5")

	// Completion after an escaping target's '#', and of file names.
	scratch := e.uri("scratch.md")
	text := "[a](../outside/secret.md#\n[[../outside/secret#\n[[sec\n[b](../\n"
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": scratch, "languageId": "markdown", "version": 1, "text": text}})
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		var list json.RawMessage
		e.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": scratch},
			"position": map[string]any{"line": i, "character": len(line)}}, &list)
		leaks("completion of "+line, list)
	}
	// Definition, hover and references on each link.
	b, _ := os.ReadFile(filepath.Join(root, "notes.md"))
	for _, needle := range []string{"../outside/secret.md", "../secret.md", "[[../outside", "[[../secret", "key.md"} {
		line, char := findIn(t, string(b), needle)
		at := map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": line, "character": char + 2}}
		var def json.RawMessage
		e.mustCall("textDocument/definition", at, &def)
		leaks("definition of "+needle, def)
		leaks("hover of "+needle, e.hover("notes.md", needle, 2))
		at["context"] = map[string]any{"includeDeclaration": true}
		var refs json.RawMessage
		e.mustCall("textDocument/references", at, &refs)
		leaks("references of "+needle, refs)
		// A rename from an escaping anchor is refused.
		at["newName"] = "Stolen"
		if err := e.call("textDocument/rename", at, nil); err == nil {
			t.Errorf("rename from %s was not refused", needle)
		}
	}
	// No "Create" fix for a file outside.
	var acts []struct {
		Title string `json:"title"`
	}
	e.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": lspRange{lspPos{4, 0}, lspPos{4, 120}}, "context": map[string]any{"diagnostics": []any{}}}, &acts)
	for _, a := range acts {
		if strings.HasPrefix(a.Title, "Create") {
			t.Errorf("offered %q for a link out of the workspace", a.Title)
		}
	}
	var dl json.RawMessage
	e.mustCall("textDocument/documentLink", docParams(u), &dl)
	leaks("documentLink", dl)
	if !strings.Contains(string(dl), "notes.md#L3") {
		t.Errorf("the local links lost their targets: %s", dl)
	}
	// Renaming a local heading edits workspace files only.
	if got := e.rename("notes.md", "Local", 1, "Nearby"); got != "notes.md@2:3=Nearby notes.md@5:38=nearby notes.md@5:53=Nearby" {
		t.Errorf("local rename: %s", got)
	}
	// Moving a file out of the workspace, or one in from outside, gets no
	// edits; the secret is never offered.
	for _, mv := range [][2]string{
		{e.uri("notes.md"), lspURIPrefix(base) + "/outside/notes.md"},
		{lspURIPrefix(base) + "/outside/secret.md", e.uri("secret.md")},
		{e.uri("key.md"), e.uri("key2.md")},
	} {
		var out json.RawMessage
		e.mustCall("workspace/willRenameFiles", map[string]any{"files": []any{map[string]any{"oldUri": mv[0], "newUri": mv[1]}}}, &out)
		if string(out) != "null" {
			t.Errorf("willRenameFiles %s -> %s: %s", mv[0], mv[1], out)
		}
	}
}

// lspURIPrefix is the file: URI of a folder.
func lspURIPrefix(dir string) string { return lsp.PathToURI(dir) }

// TestHugeDocumentLinkFeatures opens a 20 MB Markdown file full of headings
// and links: it is flagged as too large to check, every link feature on it
// answers (empty, or a refusal that says why) without indexing it, and the
// rest of the workspace keeps working.
func TestHugeDocumentLinkFeatures(t *testing.T) {
	root := unpack(t, "links.txtar")
	chunk := "## Part\n\nSee [[guide#Install Steps]] and [g](guide.md#usage) and [[ghost]].\n\n"
	huge := "# Huge\n\n" + strings.Repeat(chunk, 20<<20/len(chunk))
	if err := os.WriteFile(filepath.Join(root, "huge.md"), []byte(huge), 0o644); err != nil {
		t.Fatal(err)
	}
	e := start(t, "", editorOptions{root: root})
	u := e.openDoc("huge.md")
	e.waitCodes(u, "doc_too_large@0")
	doc := map[string]any{"uri": u}
	at := func(line, char int) map[string]any {
		return map[string]any{"textDocument": doc, "position": map[string]any{"line": line, "character": char}}
	}
	var raw json.RawMessage
	for _, c := range []struct {
		method string
		params map[string]any
	}{
		{"textDocument/completion", at(4, 6)},
		{"textDocument/documentLink", map[string]any{"textDocument": doc}},
		{"textDocument/foldingRange", map[string]any{"textDocument": doc}},
		{"textDocument/codeLens", map[string]any{"textDocument": doc}},
		{"textDocument/definition", at(4, 8)},
		{"textDocument/hover", at(4, 8)},
		{"textDocument/codeAction", map[string]any{"textDocument": doc, "range": lspRange{lspPos{4, 30}, lspPos{4, 30}}, "context": map[string]any{"diagnostics": []any{}}}},
	} {
		if err := e.call(c.method, c.params, &raw); err != nil {
			t.Errorf("%s on the 20 MB document: %v", c.method, err)
		}
		if s := string(raw); c.method != "textDocument/completion" && c.method != "textDocument/hover" && strings.Count(s, "guide") > 2 {
			t.Errorf("%s indexed the 20 MB document: %.300s", c.method, s)
		}
	}
	// Completion of links to the other files still works in it.
	e.mustCall("textDocument/completion", at(4, 6), &raw)
	if !strings.Contains(string(raw), "The Guide") {
		t.Errorf("completion in the 20 MB document: %.300s", raw)
	}
	refs := at(2, 4)
	refs["context"] = map[string]any{"includeDeclaration": true}
	if err := e.call("textDocument/references", refs, &raw); err != nil || string(raw) != "[]" {
		t.Errorf("references in the 20 MB document: %.300s %v", raw, err)
	}
	ren := at(2, 4)
	ren["newName"] = "Piece"
	if err := e.call("textDocument/rename", ren, &raw); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("rename in the 20 MB document: %v", err)
	}
	if err := e.call("textDocument/prepareRename", at(2, 4), &raw); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("prepareRename in the 20 MB document: %v", err)
	}
	// The others are not affected: its links are not counted, the heading
	// it links to still renames in the other files.
	var locs []location
	p := e.pos("guide.md", "Install Steps", 2)
	p["context"] = map[string]any{"includeDeclaration": false}
	e.mustCall("textDocument/references", p, &locs)
	if got := strings.Join(e.refs(locs), " "); got != "README.md:2:15" {
		t.Errorf("references with the 20 MB document open: %.300s", got)
	}
	if got := e.rename("guide.md", "Install Steps", 2, "Setup"); got != "README.md@2:23=Setup guide.md@2:3=Setup" {
		t.Errorf("rename with the 20 MB document open: %.300s", got)
	}
	var list json.RawMessage
	e.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": e.uri("README.md")},
		"position": map[string]any{"line": 2, "character": 6}}, &list)
	if !strings.Contains(string(list), "The Guide") {
		t.Errorf("completion elsewhere with the 20 MB document open: %.300s", list)
	}
}

// TestLinkCycles: pages that link to each other and to themselves, by
// anchor, wiki name and path, are renamed, moved, followed and counted
// without looping.
func TestLinkCycles(t *testing.T) {
	root := t.TempDir()
	for rel, text := range map[string]string{
		"a.md": "# A\n\n## Loop\n\n[self](a.md#loop) [[a#Loop]] [b](b.md#back) [[b]]\n",
		"b.md": "# B\n\n## Back\n\n[a](a.md#loop) [[a|the a page]] [self](#back) [[b#Back]]\n",
	} {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := start(t, "", editorOptions{root: root})
	p := e.pos("a.md", "Loop", 1)
	p["context"] = map[string]any{"includeDeclaration": false}
	var locs []location
	e.mustCall("textDocument/references", p, &locs)
	if got := strings.Join(e.refs(locs), " "); got != "a.md:4:0 a.md:4:18 b.md:4:0" {
		t.Errorf("references in a cycle: %s", got)
	}
	if got := e.rename("a.md", "Loop", 1, "Round"); got != "a.md@2:3=Round a.md@4:12=round a.md@4:22=Round b.md@4:9=round" {
		t.Errorf("rename in a cycle: %s", got)
	}
	var we workspaceEdit
	e.mustCall("workspace/willRenameFiles", map[string]any{"files": []any{
		map[string]any{"oldUri": e.uri("a.md"), "newUri": e.uri("sub/c.md")},
	}}, &we)
	// The moved page's own links are rewritten from its new folder.
	if got := e.edits(we); got != "a.md@4:20=c a.md@4:33=../b.md a.md@4:7=c.md b.md@4:17=c b.md@4:4=sub/c.md" {
		t.Errorf("willRenameFiles in a cycle: %s", got)
	}
	var lenses []json.RawMessage
	e.mustCall("textDocument/codeLens", docParams(e.uri("b.md")), &lenses)
	if len(lenses) != 1 {
		t.Errorf("code lenses in a cycle: %s", lenses)
	}
	if h := e.hover("a.md", "[[b]]", 3); !strings.Contains(h, "B") {
		t.Errorf("hover on a cyclic wiki link: %q", h)
	}
}
