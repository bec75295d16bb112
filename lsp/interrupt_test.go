package lsp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestShutdownExitDuringIngest answers shutdown and ends on exit while the
// first ingest of a hostile workspace is running: the ingest is cancelled,
// not waited for.
func TestShutdownExitDuringIngest(t *testing.T) {
	root := t.TempDir()
	for i, unit := range []string{"*a_", "[a](", "> ", "["} {
		body := bytes.Repeat([]byte(unit), (1<<20)/len(unit))
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("adv%d.md", i)), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 600; i++ {
		body := fmt.Sprintf("# Page %d\n\n%s\n", i, strings.Repeat("Lorem ipsum dolor sit amet consectetur adipiscing elit. ", 80))
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("page%d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc := startRaw(t, Options{UserDir: "-", NoLLM: true, DBPath: filepath.Join(t.TempDir(), "kb.db")})
	rc.initialize(map[string]any{"rootUri": pathToURI(root)})
	rc.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	time.Sleep(200 * time.Millisecond)
	t0 := time.Now()
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
	if m, err := rc.response("2", 10*time.Second); err != nil || m.Error != nil {
		t.Fatalf("shutdown during ingest: %v %+v", err, m.Error)
	}
	rc.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	select {
	case err := <-rc.done:
		rc.done <- err // for the cleanup
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve still running 10s after shutdown and exit during an ingest")
	}
	t.Logf("shutdown+exit took %v", time.Since(t0).Round(time.Millisecond))
}

// TestDocumentSymbolGuarded asks for the symbols of an open document built
// to make Markdown parsing superlinear, and of one over the size cap.
func TestDocumentSymbolGuarded(t *testing.T) {
	rc := startRaw(t, Options{UserDir: "-", NoLLM: true})
	rc.initialize(map[string]any{"rootUri": nil})
	open := func(uri, text string) {
		rc.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": text}}})
	}
	open("file:///adv.md", "# Title\n\n"+strings.Repeat("*a_", 100_000))
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
		"params": map[string]any{"textDocument": map[string]any{"uri": "file:///adv.md"}}})
	m, err := rc.response("2", 20*time.Second)
	if err != nil || m.Error != nil {
		t.Fatalf("documentSymbol on an adversarial document: %v %+v", err, m.Error)
	}
	if !bytes.Contains(m.Result, []byte(`"Title"`)) {
		t.Errorf("symbols lack the heading: %.200s", m.Result)
	}

	open("file:///big.md", strings.Repeat("# big\n\nsome text\n", MaxDiagnosedBytes/16))
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "textDocument/documentSymbol",
		"params": map[string]any{"textDocument": map[string]any{"uri": "file:///big.md"}}})
	m, err = rc.response("3", 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if m.Error == nil || !strings.Contains(m.Error.Message, "doc_too_large") {
		t.Fatalf("documentSymbol on a document over the cap: want doc_too_large, got %+v %.100s", m.Error, m.Result)
	}
}
