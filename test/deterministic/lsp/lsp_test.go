package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/mrpvm/mrpvm/internal/testtree"
)

func TestInitializeAndProgress(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	e.waitFor("$/progress end", 10*time.Second, func(n []note) bool {
		if !progressEnded(n) {
			for _, x := range n {
				t.Logf("%s %s", x.Method, x.Params)
			}
			return false
		}
		return true
	})
	if len(e.Created()) == 0 {
		t.Errorf("no window/workDoneProgress/create")
	}
	if regs := e.Registered(); !strings.Contains(strings.Join(regs, ","), "workspace/didChangeWatchedFiles") {
		t.Errorf("watched files not registered: %v", regs)
	}
	sawReport := false
	for _, n := range e.Notes() {
		if n.Method == "$/progress" && strings.Contains(string(n.Params), `"report"`) && strings.Contains(string(n.Params), "files") {
			sawReport = true
		}
	}
	if !sawReport {
		t.Errorf("no $/progress report with a file count")
	}
}

func TestHover(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	tests := []struct {
		name, file, needle string
		delta              int
		want               []string // substrings; nil: no hover
	}{
		{"word merely used", "README.md", "runbooks", 2, nil},
		{"term a heading defines", "docs/deploy.md", "Rollback takes", 2, []string{"**Rollback**", "point the load balancer", "docs/deploy.md:"}},
		{"plugin id with hyphen", "README.md", "kb-balanced", 4, []string{"kb-balanced", "kb-plugin"}},
		{"plugin id at its start", "README.md", "kb-fast", 0, []string{"kb-fast"}},
		{"link target", "README.md", "docs/deploy.md", 3, []string{"Deploying Atlas", "docs/deploy.md:1"}},
		{"wiki link", "README.md", "[[glossary]]", 4, []string{"Glossary"}},
		{"heading", "docs/deploy.md", "Blue-green rollout", 2, []string{"Blue-green"}},
		{"stop word", "README.md", "keeps the", 7, nil},
		{"punctuation", "README.md", "[[glossary]].", 12, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := e.hover(tc.file, tc.needle, tc.delta)
			if tc.want == nil {
				if got != "" {
					t.Fatalf("want no hover, got %q", got)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("hover %q lacks %q", got, w)
				}
			}
		})
	}
}

func TestOverlayAndDocumentSymbol(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	u := e.uri("docs/deploy.md")
	b, _ := os.ReadFile(filepath.Join(e.root, "docs/deploy.md"))
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": string(b)}})
	// Append a section in the overlay only (incremental change at the end).
	text := string(b)
	endLine := strings.Count(text, "\n")
	e.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": endLine, "character": 0}, "end": map[string]any{"line": endLine, "character": 0}},
			"text":  "\n## Canary release\n\nA canary sends one percent of traffic to the new fleet.\n",
		}},
	})
	var syms []symbol
	e.mustCall("textDocument/documentSymbol", docParams(u), &syms)
	var names []string
	var walk func(n []symbol)
	walk = func(n []symbol) {
		for _, s := range n {
			names = append(names, s.Name)
			walk(s.Children)
		}
	}
	walk(syms)
	all := strings.Join(names, "|")
	for _, w := range []string{"Deploying Atlas", "Blue-green rollout", "Rollback", "Canary release"} {
		if !strings.Contains(all, w) {
			t.Errorf("symbols %q lack %q", all, w)
		}
	}
	// Hover reads the term from the overlay: the new heading resolves.
	var h *struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	e.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": map[string]any{"line": endLine + 1, "character": 5}}, &h)
	// Not saved yet: "Canary" is in no KU, so there is nothing to show.
	if h != nil && strings.Contains(h.Contents.Value, "Canary") {
		t.Errorf("unsaved text reached the knowledge base: %q", h.Contents.Value)
	}
}

type symbol struct {
	Name     string   `json:"name"`
	Children []symbol `json:"children"`
}

