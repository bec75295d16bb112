package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/lsp"
	"github.com/mrpvm/mrpvm/test/internal/lspclient"
)

// TestDiagnosticsForConfigSOPAndManifestOverlay checks the diagnostics of
// a workspace configuration file, a .sop document, a fenced sop block and a
// wrapper manifest whose unsaved text (not the saved file) is wrong.
func TestDiagnosticsForConfigSOPAndManifestOverlay(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	open := func(rel, text string) string {
		u := e.uri(rel)
		e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "x", "version": 1, "text": text}})
		e.waitFor("diagnostics for "+rel, 5*time.Second, func([]note) bool { _, ok := e.diagnosticsFor(u); return ok })
		return u
	}
	cases := []struct{ rel, text, want string }{
		{".mrpvm/engine.json", "{\n  \"maxFrameDepth\": -1,\n  \"nope\": 1\n}\n", "config_bad_value@1,config_unknown_key@2"},
		{".mrpvm/plugins.json", "{\n  \"plugins\": {\"kb-fastest\": {\"enabled\": true}}\n}\n", "config_unknown_plugin@1"},
		{"flows/intent.sop", "@i1 intent define \"x\"\n@i2 set $i9 output y\n", "sop_unknown_ref@1,sop_missing_field@0"},
		{"docs/flow.md", "# Flow\n\n```sop\n@i1 frobnicate\n```\n", "sop_unknown_command@3"},
	}
	for _, c := range cases {
		u := open(c.rel, c.text)
		codes, _ := e.diagnosticsFor(u)
		if got := strings.Join(codes, ","); got != c.want {
			t.Errorf("%s: diagnostics %s, want %s", c.rel, got, c.want)
		}
	}

	// A wrapper manifest: the saved file is fine, the editor's text is not.
	dir := filepath.Join(e.root, "wrappers", "echo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := "{\n  \"protocolVersion\": 1,\n  \"id\": \"echo\",\n  \"type\": \"gs-plugin\",\n  \"version\": \"1.0.0\",\n  \"description\": \"echoes\",\n  \"command\": \"./run.sh\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	mu := open("wrappers/echo/manifest.json", strings.Replace(good, `"id": "echo"`, `"id": "Echo Wrapper"`, 1))
	codes, _ := e.diagnosticsFor(mu)
	if got := strings.Join(codes, ","); !strings.Contains(got, "manifest_invalid@2") {
		t.Errorf("manifest overlay diagnostics: %s", got)
	}
	// Fixing the text in the editor (unsaved) clears them.
	n := e.countNotes("textDocument/publishDiagnostics")
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": mu, "version": 2},
		"contentChanges": []map[string]any{{"text": good}}})
	e.waitFor("diagnostics after the fix", 5*time.Second, func(n0 []note) bool { return countNotes(n0, "textDocument/publishDiagnostics") > n })
	if codes, _ := e.diagnosticsFor(mu); len(codes) != 0 {
		t.Errorf("diagnostics after the fix: %v", codes)
	}
}

func countNotes(notes []note, method string) int { return lspclient.Count(notes, method, "") }

func (e *editor) countNotes(method string) int { return countNotes(e.Notes(), method) }

// TestDiagnosticsForAUserFolderFromTheSettings checks a configuration file
// in the user configuration folder that the editor's settings name (not
// the default one): it gets the same checks as in the default folder.
func TestDiagnosticsForAUserFolderFromTheSettings(t *testing.T) {
	userDir := t.TempDir()
	e := start(t, "basic.txtar", editorOptions{initOpts: map[string]any{"userDir": userDir}})
	path := filepath.Join(userDir, "plugins.json")
	u := lsp.PathToURI(path)
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "json", "version": 1,
		"text": "{\n  \"plugins\": {\"kb-fastest\": {\"enabled\": true}}\n}\n"}})
	e.waitFor("diagnostics for the user plugins.json", 5*time.Second, func([]note) bool { _, ok := e.diagnosticsFor(u); return ok })
	codes, _ := e.diagnosticsFor(u)
	if got := strings.Join(codes, ","); got != "config_unknown_plugin@1" {
		t.Errorf("diagnostics %s, want config_unknown_plugin@1", got)
	}
}

// diagnosticsFor returns the last published diagnostics for a URI.
func (e *editor) diagnosticsFor(u string) (codes []string, ok bool) {
	for _, n := range e.Notes() {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Code  string `json:"code"`
				Range struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
			} `json:"diagnostics"`
		}
		_ = json.Unmarshal(n.Params, &p)
		if p.URI != u {
			continue
		}
		ok = true
		codes = codes[:0]
		for _, d := range p.Diagnostics {
			codes = append(codes, d.Code+"@"+itoa(d.Range.Start.Line))
		}
	}
	return codes, ok
}

func TestDiagnostics(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	u := e.uri("plugins/demo/plugin.json")
	bad := "{\n  \"id\": \"Demo Plugin\",\n  \"type\": \"kb-plugin\",\n  \"version\": \"1.0.0\"\n}\n"
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "json", "version": 1, "text": bad}})
	e.waitFor("diagnostics for plugin.json", 5*time.Second, func([]note) bool { _, ok := e.diagnosticsFor(u); return ok })
	codes, _ := e.diagnosticsFor(u)
	if !strings.Contains(strings.Join(codes, ","), "descriptor_bad_id@1") {
		t.Errorf("plugin.json diagnostics: %v", codes)
	}
	// Broken relative links in Markdown are hints.
	mu := e.uri("links.md")
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": mu, "languageId": "markdown", "version": 1,
		"text": "# Links\n\nSee [ok](README.md) and [gone](missing/page.md).\n"}})
	e.waitFor("diagnostics for links.md", 5*time.Second, func([]note) bool { _, ok := e.diagnosticsFor(mu); return ok })
	codes, _ = e.diagnosticsFor(mu)
	if strings.Join(codes, ",") != "broken_link@2" {
		t.Errorf("link diagnostics: %v", codes)
	}
}
