package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestConfigFilesReloadTheFoldersThatReadThem saves configuration files in
// different places and checks which folders are reloaded: a workspace's own
// .mrpvm file reloads that folder, a file of the user configuration folder
// every folder that reads it, and a .mrpvm folder below the root (not the
// workspace's configuration) nothing.
func TestConfigFilesReloadTheFoldersThatReadThem(t *testing.T) {
	userDir := t.TempDir()
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(a, ".mrpvm"), filepath.Join(a, "sub", ".mrpvm")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The second folder's knowledge base goes to the default path below
	// the cache folder.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	rc := startRaw(t, Options{UserDir: userDir, NoLLM: true, DBPath: filepath.Join(t.TempDir(), "a.db"), Debounce: 10 * time.Millisecond})
	rc.initialize(map[string]any{"workspaceFolders": []map[string]any{
		{"uri": pathToURI(a), "name": "a"}, {"uri": pathToURI(b), "name": "b"}}})

	tests := []struct {
		name string
		path string
		want []string // reloaded folders
	}{
		{"workspace file", filepath.Join(a, ".mrpvm", "plugins.json"), []string{pathToURI(a)}},
		{"user file", filepath.Join(userDir, "engine.json"), []string{pathToURI(a), pathToURI(b)}},
		{"nested .mrpvm", filepath.Join(a, "sub", ".mrpvm", "plugins.json"), nil},
		{"not a configuration file", filepath.Join(a, ".mrpvm", "notes.json"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(tc.path, []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			rc.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didSave",
				"params": map[string]any{"textDocument": map[string]any{"uri": pathToURI(tc.path)}}})
			got := map[string]bool{}
			deadline := time.Now().Add(2 * time.Second)
			if len(tc.want) == 0 {
				deadline = time.Now().Add(300 * time.Millisecond)
			}
			for len(got) < len(tc.want) || len(tc.want) == 0 {
				m, err := rc.read(time.Until(deadline))
				if err != nil {
					break
				}
				if m.Method != "mrpvm/didReload" {
					continue
				}
				var r reloadResult
				if err := json.Unmarshal(m.Params, &r); err != nil {
					t.Fatal(err)
				}
				if r.Error != "" || len(r.Files) != 1 || r.Files[0] != tc.path {
					t.Errorf("reload: %+v", r)
				}
				got[r.Folder] = true
			}
			if len(got) != len(tc.want) {
				t.Fatalf("reloaded %v, want %v", got, tc.want)
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("%s not reloaded (got %v)", w, got)
				}
			}
		})
	}
}
