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

// setupMD has a BOM, CRLF line ends and a character outside the BMP (two
// UTF-16 code units) before a link, so positions are checked in the units
// LSP counts.
const setupMD = "\uFEFF# Setup 😀\r\n\r\n## First run\r\n\r\n😀 See [[guide#install-steps]] and [steps](../guide.md#install-steps).\r\n"

// startLinks starts a server on links.txtar plus docs/setup.md.
func startLinks(t *testing.T) *editor {
	t.Helper()
	root := unpack(t, "links.txtar")
	if err := os.WriteFile(filepath.Join(root, "docs", "setup.md"), []byte(setupMD), 0o644); err != nil {
		t.Fatal(err)
	}
	return start(t, "", editorOptions{root: root})
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start lspPos `json:"start"`
	End   lspPos `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

// symbolInfo is a workspace/symbol result.
type symbolInfo struct {
	Name     string   `json:"name"`
	Location location `json:"location"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
}

type codeLens struct {
	Range   lspRange `json:"range"`
	Command struct {
		Title string `json:"title"`
	} `json:"command"`
}

type documentLink struct {
	Range  lspRange `json:"range"`
	Target string   `json:"target"`
}

type codeAction struct {
	Title string `json:"title"`
	Edit  *struct {
		DocumentChanges []map[string]any `json:"documentChanges"`
	} `json:"edit"`
	Command *struct {
		Command   string           `json:"command"`
		Arguments []map[string]any `json:"arguments"`
	} `json:"command"`
}

type foldingRange struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
}

func (e *editor) pos(rel, needle string, delta int) map[string]any {
	e.t.Helper()
	line, char := e.find(rel, needle)
	return map[string]any{"textDocument": map[string]any{"uri": e.uri(rel)}, "position": map[string]any{"line": line, "character": char + delta}}
}

// refs lists "file:line:char" of locations, relative to the root, sorted.
func (e *editor) refs(locs []location) []string {
	var out []string
	for _, l := range locs {
		rel := strings.TrimPrefix(l.URI, e.uri("")+"/")
		out = append(out, rel+":"+itoa(l.Range.Start.Line)+":"+itoa(l.Range.Start.Character))
	}
	sort.Strings(out)
	return out
}

