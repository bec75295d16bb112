package lsp_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
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

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
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

func TestReferences(t *testing.T) {
	e := startLinks(t)
	refs := func(params map[string]any, decl bool) []string {
		t.Helper()
		params["context"] = map[string]any{"includeDeclaration": decl}
		var locs []location
		e.mustCall("textDocument/references", params, &locs)
		return e.refs(locs)
	}
	// A heading: the links to its anchor (wiki by text and by slug, inline),
	// on the BOM/CRLF/astral line at UTF-16 columns.
	got := refs(e.pos("guide.md", "Install Steps", 2), true)
	want := "README.md:2:15 docs/setup.md:4:35 docs/setup.md:4:7 guide.md:2:3"
	if strings.Join(got, " ") != want {
		t.Errorf("heading references:\n got %v\nwant %s", got, want)
	}
	// A file (cursor in its text): every link to it.
	got = refs(e.pos("guide.md", "Run the installer", 2), false)
	if len(got) != 5 {
		t.Errorf("file references: %v", got)
	}
	// A wiki-link target: the links to the file it names.
	got = refs(e.pos("README.md", "[[guide]]", 3), false)
	if len(got) != 5 {
		t.Errorf("wiki target references: %v", got)
	}
	// A link cycle is fine: cycle.md links to itself twice.
	got = refs(e.pos("docs/cycle.md", "[me]", 1), false)
	if strings.Join(got, " ") != "docs/cycle.md:2:0 docs/cycle.md:2:15" {
		t.Errorf("cycle references: %v", got)
	}
	// Code lens on the heading.
	var lenses []struct {
		Range   lspRange `json:"range"`
		Command struct {
			Title string `json:"title"`
		} `json:"command"`
	}
	e.mustCall("textDocument/codeLens", docParams(e.uri("guide.md")), &lenses)
	var titles []string
	for _, l := range lenses {
		titles = append(titles, itoa(l.Range.Start.Line)+":"+l.Command.Title)
	}
	if s := strings.Join(titles, ","); s != "2:3 references,6:1 reference" {
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
	var locs []location
	p := e.pos("manual/guide-v2.md", "Usage", 1)
	p["context"] = map[string]any{"includeDeclaration": false}
	e.mustCall("textDocument/references", p, &locs)
	if len(locs) != 0 { // README's [ref]: guide.md#usage now points at a missing file
		t.Errorf("references after the move: %v", e.refs(locs))
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
	var dl []struct {
		Range  lspRange `json:"range"`
		Target string   `json:"target"`
	}
	e.mustCall("textDocument/documentLink", docParams(e.uri("README.md")), &dl)
	var targets []string
	for _, l := range dl {
		targets = append(targets, strings.TrimPrefix(l.Target, e.uri("")+"/"))
	}
	// The broken and escaping links get none.
	want := "guide.md guide.md#L3 docs/setup.md#L3 docs/setup.md guide.md#L7"
	if got := strings.Join(targets, " "); got != want {
		t.Errorf("document links:\n got %s\nwant %s", got, want)
	}
	var folds []struct {
		StartLine int `json:"startLine"`
		EndLine   int `json:"endLine"`
	}
	e.mustCall("textDocument/foldingRange", docParams(e.uri("guide.md")), &folds)
	var got []string
	for _, f := range folds {
		got = append(got, itoa(f.StartLine)+"-"+itoa(f.EndLine))
	}
	if s := strings.Join(got, ","); s != "0-8,2-4,6-8" {
		t.Errorf("folding ranges: %s", s)
	}
}

func TestCodeActions(t *testing.T) {
	e := startLinks(t)
	type action struct {
		Title string `json:"title"`
		Edit  *struct {
			DocumentChanges []map[string]any `json:"documentChanges"`
		} `json:"edit"`
		Command *struct {
			Command   string           `json:"command"`
			Arguments []map[string]any `json:"arguments"`
		} `json:"command"`
	}
	actions := func(rng lspRange) map[string]action {
		t.Helper()
		var out []action
		e.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": e.uri("README.md")},
			"range": rng, "context": map[string]any{"diagnostics": []any{}}}, &out)
		m := map[string]action{}
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
	var res struct {
		Status string `json:"status"`
	}
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
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		if b, err := os.ReadFile(filepath.Join(src, en.Name())); err == nil && strings.HasSuffix(en.Name(), ".md") {
			os.WriteFile(filepath.Join(root, en.Name()), b, 0o644)
		}
	}
	e := start(t, "", editorOptions{root: root})
	words, hovers := 0, 0
	for _, en := range entries {
		name := en.Name()
		b, _ := os.ReadFile(filepath.Join(root, name))
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
	}
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
