//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/internal/testtree"
)

// TestWorkspaceLayerSpecialFiles commits a workspace configuration that is
// a symlink to /dev/zero, a FIFO, a link to a file outside the workspace
// and a file over the cap: Load ends, reports each with its code and keeps
// the defaults.
func TestWorkspaceLayerSpecialFiles(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	dir := filepath.Join(ws, WorkspaceDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "elsewhere.json")
	if err := os.WriteFile(outside, []byte(`{"maxFrameDepth": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	if testtree.LinkDevZero(t, filepath.Join(dir, PluginsFile)) {
		want[PluginsFile] = fsafe.CodeOutsideRoot
	}
	testtree.FIFO(t, filepath.Join(dir, LLMRolesFile))
	want[LLMRolesFile] = fsafe.CodeNotRegular
	testtree.Link(t, outside, filepath.Join(dir, EngineFile))
	want[EngineFile] = fsafe.CodeOutsideRoot

	check := func() {
		t.Helper()
		done := make(chan []*Error, 1)
		var cfg *Config
		go func() {
			c, errs := Load(Options{Workspace: ws, Known: known})
			cfg = c
			done <- errs
		}()
		var errs []*Error
		select {
		case errs = <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("Load hangs")
		}
		got := map[string]string{}
		for _, e := range errs {
			got[filepath.Base(e.File)] = e.Code
		}
		for name, code := range want {
			if got[name] != code {
				t.Errorf("%s: code %q, want %q (%v)", name, got[name], code, errs)
			}
		}
		if cfg.Engine.MaxFrameDepth != 3 {
			t.Errorf("a value from outside the workspace was applied: maxFrameDepth %d", cfg.Engine.MaxFrameDepth)
		}
	}
	check()

	os.Remove(filepath.Join(dir, EngineFile))
	big := `{"maxFrameDepth": 2, "x": "` + strings.Repeat("a", fsafe.MaxConfigBytes) + `"}`
	if err := os.WriteFile(filepath.Join(dir, EngineFile), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	want[EngineFile] = fsafe.CodeTooLarge
	check()
}
