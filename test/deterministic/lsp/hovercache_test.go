package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

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
		e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": u}})
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
		e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": e.uri("notes/defs.md")}})
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