func TestSaveReingestsVisibleToHover(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	if got := e.hover("glossary.md", "Zeppelinite", 3); !strings.Contains(got, "caching tier") {
		t.Fatalf("hover before save: %q", got)
	}
	p := filepath.Join(e.root, "glossary.md")
	if err := os.WriteFile(p, []byte("# Glossary\n\n## Quasarbeam\n\nQuasarbeam is the nightly batch exporter.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.notify("textDocument/didSave", docParams(e.uri("glossary.md")))
	e.waitIngest("glossary.md", 10*time.Second)
	if got := e.hover("glossary.md", "Quasarbeam", 3); !strings.Contains(got, "nightly batch exporter") {
		t.Fatalf("hover after save: %q", got)
	}
}

func TestWatchedFiles(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	created := filepath.Join(e.root, "docs", "incident.md")
	if err := os.WriteFile(created, []byte("# Xylophant\n\nThe Xylophant outage lasted four hours.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(e.root, "glossary.md")); err != nil {
		t.Fatal(err)
	}
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": e.uri("docs/incident.md"), "type": 1},
		map[string]any{"uri": e.uri("glossary.md"), "type": 3},
	}})
	e.waitIngest("incident.md", 10*time.Second)
	if got := e.hover("docs/incident.md", "Xylophant", 2); !strings.Contains(got, "four hours") {
		t.Errorf("created file not visible: %q", got)
	}
	var syms []symbolInfo
	e.mustCall("workspace/symbol", map[string]any{"query": "Zeppelinite"}, &syms)
	for _, s := range syms {
		if strings.HasSuffix(s.Location.URI, "glossary.md") {
			t.Errorf("deleted file still found: %+v", s)
		}
	}
}

