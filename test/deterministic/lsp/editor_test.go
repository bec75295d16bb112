package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/lsp"
	"github.com/mrpvm/mrpvm/test/internal/lspclient"
)

// note is one notification the server sent.
type note = lspclient.Note

// editor is a fake LSP client, lspclient's in-process mode, bound to a
// test and one workspace folder.
type editor struct {
	*lspclient.Client
	t    testing.TB
	root string
	db   string
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

func defaultCaps() map[string]any { return lspclient.Caps() }

// unpack writes a txtar archive from testdata into a new folder.
func unpack(t testing.TB, archive string) string {
	return testtree.Unpack(t, filepath.Join("testdata", archive))
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
	e := &editor{t: t, root: root, db: db, Client: lspclient.StartInProcess(lsp.Options{DBPath: db, UserDir: "-", NoLLM: true,
		Debounce: 20 * time.Millisecond, SnapshotDir: filepath.Join(tmp, "snapshots"), FirstIngestHook: o.firstIngestHook})}
	t.Cleanup(e.close)

	var initOpts any
	if o.initOpts != nil {
		initOpts = o.initOpts
	}
	begin := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.InitializeOnly(ctx, lspclient.Init{Root: root, Name: "ws", Caps: o.caps, Options: initOpts}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("initialize took %v", d)
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

// close shuts the server down and checks that it ended cleanly.
func (e *editor) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		e.t.Errorf("server: %v", err)
	}
}

func (e *editor) call(method string, params, result any) error {
	return e.callCtx(context.Background(), method, params, result)
}

func (e *editor) callCtx(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return e.Call(ctx, method, params, result)
}

func (e *editor) mustCall(method string, params, result any) {
	e.t.Helper()
	if err := e.call(method, params, result); err != nil {
		e.t.Fatal(err)
	}
}

func (e *editor) notify(method string, params any) {
	e.t.Helper()
	if err := e.Notify(context.Background(), method, params); err != nil {
		e.t.Fatalf("notify %s: %v", method, err)
	}
}

// waitFor waits until pred holds over the recorded notifications.
func (e *editor) waitFor(what string, timeout time.Duration, pred func(notes []note) bool) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := e.Wait(ctx, what, pred); err != nil {
		e.t.Fatalf("timed out: %v", err)
	}
}

// ingested counts mrpvm/didIngest notifications (for paths containing sub).
func ingested(notes []note, sub string) int { return lspclient.Count(notes, "mrpvm/didIngest", sub) }

// waitIngest waits for one more mrpvm/didIngest mentioning sub.
func (e *editor) waitIngest(sub string, timeout time.Duration) {
	e.t.Helper()
	before := ingested(e.Notes(), sub)
	if sub == "" && before > 0 {
		return
	}
	e.waitFor("mrpvm/didIngest "+sub, timeout, func(n []note) bool { return ingested(n, sub) > before })
}

// docParams are the params of a request about a whole document.
func docParams(uri string) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}}
}

func (e *editor) uri(rel string) string {
	return lsp.PathToURI(filepath.Join(e.root, filepath.FromSlash(rel)))
}

// hover asks for the hover at the first occurrence of needle in rel
// (plus delta characters) and returns its markdown ("" for null).
func (e *editor) hover(rel, needle string, delta int) string {
	e.t.Helper()
	line, char := e.find(rel, needle)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	md, err := e.Hover(ctx, e.uri(rel), line, char+delta)
	if err != nil {
		e.t.Fatal(err)
	}
	return md
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
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.Command(ctx, name, arg, result)
}

// progressEnded reports whether a $/progress begin and end came for one token.
func progressEnded(notes []note) bool { return !lspclient.ProgressEnd(notes, "").IsZero() }
