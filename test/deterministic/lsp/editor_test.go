// Package lsp_test drives `mrpvm lsp` end to end: a fake editor talks to the
// server over a pipe with go.lsp.dev/jsonrpc2, as VS Code or Neovim would.
package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"golang.org/x/tools/txtar"

	"github.com/mrpvm/mrpvm/lsp"
)

// note is one notification the server sent.
type note struct {
	Method string
	Params json.RawMessage
}

// editor is a fake LSP client that records what the server sends.
type editor struct {
	t       testing.TB
	root    string
	db      string
	conn    jsonrpc2.Conn
	served  chan error
	cancel  context.CancelFunc
	mu      sync.Mutex
	notes   []note
	changed chan struct{} // signalled on every notification
	created []string      // progress tokens created
	regs    []string      // registered methods
	config  json.RawMessage
}

// editorOptions tune a fake editor.
type editorOptions struct {
	caps     map[string]any // client capabilities; nil: progress + dynamic watch + configuration
	initOpts map[string]any
	db       string // "" : <tmp>/kb.db
	root     string // "" : unpack the archive
	noWait   bool   // do not wait for the first ingest
	// beforeInitialized runs between initialize and initialized (documents
	// opened there are open when the first ingest starts).
	beforeInitialized func(e *editor)
	// firstIngestHook is lsp.Options.FirstIngestHook.
	firstIngestHook func(done, total int)
}

func defaultCaps() map[string]any {
	return map[string]any{
		"window": map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{
			"configuration":         true,
			"workspaceFolders":      true,
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		},
	}
}

// unpack writes a txtar archive from testdata into a new folder.
func unpack(t testing.TB, archive string) string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", archive))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// start runs a server in-process over a pipe and initializes it.
func start(t testing.TB, archive string, o editorOptions) *editor {
	t.Helper()
	root := o.root
	if root == "" {
		root = unpack(t, archive)
	}
	tmp := t.TempDir()
	db := o.db
	if db == "" {
		db = filepath.Join(tmp, "kb.db")
	}
	t.Setenv("XDG_DATA_HOME", filepath.Join(tmp, "data"))
	serverSide, clientSide := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	e := &editor{t: t, root: root, db: db, served: make(chan error, 1), cancel: cancel, changed: make(chan struct{}, 1)}
	go func() {
		e.served <- lsp.Serve(ctx, serverSide, lsp.Options{DBPath: db, UserDir: "-", NoLLM: true, Debounce: 20 * time.Millisecond,
			SnapshotDir: filepath.Join(tmp, "snapshots"), FirstIngestHook: o.firstIngestHook})
	}()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(clientSide))
	e.conn.Go(ctx, e.handle)
	t.Cleanup(func() { e.close() })

	caps := o.caps
	if caps == nil {
		caps = defaultCaps()
	}
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          lsp.PathToURI(root),
		"capabilities":     caps,
		"workspaceFolders": []map[string]any{{"uri": lsp.PathToURI(root), "name": "ws"}},
	}
	if o.initOpts != nil {
		params["initializationOptions"] = o.initOpts
	}
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	begin := time.Now()
	e.mustCall("initialize", params, &res)
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("initialize took %v", d)
	}
	if res.Capabilities["hoverProvider"] != true {
		t.Fatalf("capabilities: %v", res.Capabilities)
	}
	if o.beforeInitialized != nil {
		o.beforeInitialized(e)
	}
	e.notify("initialized", map[string]any{})
	if !o.noWait {
		e.waitIngest("", 20*time.Second)
	}
	return e
}