// edits renders a workspace edit as sorted "file@line:char=text".
func (e *editor) edits(we workspaceEdit) string {
	var out []string
	for u, list := range we.Changes {
		rel := strings.TrimPrefix(u, e.uri("")+"/")
		for _, te := range list {
			out = append(out, rel+"@"+itoa(te.Range.Start.Line)+":"+itoa(te.Range.Start.Character)+"="+te.NewText)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// rename renames what stands at needle (moved by delta) in rel to newName,
// which must succeed, and returns the edits as edits lists them.
func (e *editor) rename(rel, needle string, delta int, newName string) string {
	e.t.Helper()
	p := e.pos(rel, needle, delta)
	p["newName"] = newName
	var we workspaceEdit
	e.mustCall("textDocument/rename", p, &we)
	return e.edits(we)
}

// references lists, as refs does, the references to what stands at needle
// (moved by delta) in rel, with its declaration when decl.
func (e *editor) references(rel, needle string, delta int, decl bool) []string {
	e.t.Helper()
	p := e.pos(rel, needle, delta)
	p["context"] = map[string]any{"includeDeclaration": decl}
	var locs []location
	e.mustCall("textDocument/references", p, &locs)
	return e.refs(locs)
}

// joinResults calls method, which answers with an array of T, and joins
// what item makes of each element with sep.
func joinResults[T any](e *editor, method string, params any, sep string, item func(T) string) string {
	e.t.Helper()
	var results []T
	e.mustCall(method, params, &results)
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = item(r)
	}
	return strings.Join(out, sep)
}

func TestReferences(t *testing.T) {
	e := startLinks(t)
	// A heading: the links to its anchor (wiki by text and by slug, inline),
	// on the BOM/CRLF/astral line at UTF-16 columns.
	got := e.references("guide.md", "Install Steps", 2, true)
	want := "README.md:2:15 docs/setup.md:4:35 docs/setup.md:4:7 guide.md:2:3"
	if strings.Join(got, " ") != want {
		t.Errorf("heading references:\n got %v\nwant %s", got, want)
	}
	// A file (cursor in its text): every link to it.
	got = e.references("guide.md", "Run the installer", 2, false)
	if len(got) != 5 {
		t.Errorf("file references: %v", got)
	}
	// A wiki-link target: the links to the file it names.
	got = e.references("README.md", "[[guide]]", 3, false)
	if len(got) != 5 {
		t.Errorf("wiki target references: %v", got)
	}
	// A link cycle is fine: cycle.md links to itself twice.
	got = e.references("docs/cycle.md", "[me]", 1, false)
	if strings.Join(got, " ") != "docs/cycle.md:2:0 docs/cycle.md:2:15" {
		t.Errorf("cycle references: %v", got)
	}
	// Code lens on the heading.
	lensAt := func(l codeLens) string { return itoa(l.Range.Start.Line) + ":" + l.Command.Title }
	if s := joinResults(e, "textDocument/codeLens", docParams(e.uri("guide.md")), ",", lensAt); s != "2:3 references,6:1 reference" {
		t.Errorf("code lenses: %s", s)
	}
}

func TestRenameHeading(t *testing.T) {
	e := startLinks(t)
	var prep struct {
		Range       lspRange `json:"range"`
		Placeholder string   `json:"placeholder"`
	}
	e.mustCall("textDocument/prepareRename", e.pos("guide.md", "Install Steps", 1), &prep)
	if prep.Placeholder != "Install Steps" || prep.Range.Start != (lspPos{2, 3}) || prep.Range.End != (lspPos{2, 16}) {
		t.Errorf("prepareRename: %+v", prep)
	}
	if err := e.call("textDocument/prepareRename", e.pos("guide.md", "Run the", 1), &prep); err == nil || !strings.Contains(err.Error(), "rename_unsupported") {
		t.Errorf("prepareRename on prose: %v", err)
	}
	rename := func(name string) (workspaceEdit, error) {
		p := e.pos("guide.md", "Install Steps", 1)
		p["newName"] = name
		var we workspaceEdit
		err := e.call("textDocument/rename", p, &we)
		return we, err
	}
	for _, bad := range []string{"", "  ", "Usage", "usage", "The Guide"} {
		if _, err := rename(bad); err == nil || !strings.Contains(err.Error(), "rename_refused") {
			t.Errorf("rename to %q: %v", bad, err)
		}
	}
	we, err := rename("Setup Steps")
	if err != nil {
		t.Fatal(err)
	}
	want := "README.md@2:23=Setup Steps docs/setup.md@4:15=setup-steps docs/setup.md@4:55=setup-steps guide.md@2:3=Setup Steps"
	if got := e.edits(we); got != want {
		t.Errorf("rename edits:\n got %s\nwant %s", got, want)
	}
	// From a link's anchor: the heading it names.
	if got := e.rename("README.md", "#first-run", 2, "Second run"); got != "README.md@2:73=second-run docs/setup.md@2:3=Second run" {
		t.Errorf("rename from a link: %s", got)
	}
}

func TestWillRenameFiles(t *testing.T) {
	e := startLinks(t)
	var we workspaceEdit
	e.mustCall("workspace/willRenameFiles", map[string]any{"files": []any{
		map[string]any{"oldUri": e.uri("guide.md"), "newUri": e.uri("manual/guide-v2.md")},
	}}, &we)
	want := "README.md@2:17=guide-v2 README.md@2:6=guide-v2 README.md@6:7=manual/guide-v2.md " +
		"docs/setup.md@4:43=../manual/guide-v2.md docs/setup.md@4:9=guide-v2 guide.md@8:25=../README.md"
	if got := e.edits(we); got != want {
		t.Errorf("willRenameFiles:\n got %s\nwant %s", got, want)
	}
	// After the move (didRenameFiles), links resolve to the new path.
	if err := os.MkdirAll(filepath.Join(e.root, "manual"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(e.root, "guide.md"), filepath.Join(e.root, "manual", "guide-v2.md")); err != nil {
		t.Fatal(err)
	}
	e.notify("workspace/didRenameFiles", map[string]any{"files": []any{
		map[string]any{"oldUri": e.uri("guide.md"), "newUri": e.uri("manual/guide-v2.md")},
	}})
	if got := e.references("manual/guide-v2.md", "Usage", 1, false); len(got) != 0 { // README's [ref]: guide.md#usage now points at a missing file
		t.Errorf("references after the move: %v", got)
	}
}

func TestLinkDiagnostics(t *testing.T) {
	e := startLinks(t)
	u := e.uri("README.md")
	b, _ := os.ReadFile(filepath.Join(e.root, "README.md"))
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": string(b)}})
	e.waitFor("diagnostics for README.md", 5*time.Second, func([]note) bool { _, ok := e.diagnosticsFor(u); return ok })
	codes, _ := e.diagnosticsFor(u)
	sort.Strings(codes)
	if got := strings.Join(codes, ","); got != "broken_anchor@4,broken_link@4,broken_wiki_link@4,link_outside_workspace@4" {
		t.Errorf("link diagnostics: %s", got)
	}
	// An edit that fixes the wiki link and breaks an anchor is seen at once.
	text := strings.Replace(string(b), "[[ghost]]", "[[cycle]]", 1)
	text = strings.Replace(text, "#first-run", "#first-walk", 1)
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"text": text}}})
	e.waitFor("new diagnostics", 5*time.Second, func([]note) bool {
		c, _ := e.diagnosticsFor(u)
		return !strings.Contains(strings.Join(c, ","), "broken_wiki_link")
	})
	codes, _ = e.diagnosticsFor(u)
	sort.Strings(codes)
	if got := strings.Join(codes, ","); got != "broken_anchor@2,broken_anchor@4,broken_link@4,link_outside_workspace@4" {
		t.Errorf("after the edit: %s", got)
	}
}

