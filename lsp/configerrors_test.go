package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestUserConfigErrorsSurfaceInTheWorkspaceFile opens a workspace's
// engine.json in a server whose user configuration folder holds an
// engine.json that does not parse. The loader leaves the user's file out,
// so the workspace's allowlist entry widens nothing the user allowed: the
// editor must say why, with the user file's error, rather than only flag
// the widening.
func TestUserConfigErrorsSurfaceInTheWorkspaceFile(t *testing.T) {
	userDir, ws := t.TempDir(), t.TempDir()
	userEngine := filepath.Join(userDir, "engine.json")
	wsEngine := filepath.Join(ws, ".mrpvm", "engine.json")
	text := "{\n  \"pluginAllowlist\": [\"my-helper\"]\n}\n"
	if err := os.CopyFS(userDir, fstest.MapFS{"engine.json": {Data: []byte("{\n  \"pluginAllowlist\": [\"my-helper\"],\n}\n")}}); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(ws, fstest.MapFS{".mrpvm/engine.json": {Data: []byte(text)}}); err != nil {
		t.Fatal(err)
	}

	rc := startRaw(t, Options{UserDir: userDir, NoLLM: true, DBPath: filepath.Join(t.TempDir(), "kb.db"), Debounce: 10 * time.Millisecond})
	rc.initialize(map[string]any{"workspaceFolders": []map[string]any{{"uri": pathToURI(ws), "name": "ws"}}})
	rc.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": pathToURI(wsEngine), "languageId": "json", "version": 1, "text": text}}})

	deadline := time.Now().Add(10 * time.Second)
	for {
		m, err := rc.read(time.Until(deadline))
		if err != nil {
			t.Fatalf("no diagnostics for %s: %v", wsEngine, err)
		}
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string       `json:"uri"`
			Diagnostics []diagnostic `json:"diagnostics"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.URI != pathToURI(wsEngine) {
			continue
		}
		var codes []string
		found := false
		for _, d := range p.Diagnostics {
			codes = append(codes, d.Code)
			if d.Code == "config_syntax" && d.Range.Start.Line == 0 && strings.Contains(d.Message, userEngine) {
				found = true
			}
		}
		if !found {
			t.Fatalf("the user's engine.json error is not shown on %s: got %v", wsEngine, p.Diagnostics)
		}
		if !strings.Contains(strings.Join(codes, " "), "config_workspace_cannot_widen") {
			t.Errorf("the widening warning is gone: %v", codes)
		}
		return
	}
}