func (e *editor) close() {
	e.mu.Lock()
	conn := e.conn
	e.conn = nil
	e.mu.Unlock()
	if conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = conn.Call(ctx, "shutdown", nil, nil)
	_ = conn.Notify(ctx, "exit", nil)
	select {
	case err := <-e.served:
		if err != nil {
			e.t.Errorf("server ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		e.t.Errorf("server did not exit")
	}
	conn.Close()
	e.cancel()
}

// handle answers the server's requests and records its notifications.
func (e *editor) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := append(json.RawMessage(nil), req.Params()...)
	e.mu.Lock()
	defer e.mu.Unlock()
	switch strings.Clone(req.Method()) {
	case "window/workDoneProgress/create":
		var p struct {
			Token any `json:"token"`
		}
		_ = json.Unmarshal(params, &p)
		e.created = append(e.created, fmt.Sprint(p.Token))
		return nil, nil
	case "client/registerCapability":
		var p struct {
			Registrations []struct {
				Method string `json:"method"`
			} `json:"registrations"`
		}
		_ = json.Unmarshal(params, &p)
		for _, r := range p.Registrations {
			e.regs = append(e.regs, r.Method)
		}
		return nil, nil
	case "workspace/configuration":
		if e.config != nil {
			return jsonrpc2.RawMessage("[" + string(e.config) + "]"), nil
		}
		return jsonrpc2.RawMessage("[null]"), nil
	case "window/showMessageRequest":
		return nil, nil
	}
	if req.IsCall() {
		return nil, jsonrpc2.ErrMethodNotFound
	}
	e.notes = append(e.notes, note{Method: strings.Clone(req.Method()), Params: params})
	select {
	case e.changed <- struct{}{}:
	default:
	}
	return nil, nil
}

func (e *editor) call(method string, params, result any) error {
	return e.callCtx(context.Background(), method, params, result)
}

func (e *editor) callCtx(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var raw jsonrpc2.RawMessage
	if _, err := e.conn.Call(ctx, method, params, &raw); err != nil {
		return err
	}
	if result != nil {
		return json.Unmarshal(raw, result)
	}
	return nil
}

func (e *editor) mustCall(method string, params, result any) {
	e.t.Helper()
	if err := e.call(method, params, result); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

func (e *editor) notify(method string, params any) {
	e.t.Helper()
	if err := e.conn.Notify(context.Background(), method, params); err != nil {
		e.t.Fatalf("notify %s: %v", method, err)
	}
}

// waitFor waits until pred holds over the recorded notifications.
func (e *editor) waitFor(what string, timeout time.Duration, pred func(notes []note) bool) {
	e.t.Helper()
	deadline := time.After(timeout)
	for {
		e.mu.Lock()
		ok := pred(e.notes)
		e.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-e.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			e.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// ingested counts mrpvm/didIngest notifications (for paths containing sub).
func ingested(notes []note, sub string) int {
	n := 0
	for _, x := range notes {
		if x.Method == "mrpvm/didIngest" && strings.Contains(string(x.Params), sub) {
			n++
		}
	}
	return n
}

// waitIngest waits for one more mrpvm/didIngest mentioning sub.
func (e *editor) waitIngest(sub string, timeout time.Duration) {
	e.t.Helper()
	e.mu.Lock()
	before := ingested(e.notes, sub)
	e.mu.Unlock()
	if sub == "" && before > 0 {
		return
	}
	e.waitFor("mrpvm/didIngest "+sub, timeout, func(n []note) bool { return ingested(n, sub) > before })
}

func (e *editor) uri(rel string) string {
	return lsp.PathToURI(filepath.Join(e.root, filepath.FromSlash(rel)))
}

// hover asks for the hover at the first occurrence of needle in rel
// (plus delta characters) and returns its markdown ("" for null).
func (e *editor) hover(rel, needle string, delta int) string {
	e.t.Helper()
	line, char := e.find(rel, needle)
	var h *struct {
		Contents struct {
			Kind  string `json:"kind"`
			Value string `json:"value"`
		} `json:"contents"`
	}
	e.mustCall("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": e.uri(rel)},
		"position":     map[string]any{"line": line, "character": char + delta},
	}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

// find returns the position of needle in a file (the overlay is not consulted).
func (e *editor) find(rel, needle string) (int, int) {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return findIn(e.t, string(b), needle)
}

func findIn(t testing.TB, text, needle string) (int, int) {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not found", needle)
	}
	line := strings.Count(text[:i], "\n")
	col := i - (strings.LastIndexByte(text[:i], '\n') + 1)
	return line, col
}

// command runs workspace/executeCommand with one object argument.
func (e *editor) command(name string, arg any, result any) error {
	params := map[string]any{"command": name}
	if arg != nil {
		params["arguments"] = []any{arg}
	}
	return e.call("workspace/executeCommand", params, result)
}

// progressEnded reports whether a $/progress begin and end came for one token.
func progressEnded(notes []note) bool {
	begun := map[string]bool{}
	for _, n := range notes {
		if n.Method != "$/progress" {
			continue
		}
		var p struct {
			Token any `json:"token"`
			Value struct {
				Kind string `json:"kind"`
			} `json:"value"`
		}
		_ = json.Unmarshal(n.Params, &p)
		tok := fmt.Sprint(p.Token)
		switch p.Value.Kind {
		case "begin":
			begun[tok] = true
		case "end":
			if begun[tok] {
				return true
			}
		}
	}
	return false
}