func TestLinkCompletion(t *testing.T) {
	e := startLinks(t)
	u := e.uri("docs/new.md")
	text := "[[gui\n[s](\n[[guide#\n[x](setup.md#\n[[\n"
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": text}})
	type item struct {
		Label    string `json:"label"`
		Detail   string `json:"detail"`
		TextEdit struct {
			Range   lspRange `json:"range"`
			NewText string   `json:"newText"`
		} `json:"textEdit"`
	}
	complete := func(line, char int) map[string]item {
		t.Helper()
		var list struct {
			IsIncomplete bool   `json:"isIncomplete"`
			Items        []item `json:"items"`
		}
		e.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u},
			"position": map[string]any{"line": line, "character": char}}, &list)
		m := map[string]item{}
		for _, it := range list.Items {
			m[it.Label] = it
		}
		return m
	}
	wiki := complete(0, 5)
	if it, ok := wiki["guide"]; !ok || it.Detail != "The Guide" || it.TextEdit.Range.Start != (lspPos{0, 2}) {
		t.Errorf("wiki completion: %+v", wiki)
	}
	if _, ok := wiki["README"]; ok {
		t.Errorf("wiki completion is not filtered by what was typed: %+v", wiki)
	}
	if _, ok := complete(4, 2)["README"]; !ok {
		t.Errorf("[[ alone does not offer every file")
	}
	inline := complete(1, 4)
	if it, ok := inline["../guide.md"]; !ok || it.Detail != "The Guide" {
		t.Errorf("path completion: %+v", inline)
	}
	if _, ok := inline["setup.md"]; !ok {
		t.Errorf("path completion lacks the sibling setup.md: %+v", inline)
	}
	anchors := complete(2, 8)
	if it, ok := anchors["Install Steps"]; !ok || it.TextEdit.NewText != "Install Steps" {
		t.Errorf("wiki anchor completion: %+v", anchors)
	}
	anchors = complete(3, 13)
	if it, ok := anchors["First run"]; !ok || it.TextEdit.NewText != "first-run" {
		t.Errorf("anchor completion: %+v", anchors)
	}
}

func TestDocumentLinksAndFolding(t *testing.T) {
	e := startLinks(t)
	target := func(l documentLink) string { return strings.TrimPrefix(l.Target, e.uri("")+"/") }
	// The broken and escaping links get none.
	want := "guide.md guide.md#L3 docs/setup.md#L3 docs/setup.md guide.md#L7"
	if got := joinResults(e, "textDocument/documentLink", docParams(e.uri("README.md")), " ", target); got != want {
		t.Errorf("document links:\n got %s\nwant %s", got, want)
	}
	lines := func(f foldingRange) string { return itoa(f.StartLine) + "-" + itoa(f.EndLine) }
	if s := joinResults(e, "textDocument/foldingRange", docParams(e.uri("guide.md")), ",", lines); s != "0-8,2-4,6-8" {
		t.Errorf("folding ranges: %s", s)
	}
}

func TestCodeActions(t *testing.T) {
	e := startLinks(t)
	actions := func(rng lspRange) map[string]codeAction {
		t.Helper()
		var out []codeAction
		e.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": e.uri("README.md")},
			"range": rng, "context": map[string]any{"diagnostics": []any{}}}, &out)
		m := map[string]codeAction{}
		for _, a := range out {
			m[a.Title] = a
		}
		return m
	}
	line, char := e.find("README.md", "nope.md")
	got := actions(lspRange{lspPos{line, char}, lspPos{line, char}})
	create, ok := got["Create nope.md"]
	if !ok || create.Edit == nil || len(create.Edit.DocumentChanges) != 2 || create.Edit.DocumentChanges[0]["kind"] != "create" ||
		create.Edit.DocumentChanges[0]["uri"] != e.uri("nope.md") {
		t.Errorf("create-file action: %+v", got)
	}
	line, char = e.find("README.md", "[[ghost]]")
	if _, ok := actions(lspRange{lspPos{line, char + 3}, lspPos{line, char + 3}})["Create ghost.md"]; !ok {
		t.Errorf("no create action for the broken wiki link")
	}
	// No file outside the workspace is offered.
	line, char = e.find("README.md", "../../etc/passwd")
	for title := range actions(lspRange{lspPos{line, char}, lspPos{line, char}}) {
		if strings.HasPrefix(title, "Create") {
			t.Errorf("offered %q for a link out of the workspace", title)
		}
	}
	line, char = e.find("README.md", "Broken:")
	got = actions(lspRange{lspPos{line, char}, lspPos{line, char + 7}})
	ask, ok := got["Ask about the selection"]
	if !ok || ask.Command == nil || ask.Command.Command != "mrpvm.ui.askAbout" || ask.Command.Arguments[0]["context"] != "Broken:" {
		t.Errorf("ask action: %+v", got)
	}
	got = actions(lspRange{lspPos{line, char + 2}, lspPos{line, char + 2}})
	explain, ok := got["Explain Broken"]
	if !ok || explain.Command.Arguments[0]["question"] != "What is Broken?" {
		t.Errorf("explain action: %+v", got)
	}
	// The client runs mrpvm.ask with the argument it was given.
	var res askReply
	arg := ask.Command.Arguments[0]
	arg["question"] = "What is broken here?"
	if err := e.command("mrpvm.ask", arg, &res); err != nil || res.Status == "" {
		t.Errorf("mrpvm.ask with a context: %+v %v", res, err)
	}
}

