package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/store/storetest"
	"github.com/mrpvm/mrpvm/workspace"
)

// openHoverWorkspace opens (and ingests) a workspace of one note, with
// the given files in its .mrpvm folder.
func openHoverWorkspace(t *testing.T, conf map[string]string) *workspace.Workspace {
	t.Helper()
	root := t.TempDir()
	note := "# Tides\n\nThe gravitational pull of the Moon raises the tides twice a day.\n"
	if err := os.WriteFile(filepath.Join(root, "tides.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(conf) > 0 {
		if err := os.MkdirAll(filepath.Join(root, ".mrpvm"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range conf {
		if err := os.WriteFile(filepath.Join(root, ".mrpvm", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Open(workspace.Options{Root: root, DBPath: filepath.Join(t.TempDir(), "kb.db"), NoWrappers: true, NoLLM: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	if _, err := ws.KB.Ingest(context.Background(), ingest.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestHoverPluginFromConfiguration checks that hover and workspace
// symbols rank with the kb-plugin engine.json's hoverPlugin names, and
// with the first loaded kb-plugin of the kb stage's order when that one is
// disabled.
func TestHoverPluginFromConfiguration(t *testing.T) {
	disabled := func(ids ...string) string {
		s := `{"plugins": {`
		for i, id := range ids {
			if i > 0 {
				s += ","
			}
			s += `"` + id + `": {"enabled": false}`
		}
		return s + "}}"
	}
	tests := []struct {
		name string
		conf map[string]string
		want string
	}{
		{"default", nil, "kb-fast"},
		{"configured", map[string]string{"engine.json": `{"hoverPlugin": "kb-thinkingdb"}`}, "kb-thinkingdb"},
		{"kb-fast disabled", map[string]string{"plugins.json": disabled("kb-fast")}, "kb-balanced"},
		{"configured one disabled", map[string]string{
			"engine.json":  `{"hoverPlugin": "kb-thinkingdb"}`,
			"plugins.json": disabled("kb-thinkingdb", "kb-balanced"),
		}, "kb-fast"},
		{"kb order", map[string]string{
			"plugins.json": `{"plugins": {"kb-fast": {"enabled": false}}, "defaultOrder": {"kb": ["kb-thinkingdb", "kb-balanced"]}}`,
		}, "kb-thinkingdb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := openHoverWorkspace(t, tc.conf)
			got := "none"
			if p := retriever(ws); p != nil {
				got = p.Descriptor().ID
			}
			if got != tc.want {
				t.Fatalf("hover ranks with %s, want %s", got, tc.want)
			}
			if got := search(context.Background(), ws, "gravitational pull of the Moon", 5); len(got) == 0 || got[0].KU == nil || got[0].KU.SourceID != "tides.md" {
				t.Errorf("search through %s: %+v", tc.want, got)
			}
		})
	}
}

// TestHoverRepairsCorruptIndex garbles the hover kb-plugin's private
// index: hover's search must rebuild it from the stored KUs and answer,
// as mrpvm search does.
func TestHoverRepairsCorruptIndex(t *testing.T) {
	for _, id := range []string{"kb-fast", "kb-thinkingdb"} {
		t.Run(id, func(t *testing.T) {
			ws := openHoverWorkspace(t, map[string]string{"engine.json": `{"hoverPlugin": "` + id + `"}`})
			storetest.Garble(t, ws.KB.Store().PluginStore(id))
			got := search(context.Background(), ws, "gravitational pull of the Moon", 5)
			if len(got) == 0 || got[0].KU == nil || got[0].KU.SourceID != "tides.md" {
				t.Fatalf("hover after garbling %s: %+v", id, got)
			}
		})
	}
}
