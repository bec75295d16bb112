package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/llm/llmtest"
)

var sourceLine = regexp.MustCompile(`(?m)^\[(\d+)\][^\n]*?\n?([^\[]*)`)

// TestLLMEndpointFromSettings configures the model endpoint through
// initializationOptions only (no configuration file, no environment): the
// pinned LLM goal solver reaches the local test server and its answer comes
// back through mrpvm.ask.
func TestLLMEndpointFromSettings(t *testing.T) {
	for _, k := range []string{"MRPVM_LLM_BASE_URL", "MRPVM_LLM_MODEL", "MRPVM_LLM_API_KEY", "MRPVM_LLM_API_KEY_FILE"} {
		t.Setenv(k, "")
	}
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.System(), "numbered sources") {
			for _, m := range sourceLine.FindAllStringSubmatch(r.LastUser(), -1) {
				if strings.Contains(m[2], "Zeppelinite") {
					return llmtest.Text("Zeppelinite is the caching tier [" + m[1] + "].")
				}
			}
			return llmtest.Text("NO_CONTEXT: nothing about Zeppelinite")
		}
		return llmtest.Status(400, "unexpected prompt")
	})
	e := start(t, "basic.txtar", editorOptions{initOpts: map[string]any{
		"noLLM": false,
		"llm":   map[string]any{"baseURL": srv.BaseURL(), "model": "settings-model"},
	}})
	var r askReply
	if err := e.command("mrpvm.ask", map[string]any{"question": "What is Zeppelinite?", "pins": map[string]string{"gs": "gs-llm-fast"}}, &r); err != nil {
		t.Fatal(err)
	}
	if srv.Hits() == 0 {
		t.Fatalf("the endpoint from the settings was not called; answer %s: %s", r.Status, r.AnswerMarkdown)
	}
	for _, q := range srv.Requests() {
		if q.Model != "settings-model" {
			t.Errorf("request for model %q, want settings-model", q.Model)
		}
	}
	if !strings.Contains(r.AnswerMarkdown, "caching tier") {
		t.Errorf("answer %s: %s", r.Status, r.AnswerMarkdown)
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("server problems: %v", p)
	}
}

// pluginStates returns the enabled flag of every plugin mrpvm.plugins lists.
func (e *editor) pluginStates() map[string]bool {
	e.t.Helper()
	var plugins []struct {
		ID      string `json:"id"`
		Enabled bool   `json:"enabled"`
	}
	if err := e.command("mrpvm.plugins", nil, &plugins); err != nil {
		e.t.Fatal(err)
	}
	out := map[string]bool{}
	for _, p := range plugins {
		out[p.ID] = p.Enabled
	}
	return out
}

// reloads returns the mrpvm/didReload notifications received so far.
func (e *editor) reloads() []struct {
	Folder string   `json:"folder"`
	Files  []string `json:"files"`
	Error  string   `json:"error"`
} {
	var out []struct {
		Folder string   `json:"folder"`
		Files  []string `json:"files"`
		Error  string   `json:"error"`
	}
	for _, n := range e.Notes() {
		if n.Method != "mrpvm/didReload" {
			continue
		}
		var r struct {
			Folder string   `json:"folder"`
			Files  []string `json:"files"`
			Error  string   `json:"error"`
		}
		if err := json.Unmarshal(n.Params, &r); err != nil {
			e.t.Fatalf("mrpvm/didReload %s: %v", n.Params, err)
		}
		out = append(out, r)
	}
	return out
}

// TestConfigSaveReloadsTheWorkspace saves a workspace .mrpvm/plugins.json
// that disables a plugin, in a burst (three didSave and a watched-file
// change, as an editor with file watching sends): the folder's workspace is
// reopened once, the plugin is reported disabled, queries still answer from
// the same knowledge base; saving it again re-enables the plugin, and
// saving a Markdown file reloads nothing.
func TestConfigSaveReloadsTheWorkspace(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	if on, ok := e.pluginStates()["kb-fast"]; !ok || !on {
		t.Fatalf("kb-fast before: listed %v, enabled %v", ok, on)
	}
	var before stats
	if err := e.command("mrpvm.stats", nil, &before); err != nil {
		t.Fatal(err)
	}

	cfg := filepath.Join(e.root, ".mrpvm", "plugins.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	save := func(text string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		u := e.uri(".mrpvm/plugins.json")
		for i := 0; i < 3; i++ {
			e.notify("textDocument/didSave", docParams(u))
		}
		e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": u, "type": 2}}})
	}
	waitReloads := func(n int) {
		t.Helper()
		e.waitFor("mrpvm/didReload", 20*time.Second, func(notes []note) bool { return countNotes(notes, "mrpvm/didReload") >= n })
		// The burst is debounced (20ms in these tests): no second reload.
		time.Sleep(200 * time.Millisecond)
		rs := e.reloads()
		if len(rs) != n {
			t.Fatalf("%d reloads, want %d: %+v", len(rs), n, rs)
		}
		r := rs[n-1]
		if r.Error != "" || r.Folder != e.uri("") || len(r.Files) != 1 || r.Files[0] != cfg {
			t.Errorf("reload %d: %+v", n, r)
		}
	}

	save(`{"plugins": {"kb-fast": {"enabled": false}}}`)
	waitReloads(1)
	states := e.pluginStates()
	if states["kb-fast"] {
		t.Errorf("kb-fast is still enabled after the reload")
	}
	if !states["kb-balanced"] {
		t.Errorf("kb-balanced was disabled by the reload: %v", states)
	}
	// Same knowledge base, still answering.
	var after stats
	if err := e.command("mrpvm.stats", nil, &after); err != nil {
		t.Fatal(err)
	}
	if after.DBPath != before.DBPath || after.ReadOnly || after.Sources == 0 || after.KUs == 0 {
		t.Errorf("stats before %+v, after the reload %+v", before, after)
	}
	if h := e.hover("glossary.md", "Zeppelinite is", 2); !strings.Contains(h, "Zeppelinite") {
		t.Errorf("hover after the reload: %q", h)
	}

	save(`{"plugins": {"kb-fast": {"enabled": true}}}`)
	waitReloads(2)
	if !e.pluginStates()["kb-fast"] {
		t.Errorf("kb-fast is still disabled after the second reload")
	}

	// Saving a source file re-ingests it and reloads nothing.
	ingests := ingested(e.Notes(), "glossary.md")
	e.notify("textDocument/didSave", docParams(e.uri("glossary.md")))
	e.waitFor("the ingest of the saved glossary.md", 10*time.Second, func(n []note) bool { return ingested(n, "glossary.md") > ingests })
	time.Sleep(100 * time.Millisecond)
	if n := len(e.reloads()); n != 2 {
		t.Errorf("%d reloads after saving a Markdown file, want 2", n)
	}
}