// TestHoverOnlyForDefinedTerms hovers the prose words of the repository's
// docs/ folder: a word gets a hover only when a page or heading defines it
// ("one" is merely used).
func TestHoverOnlyForDefinedTerms(t *testing.T) {
	root := t.TempDir()
	src, _ := filepath.Abs(filepath.Join("..", "..", "..", "docs"))
	copyMarkdown(t, src, root)
	e := start(t, "", editorOptions{root: root})
	words, hovers := 0, 0
	eachMarkdown(t, root, func(name string, b []byte) {
		for ln, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "    ") || strings.Contains(line, "`") || strings.Contains(line, "|") {
				continue // headings, code and tables are not prose
			}
			for _, f := range strings.Fields(line) {
				w := strings.Trim(f, ".,;:()[]*_\"'!?")
				if len(w) < 3 || strings.ContainsAny(w, "/[]()=<>") || words >= 400 {
					continue
				}
				col := strings.Index(line, w)
				var h *struct {
					Contents struct {
						Value string `json:"value"`
					} `json:"contents"`
				}
				e.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": e.uri(name)},
					"position": map[string]any{"line": ln, "character": col + 1}}, &h)
				words++
				if h != nil {
					hovers++
				}
				if strings.EqualFold(w, "one") && h != nil {
					t.Errorf("%s:%d: hover on %q: %q", name, ln+1, w, h.Contents.Value)
				}
			}
		}
	})
	t.Logf("%d of %d prose words have a hover", hovers, words)
	if words < 200 || hovers*10 > words {
		t.Errorf("%d of %d prose words have a hover", hovers, words)
	}
}

// TestHoverSetting: "links" keeps link and plugin hovers and drops term
// hovers, "off" drops every hover.
func TestHoverSetting(t *testing.T) {
	for _, tc := range []struct {
		mode       string
		term, link bool
	}{{"terms", true, true}, {"links", false, true}, {"off", false, false}} {
		t.Run(tc.mode, func(t *testing.T) {
			e := start(t, "basic.txtar", editorOptions{initOpts: map[string]any{"hover": tc.mode}})
			if got := e.hover("docs/deploy.md", "Rollback takes", 2) != ""; got != tc.term {
				t.Errorf("term hover: %v, want %v", got, tc.term)
			}
			if got := e.hover("README.md", "docs/deploy.md", 3) != ""; got != tc.link {
				t.Errorf("link hover: %v, want %v", got, tc.link)
			}
			if got := e.hover("README.md", "kb-fast", 0) != ""; got != tc.link {
				t.Errorf("plugin id hover: %v, want %v", got, tc.link)
			}
		})
	}
}

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
	if got := e.references("howto.md", "Unpack It All", 2, false); len(got) != 4 {
		t.Errorf("references to the renamed heading during the ingest: %v", got)
	}
	release()
	e.waitIngest("howto.md", 30*time.Second)
	// The CRLF file's line end and BOM survive the edit.
	if b, _ := os.ReadFile(filepath.Join(root, "links", "cr.md")); string(b) != "\uFEFF# Links CR\r\n\r\nSee [unpack](../howto.md#unpack-it-all).\r\n" {
		t.Errorf("cr.md after the rename: %q", b)
	}
	name := func(s symbolInfo) string { return s.Name }
	symbols := func(query string) string {
		return joinResults(e, "workspace/symbol", map[string]any{"query": query}, "|", name)
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
	var acts []codeAction
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
	if got := strings.Join(e.references("guide.md", "Install Steps", 2, false), " "); got != "README.md:2:15" {
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
	if got := strings.Join(e.references("a.md", "Loop", 1, false), " "); got != "a.md:4:0 a.md:4:18 b.md:4:0" {
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
