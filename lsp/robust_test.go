package lsp

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestMalformedFramesGetErrorRepliesAndServerStaysUp(t *testing.T) {
	rc := startInitialized(t)
	tests := []struct {
		name string
		body string
		id   string // expected id of the error reply
		code int
	}{
		{"not json", `{{{ garbage`, "null", -32700},
		{"binary", "\x00\x01\x02", "null", -32700},
		{"no method", `{"jsonrpc":"2.0","id":7}`, "7", -32600},
		{"wrong version", `{"jsonrpc":"1.0","id":8,"method":"x"}`, "8", -32600},
		{"unknown method", `{"jsonrpc":"2.0","id":9,"method":"nope/nothing","params":{}}`, "9", -32601},
		{"bad hover params", `{"jsonrpc":"2.0","id":10,"method":"textDocument/hover","params":[1,2]}`, "10", -32602},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rc.frame([]byte(tc.body))
			m, err := rc.response(tc.id, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if m.Error == nil || m.Error.Code != tc.code {
				t.Fatalf("want error %d, got %+v", tc.code, m)
			}
		})
	}
	// A broken header block: one parse error, then the server resynchronises.
	rc.c.Write([]byte("Content-Length: nope\r\n\r\nContent-Length: 0\r\n\r\n"))
	if m, err := rc.response("null", 5*time.Second); err != nil || m.Error == nil || m.Error.Code != -32700 {
		t.Fatalf("bad header: %v %+v", err, m)
	}
	// Still serving.
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "workspace/symbol", "params": map[string]any{"query": "x"}})
	if m, err := rc.response("99", 5*time.Second); err != nil || m.Error != nil {
		t.Fatalf("after garbage: %v %+v", err, m)
	}
}

func TestCancelRequestAnswers32800(t *testing.T) {
	root := t.TempDir()
	writeLoremPages(t, root, 600, func(i int) string { return fmt.Sprintf("d%d/page%d.md", i%10, i) })
	// No "initialized": nothing is ingested until the command below.
	rc := startOnWorkspace(t, root)
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
		"params": map[string]any{"command": "mrpvm.ingest", "arguments": []any{map[string]any{}}}})
	time.Sleep(20 * time.Millisecond)
	rc.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": 2}})
	m, err := rc.response("2", 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if m.Error == nil || m.Error.Code != -32800 {
		t.Fatalf("want -32800, got %+v %s", m.Error, m.Result)
	}
	// The server is still usable, and a fresh ingest completes.
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand",
		"params": map[string]any{"command": "mrpvm.stats"}})
	if m, err := rc.response("3", 10*time.Second); err != nil || m.Error != nil {
		t.Fatalf("stats after cancel: %v %+v", err, m.Error)
	}
}

func TestPanicBecomesErrorReply(t *testing.T) {
	requestHandlers["test/panic"] = func(*Server, ctxT, rawT) (any, error) { panic("boom") }
	defer delete(requestHandlers, "test/panic")
	rc := startInitialized(t)
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 5, "method": "test/panic"})
	m, err := rc.response("5", 5*time.Second)
	if err != nil || m.Error == nil || m.Error.Code != -32603 || !strings.Contains(m.Error.Message, "boom") {
		t.Fatalf("panic reply: %v %+v", err, m.Error)
	}
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 6, "method": "workspace/symbol", "params": map[string]any{"query": "x"}})
	if _, err := rc.response("6", 5*time.Second); err != nil {
		t.Fatalf("server died after a panic: %v", err)
	}
}

func TestEOFExitsCleanly(t *testing.T) {
	rc := startInitialized(t)
	rc.c.Close()
	select {
	case err := <-rc.done:
		if err != nil {
			t.Fatalf("EOF: %v", err)
		}
		rc.done <- nil
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit on EOF")
	}
}

// FuzzServer feeds one framed message after initialize and checks that the
// server still answers.
func FuzzServer(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nope.md"},"position":{"line":0,"character":3}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.md","version":1,"text":"# A\n\nb"}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.md","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":99},"end":{"line":0,"character":0}},"text":"x"}]}}`,
		`{"jsonrpc":"2.0","id":"s","method":"workspace/executeCommand","params":{"command":"mrpvm.kb","arguments":[{"action":"save"}]}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`,
		`{"jsonrpc":"2.0","id":3,"method":"$/cancelRequest","params":{"id":{}}}`,
		`null`, `{}`, `"\u0000"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if bytes.Contains(body, []byte("exit")) || bytes.Contains(body, []byte("WorkspaceFolders")) {
			t.Skip("exit ends the server; new folders would ingest arbitrary paths")
		}
		rc := startInitialized(t)
		rc.frame(body)
		rc.send(map[string]any{"jsonrpc": "2.0", "id": 424242, "method": "nope/alive"})
		if _, err := rc.response("424242", 5*time.Second); err != nil {
			t.Fatalf("server stopped answering after %q: %v", body, err)
		}
	})
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