// TestConfigChangeOnDiskReloadsWithTheBuiltinWatcher changes .mrpvm/plugins.json
// on disk, with no notification from the client (which cannot watch files):
// the built-in watcher sees it and the workspace is reloaded.
func TestConfigChangeOnDiskReloadsWithTheBuiltinWatcher(t *testing.T) {
	root := unpack(t, "basic.txtar")
	if err := os.MkdirAll(filepath.Join(root, ".mrpvm"), 0o755); err != nil {
		t.Fatal(err)
	}
	caps := defaultCaps()
	caps["workspace"] = map[string]any{"configuration": false}
	e := start(t, "", editorOptions{caps: caps, root: root})
	cfg := filepath.Join(root, ".mrpvm", "plugins.json")
	if err := os.WriteFile(cfg, []byte(`{"plugins": {"kb-thinkingdb": {"enabled": false}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e.waitFor("mrpvm/didReload", 20*time.Second, func(notes []note) bool { return countNotes(notes, "mrpvm/didReload") >= 1 })
	if rs := e.reloads(); rs[0].Error != "" || len(rs[0].Files) != 1 || rs[0].Files[0] != cfg {
		t.Errorf("reload: %+v", rs)
	}
	if e.pluginStates()["kb-thinkingdb"] {
		t.Errorf("kb-thinkingdb is still enabled after the reload")
	}
}

// TestPluginSwitchesFromTheSettings disables a plugin through the settings
// (initializationOptions), then switches plugins through
// workspace/didChangeConfiguration: the folder is reloaded once, naming the
// settings, and mrpvm.plugins follows; plugins the settings do not name keep
// the files' state; an unknown id in the setting is shown as a message.
func TestPluginSwitchesFromTheSettings(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{initOpts: map[string]any{"plugins": map[string]bool{"kb-fast": false, "kb-fastest": true}}})
	e.waitFor("a message about the unknown plugin id", 5*time.Second, func(n []note) bool {
		for _, x := range n {
			if x.Method == "window/showMessage" && strings.Contains(string(x.Params), "kb-fastest") {
				return true
			}
		}
		return false
	})
	states := e.pluginStates()
	if on, ok := states["kb-fast"]; !ok || on {
		t.Fatalf("kb-fast with the setting false: listed %v, enabled %v", ok, on)
	}
	if !states["kb-balanced"] || !states["kb-thinkingdb"] {
		t.Fatalf("plugins the setting does not name changed: %v", states)
	}

	if err := e.SetConfiguration(json.RawMessage(`{"plugins": {"kb-fast": true, "kb-thinkingdb": false}}`)); err != nil {
		t.Fatal(err)
	}
	ingests := countNotes(e.Notes(), "mrpvm/didIngest")
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	e.waitFor("mrpvm/didReload", 20*time.Second, func(n []note) bool { return countNotes(n, "mrpvm/didReload") >= 1 })
	// A reload ingests the folder again (nothing changed) before serving.
	e.waitFor("mrpvm/didIngest after the reload", 20*time.Second, func(n []note) bool { return countNotes(n, "mrpvm/didIngest") > ingests })
	rs := e.reloads()
	if len(rs) != 1 || rs[0].Error != "" || len(rs[0].Files) != 1 || !strings.Contains(rs[0].Files[0], "mrpvm.plugins") {
		t.Fatalf("reloads %+v, want one naming the settings", rs)
	}
	states = e.pluginStates()
	if !states["kb-fast"] || states["kb-thinkingdb"] || !states["kb-balanced"] {
		t.Errorf("after the change: %v", states)
	}
	if h := e.hover("glossary.md", "Zeppelinite is", 2); !strings.Contains(h, "Zeppelinite") {
		t.Errorf("hover after the reload: %q", h)
	}
}