func TestBuiltinWatcherWithoutDynamicRegistration(t *testing.T) {
	caps := defaultCaps()
	caps["workspace"] = map[string]any{"configuration": false}
	e := start(t, "basic.txtar", editorOptions{caps: caps})
	if err := os.WriteFile(filepath.Join(e.root, "docs", "new.md"), []byte("# Ombrometer\n\nThe Ombrometer gauges rainfall.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.waitIngest("new.md", 10*time.Second)
	if got := e.hover("docs/new.md", "Ombrometer", 2); !strings.Contains(got, "rainfall") {
		t.Errorf("watcher did not ingest: %q", got)
	}
}

func TestWorkspaceSymbolAndDefinition(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	var syms []symbolInfo
	e.mustCall("workspace/symbol", map[string]any{"query": "rollback load balancer"}, &syms)
	if len(syms) == 0 || !strings.HasSuffix(syms[0].Location.URI, "docs/deploy.md") {
		t.Fatalf("workspace/symbol: %+v", syms)
	}
	def := func(file, needle string, delta int) []location {
		var out []location
		e.mustCall("textDocument/definition", e.pos(file, needle, delta), &out)
		return out
	}
	if got := def("README.md", "docs/deploy.md", 2); len(got) != 1 || !strings.HasSuffix(got[0].URI, "docs/deploy.md") {
		t.Errorf("definition of a relative link: %+v", got)
	}
	if got := def("README.md", "[[glossary]]", 3); len(got) != 1 || !strings.HasSuffix(got[0].URI, "glossary.md") {
		t.Errorf("definition of a wiki link: %+v", got)
	}
	if got := def("README.md", "Atlas keeps", 0); len(got) != 0 {
		t.Errorf("definition of a plain word: %+v", got)
	}
}

// askReply is the result of mrpvm.ask, as far as the tests read it.
type askReply struct {
	Status         string `json:"status"`
	AnswerMarkdown string `json:"answerMarkdown"`
	RequestID      string `json:"requestId"`
	SessionID      string `json:"sessionId"`
	Evidence       []struct {
		SourceID string `json:"sourceId"`
	} `json:"evidence"`
	Trace   json.RawMessage `json:"trace"`
	Partial *struct {
		Files int `json:"files"`
		Of    int `json:"of"`
	} `json:"partial"`
}

func TestCommands(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	var ask askReply
	if err := e.command("mrpvm.ask", map[string]any{"question": "How do I roll back a deployment?"}, &ask); err != nil {
		t.Fatal(err)
	}
	if ask.RequestID == "" || ask.SessionID == "" || ask.Status == "" || len(ask.Trace) == 0 {
		t.Fatalf("ask: %+v", ask)
	}
	if ask.Status == "answered" && len(ask.Evidence) == 0 {
		t.Errorf("answered without evidence")
	}
	var trace map[string]any
	if err := e.command("mrpvm.trace", map[string]any{"requestId": ask.RequestID}, &trace); err != nil {
		t.Fatal(err)
	}
	if err := e.command("mrpvm.trace", nil, &trace); err != nil {
		t.Fatal(err)
	}
	var plugins []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}
	if err := e.command("mrpvm.plugins", nil, &plugins); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range plugins {
		found = found || p.ID == "kb-fast"
	}
	if !found {
		t.Errorf("plugins: %+v", plugins)
	}
	var st stats
	if err := e.command("mrpvm.stats", nil, &st); err != nil {
		t.Fatal(err)
	}
	if st.Sources < 3 || st.KUs == 0 || st.DBPath != e.db {
		t.Errorf("stats: %+v", st)
	}
	var rep struct {
		Files     int `json:"files"`
		Unchanged int `json:"unchanged"`
	}
	if err := e.command("mrpvm.ingest", nil, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Unchanged < 3 {
		t.Errorf("ingest: %+v", rep)
	}
	if err := e.command("mrpvm.ingest", map[string]any{"uri": e.uri("docs/deploy.md")}, &rep); err != nil {
		t.Fatal(err)
	}

	// Snapshots: save, change the KB, load the snapshot back, fork.
	var kb struct{ Action, Name, Path string }
	if err := e.command("mrpvm.kb", map[string]any{"action": "save", "name": "before"}, &kb); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(kb.Path); err != nil || kb.Action != "save" {
		t.Fatalf("save: %+v %v", kb, err)
	}
	if err := e.command("mrpvm.kb", map[string]any{"action": "save", "name": "before"}, &kb); !hasCode(err, "kb_snapshot_exists") {
		t.Errorf("second save: %v", err)
	}
	// addPage writes a page into the workspace and runs mrpvm.ingest over
	// every folder, so the page is in the served knowledge base on return.
	addPage := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(e.root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := e.command("mrpvm.ingest", nil, &rep); err != nil {
			t.Fatal(err)
		}
	}
	addPage("extra.md", "# Trombonium\n\nThe Trombonium reactor.\n")
	if got := e.hover("extra.md", "Trombonium", 2); !strings.Contains(got, "reactor") {
		t.Fatalf("extra not ingested: %q", got)
	}
	if err := e.command("mrpvm.kb", map[string]any{"action": "load", "name": "before"}, &kb); err != nil {
		t.Fatal(err)
	}
	if got := e.hover("extra.md", "Trombonium", 2); got != "" {
		t.Errorf("loaded snapshot still knows extra.md: %q", got)
	}
	// The loaded snapshot is served from a copy: changes made afterwards
	// (an ingest after a save in the editor) leave the snapshot as saved.
	if err := e.command("mrpvm.stats", nil, &st); err != nil || st.DBPath == kb.Path || st.DBPath == "" {
		t.Errorf("stats after load: %+v %v (want a copy of %s)", st, err, kb.Path)
	}
	saved, err := os.ReadFile(kb.Path)
	if err != nil {
		t.Fatal(err)
	}
	addPage("later.md", "# Quibblefrost\n\nThe Quibblefrost engine.\n")
	if got := e.hover("later.md", "Quibblefrost", 2); !strings.Contains(got, "engine") {
		t.Fatalf("later.md not ingested into the loaded knowledge base: %q", got)
	}
	if now, err := os.ReadFile(kb.Path); err != nil || !bytes.Equal(saved, now) {
		t.Errorf("the snapshot file changed after load and ingest (%v)", err)
	}
	if err := e.command("mrpvm.kb", map[string]any{"action": "fork", "name": "branch"}, &kb); err != nil {
		t.Fatal(err)
	}
	if err := e.command("mrpvm.stats", nil, &st); err != nil || !strings.HasSuffix(st.DBPath, "branch.db") {
		t.Errorf("stats after fork: %+v %v", st, err)
	}
	if err := e.command("mrpvm.kb", map[string]any{"action": "load", "name": "nope"}, &kb); !hasCode(err, "kb_snapshot_missing") {
		t.Errorf("load missing: %v", err)
	}

	// Bad arguments come back as errors with stable codes.
	for _, tc := range []struct {
		cmd  string
		arg  any
		code string
	}{
		{"mrpvm.ask", map[string]any{}, "bad_argument"},
		{"mrpvm.ask", map[string]any{"question": "x", "bogus": 1}, "bad_argument"},
		{"mrpvm.kb", map[string]any{"action": "save", "name": "../escape"}, "bad_argument"},
		{"mrpvm.kb", map[string]any{"action": "merge", "name": "x"}, "bad_argument"},
		{"mrpvm.trace", map[string]any{"requestId": "r-missing"}, "no_trace"},
		{"mrpvm.nope", nil, "unknown_command"},
		{"mrpvm.ask", "a string", "bad_argument"},
	} {
		if err := e.command(tc.cmd, tc.arg, nil); !hasCode(err, tc.code) {
			t.Errorf("%s %v: want %s, got %v", tc.cmd, tc.arg, tc.code, err)
		}
	}
}

func hasCode(err error, code string) bool {
	var je *jsonrpc2.Error
	return errors.As(err, &je) && strings.HasPrefix(je.Message, code)
}

func TestCancellation(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	// A whole-folder ingest of a large folder is long enough to cancel.
	for i := 0; i < 400; i++ {
		p := filepath.Join(e.root, "bulk", "f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+itoa(i)+".md")
		testtree.WriteFile(t, p, "# Page "+itoa(i)+"\n\n"+strings.Repeat("Lorem ipsum dolor sit amet, consectetur. ", 60)+"\n")
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- e.callCtx(ctx, "workspace/executeCommand", map[string]any{"command": "mrpvm.ingest"}, nil)
	}()
	time.Sleep(30 * time.Millisecond)
	// Another request is not held up by the long command.
	start := time.Now()
	_ = e.hover("README.md", "runbooks", 2)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("hover waited %v behind a command", d)
	}
	cancel() // jsonrpc2 sends $/cancelRequest for a cancelled call
	select {
	case err := <-errc:
		if err == nil {
			t.Skip("the ingest finished before the cancellation arrived")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("cancelled command did not return")
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestUnknownMethodAndPanicSafety(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	err := e.call("textDocument/unknownThing", map[string]any{}, nil)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown method: %v", err)
	}
	// Malformed params: an error reply, and the server stays up.
	if err := e.call("textDocument/hover", []int{1, 2}, nil); err == nil {
		t.Errorf("malformed hover params accepted")
	}
	e.notify("textDocument/didChange", map[string]any{"textDocument": 7})
	if got := e.hover("glossary.md", "Zeppelinite", 2); got == "" {
		t.Errorf("server stopped answering")
	}
}

func TestCompletion(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	labels := func(uri, text string, line, char int) string {
		e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "x", "version": 1, "text": text}})
		var items []struct {
			Label string `json:"label"`
		}
		e.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": map[string]any{"line": line, "character": char}}, &items)
		var out []string
		for _, it := range items {
			out = append(out, it.Label)
		}
		return "," + strings.Join(out, ",") + ","
	}
	kus := e.uri("plugins/demo/plugin.kus.md")
	if got := labels(kus, "## Context Unit\nRole: ", 1, 6); !strings.Contains(got, ",Procedure,") || !strings.Contains(got, ",Definition,") {
		t.Errorf("Role values: %s", got)
	}
	if got := labels(kus, "## Context Unit\nPhaseScopes: ", 1, 13); !strings.Contains(got, ",gs-plugin,") {
		t.Errorf("PhaseScopes values: %s", got)
	}
	if got := labels(kus, "## Context Unit\n", 1, 0); !strings.Contains(got, ",UtilityActs,") {
		t.Errorf("field names: %s", got)
	}
	pj := e.uri("plugins/demo/plugin.json")
	if got := labels(pj, "{\n  \"costClass\": ", 1, 15); !strings.Contains(got, ",cheap,") {
		t.Errorf("costClass values: %s", got)
	}
	if got := labels(pj, "{\n  \"type\": ", 1, 10); !strings.Contains(got, ",kb-plugin,") {
		t.Errorf("type values: %s", got)
	}
	if got := labels(e.uri("README.md"), "# x\n", 0, 1); got != ",," {
		t.Errorf("completion in plain Markdown: %s", got)
	}
}

// TestHoverCacheFollowsTheKnowledgeBase hovers the same word before and
// after saves that add, change and remove what it resolves to: cached
// hovers (including "nothing here") never outlive an ingest.
func TestHoverCacheFollowsTheKnowledgeBase(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	p := filepath.Join(e.root, "notes", "probe.md")
	u := e.uri("notes/probe.md")
	probe := "# Probe\n\nSee Vantablorp here.\n"
	save := func(text string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		e.notify("textDocument/didSave", docParams(u))
		e.waitIngest("probe.md", 10*time.Second)
	}
	save(probe)
	hover := func() string { return e.hover("notes/probe.md", "Vantablorp", 2) }
	for i := 0; i < 2; i++ { // the second hover comes from the cache
		if got := hover(); strings.Contains(got, "hyperdrive") {
			t.Fatalf("hover %d before the definition exists: %q", i, got)
		}
	}
	defs := filepath.Join(e.root, "notes", "defs.md")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(defs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		e.notify("textDocument/didSave", docParams(e.uri("notes/defs.md")))
		e.waitIngest("defs.md", 10*time.Second)
	}
	write("# Vantablorp\n\nVantablorp is the hyperdrive of the fleet.\n")
	if got := hover(); !strings.Contains(got, "hyperdrive") {
		t.Fatalf("hover after the definition was saved: %q", got)
	}
	write("# Vantablorp\n\nVantablorp is the tractor beam of the fleet.\n")
	if got := hover(); !strings.Contains(got, "tractor beam") {
		t.Fatalf("hover after the definition changed: %q", got)
	}
}

// TestSearchCommand runs mrpvm.search over the pipe: hits carry the
// evidence fields (a file URI and a range an editor can open), the plugin
// and k are honoured, and a refused request is InvalidParams with the
// code mrpvm search uses.
func TestSearchCommand(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	type hit struct {
		KUID     string  `json:"kuId"`
		Title    string  `json:"title"`
		SourceID string  `json:"sourceId"`
		URI      string  `json:"uri"`
		Score    float64 `json:"score"`
		Range    struct {
			StartLine int `json:"startLine"`
			EndLine   int `json:"endLine"`
		} `json:"range"`
	}
	for _, plugin := range []string{"", "kb-fast", "kb-thinkingdb"} {
		var hits []hit
		arg := map[string]any{"query": "zeppelinite caching tier"}
		if plugin != "" {
			arg["plugin"] = plugin
		}
		if err := e.command("mrpvm.search", arg, &hits); err != nil {
			t.Fatalf("%s: %v", plugin, err)
		}
		if len(hits) == 0 {
			t.Fatalf("%s: no hits", plugin)
		}
		top := hits[0]
		if top.SourceID != "glossary.md" || top.URI != e.uri("glossary.md") || top.KUID == "" || top.Title == "" || top.Score <= 0 || top.Range.StartLine < 1 {
			t.Errorf("%s: top hit %+v", plugin, top)
		}
	}
	var hits []hit
	if err := e.command("mrpvm.search", map[string]any{"query": "rollout rollback fleet", "k": 1}, &hits); err != nil || len(hits) != 1 {
		t.Fatalf("k=1: %v %+v", err, hits)
	}
	if err := e.command("mrpvm.search", map[string]any{"query": "the and of"}, &hits); err != nil || len(hits) != 0 {
		t.Errorf("stop words only: %v %+v (want no hits, no error)", err, hits)
	}
	for _, tc := range []struct {
		arg  any
		code string
	}{
		{map[string]any{"query": "  "}, "empty_query"},
		{map[string]any{}, "empty_query"},
		{map[string]any{"query": "x", "k": -1}, "bad_k"},
		{map[string]any{"query": "x", "k": 100000}, "bad_k"},
		{map[string]any{"query": "x", "plugin": "kb-nope"}, "unknown_plugin"},
		{map[string]any{"query": "x", "bogus": true}, "bad_argument"},
		{map[string]any{"query": 3}, "bad_argument"},
	} {
		err := e.command("mrpvm.search", tc.arg, &hits)
		if !hasCode(err, tc.code) {
			t.Errorf("%v: want %s, got %v", tc.arg, tc.code, err)
		}
		if err != nil && !strings.Contains(err.Error(), tc.code+": ") {
			t.Errorf("%v: the message leads with the code: %v", tc.arg, err)
		}
	}
}
