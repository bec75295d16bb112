package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestStressConcurrentRequestsCancellationsNotifications hammers one server
// with what an editor does at its busiest — requests answered on the read
// loop (initialize again, unknown methods: the pooled per-request path of
// jsonrpc2), requests released to run concurrently (hover, symbols,
// commands), $/cancelRequest for running, finished and unknown ids, text
// synchronisation notifications — from several
// goroutines at once, and checks that every call is answered exactly once
// with an expected outcome and that the server still shuts down cleanly.
//
// It guards against the crash the editor tests saw ("cannot create context
// from nil parent" in jsonrpc2's incomingRequest.Done): jsonrpc2 recycles the
// per-request context of a request answered on the read loop, so any context
// derived from it whose propagation goroutine runs after the handler
// returned reads a recycled request. Run it with -race -count=N.
func TestStressConcurrentRequestsCancellationsNotifications(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 20; i++ {
		body := fmt.Sprintf("# Topic %d\n\nTopic %d explains widget-%d and links to [next](t%d.md).\n", i, i, i, (i+1)%20)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("t%d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc := startRaw(t, Options{UserDir: "-", NoLLM: true, DBPath: filepath.Join(t.TempDir(), "kb.db"),
		Debounce: 5 * time.Millisecond})
	rc.initialize(map[string]any{"rootUri": pathToURI(root)})
	rc.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})

	const (
		workers = 4
		rounds  = 150
	)
	// Every call id is registered before it is sent; the collector checks
	// the answers against the allowed outcomes.
	type want struct {
		method string
		codes  map[int]bool // allowed error codes (0: a result)
	}
	var (
		mu      sync.Mutex
		pending = map[string]want{}
	)
	expect := func(id, method string, codes ...int) {
		w := want{method: method, codes: map[int]bool{}}
		for _, c := range codes {
			w.codes[c] = true
		}
		mu.Lock()
		pending[id] = w
		mu.Unlock()
	}
	call := func(id int64, method string, params any, codes ...int) map[string]any {
		expect(strconv.FormatInt(id, 10), method, codes...)
		return map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}
	}
	const cancelled = -32800

	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := pathToURI(filepath.Join(root, fmt.Sprintf("t%d.md", w)))
			rc.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
				"textDocument": map[string]any{"uri": doc, "languageId": "markdown", "version": 1, "text": "# Open\n\nwidget-1\n"}}})
			pos := map[string]any{"textDocument": map[string]any{"uri": doc}, "position": map[string]any{"line": 2, "character": 2}}
			for r := 0; r < rounds; r++ {
				base := int64(1000 + (w*rounds+r)*10)
				switch r % 6 {
				case 0: // answered on the read loop: the pooled request path
					rc.send(call(base, "initialize", map[string]any{}, -32600))
					rc.send(call(base+1, "nope/unknown", nil, -32601))
				case 1: // released requests, the first cancelled at once
					rc.send(call(base, "textDocument/hover", pos, 0, cancelled))
					rc.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": base}})
					rc.send(call(base+1, "workspace/symbol", map[string]any{"query": "topic"}, 0, cancelled))
				case 2: // a command, cancelled after it may have finished
					rc.send(call(base, "workspace/executeCommand", map[string]any{"command": "mrpvm.stats"}, 0, cancelled))
					rc.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": base}})
					rc.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": "no-such-request"}})
				case 3: // notifications between requests
					rc.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
						"textDocument":   map[string]any{"uri": doc, "version": r + 2},
						"contentChanges": []any{map[string]any{"text": fmt.Sprintf("# Open %d\n\nwidget-%d\n", r, r%20)}}}})
					rc.send(call(base, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": doc}}, 0, cancelled))
				case 4: // a request rejected on the read loop right after a notification
					rc.send(map[string]any{"jsonrpc": "2.0", "method": "$/setTrace", "params": map[string]any{"value": "off"}})
					rc.send(call(base, "nope/after-notification", nil, -32601))
					rc.send(call(base+1, "textDocument/hover", pos, 0, cancelled))
					rc.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": base + 1}})
				case 5: // definition and completion, string ids
					id := fmt.Sprintf("s-%d", base)
					expect(id, "textDocument/definition", 0, cancelled)
					rc.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "textDocument/definition", "params": pos})
					rc.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": id}})
				}
			}
			rc.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didClose", "params": map[string]any{
				"textDocument": map[string]any{"uri": doc}}})
		}()
	}
	sent := make(chan struct{})
	go func() { wg.Wait(); close(sent) }()

	// Collect until every registered call is answered.
	answered := map[string]int{}
	deadline := time.Now().Add(60 * time.Second)
	allAnswered := func() bool {
		select {
		case <-sent:
		default:
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		return len(pending) == 0
	}
	for !allAnswered() {
		var m message
		select {
		case m = <-rc.in:
		case err := <-rc.rerr:
			mu.Lock()
			t.Fatalf("the server died (%v) with %d calls unanswered", err, len(pending))
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				mu.Lock()
				t.Fatalf("%d calls unanswered after 60s", len(pending))
			}
			continue
		}
		if m.Method != "" || len(m.ID) == 0 {
			continue // notifications and the server's own requests
		}
		id := string(m.ID)
		if s, err := strconv.Unquote(id); err == nil {
			id = s
		}
		answered[id]++
		if answered[id] > 1 {
			t.Errorf("call %s answered %d times", id, answered[id])
		}
		mu.Lock()
		w, ok := pending[id]
		delete(pending, id)
		mu.Unlock()
		if !ok {
			t.Errorf("answer to an unknown call %s: %+v", id, m)
			continue
		}
		code := 0
		if m.Error != nil {
			code = m.Error.Code
		}
		if !w.codes[code] {
			t.Errorf("%s (id %s): unexpected outcome %d %+v", w.method, id, code, m.Error)
		}
		// The method named in the reply was read after the read loop moved
		// on: it must not alias the reused frame buffer.
		if want := "request_cancelled: " + w.method + " was cancelled"; code == cancelled && m.Error.Message != want {
			t.Errorf("id %s: cancellation reply %q, want %q", id, m.Error.Message, want)
		}
	}
	if n := len(answered); n < workers*rounds {
		t.Fatalf("only %d calls answered", n)
	}

	// Still serving, and a clean shutdown + exit.
	rc.shutdownAndExit(t, 7, "after the stress")
}
