// Package lsp is the mrpvm language server: LSP over a byte stream (stdio
// in `mrpvm lsp`), one knowledge base per workspace folder kept current in
// the background, hover and symbols from Knowledge Units, diagnostics for
// plugin files, and the mrpvm.* commands that reach the plugin VM.
//
// Concurrency model. jsonrpc2 runs a handler inline on its read loop unless
// the handler releases itself with jsonrpc2.Async. Notifications (text
// synchronisation, watched files, folders) are handled inline, so they are
// applied in wire order and are always visible to the requests that follow
// them; they only update in-memory state and schedule background work.
// Every request except initialize and shutdown is released at once, so no
// request waits behind a long command. Calls to the client (progress
// tokens, registrations, configuration) are only made from goroutines,
// never from the read loop.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/plugins/sdk"
	"github.com/mrpvm/mrpvm/version"
)

// CodeRequestCancelled is the LSP error code of a cancelled request.
const CodeRequestCancelled jsonrpc2.Code = -32800

// Options configure a Server.
type Options struct {
	// DBPath is the knowledge base file of the first workspace folder
	// ("" : the engine's default path for that folder).
	DBPath string
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
	// UserDir is the user configuration folder ("" : default, "-" : none).
	UserDir string
	// SnapshotDir holds mrpvm.kb snapshots ("" : DefaultSnapshotDir()).
	SnapshotDir string
	// Debounce delays re-ingesting files changed on disk (watched files) and
	// publishing diagnostics after edits (default 150ms), so a burst (a
	// branch switch, typing) is handled once.
	Debounce time.Duration
	// SaveDebounce delays re-ingesting a saved file (default 0: at once; a
	// save is one deliberate event and re-ingesting one file takes a few
	// milliseconds).
	SaveDebounce time.Duration
	// NoLLM keeps the LLM bridge out even when an endpoint is configured.
	NoLLM bool
	// OnShutdown, when set, runs when the client sends shutdown, before
	// anything is closed (mrpvm lsp --memprofile writes a heap profile there).
	OnShutdown func()
	// FirstIngestHook, when set, is called on the ingest's goroutine after
	// each source the first whole-folder ingest of a folder commits; the
	// ingest waits for it to return (tests hold the ingest at a known point
	// with it).
	FirstIngestHook func(done, total int)
}

// Settings are the client's settings, from initializationOptions or
// workspace/configuration (section "mrpvm").
type Settings struct {
	DBPath      string `json:"dbPath,omitempty"`
	UserDir     string `json:"userDir,omitempty"`
	SnapshotDir string `json:"snapshotDir,omitempty"`
	NoLLM       *bool  `json:"noLLM,omitempty"`
	// NoWatcher turns the built-in file watcher off.
	NoWatcher bool `json:"noWatcher,omitempty"`
	// LLM is the model endpoint laid over the default role of
	// llm-role-settings.json (roles and plugin overrides of the files still
	// win; unset fields fall back to the files, then MRPVM_LLM_*). Like the
	// user's configuration folder it is trusted: editors should pass
	// user-scope values only, never a workspace's.
	LLM *sdk.RoleSetting `json:"llm,omitempty"`
	// Plugins enables (true) or disables (false) plugins by id over the
	// configuration files (the mrpvm.plugins setting); plugins it does not
	// name keep the files' state. A change reloads every folder. Like llm
	// it is trusted: editors should pass user-scope values only.
	Plugins map[string]bool `json:"plugins,omitempty"`
	// Hover says what hover shows: "terms" (default: the unit that defines
	// or describes the term, links and plugin ids), "links" (links and
	// plugin ids only) or "off".
	Hover string `json:"hover,omitempty"`
	// AskWaitMs is how long mrpvm.ask waits for a running first ingest to
	// finish before answering from a partial knowledge base (the answer then
	// says so); nil: DefaultAskWait, 0: do not wait.
	AskWaitMs *int `json:"askWaitMs,omitempty"`
	// Exclude are gitignore-style patterns, relative to each workspace
	// folder, of files never ingested, added to engine.json's exclude. A
	// change reloads every folder.
	Exclude []string `json:"exclude,omitempty"`
}

// Hover setting values.
const (
	HoverTerms = "terms"
	HoverLinks = "links"
	HoverOff   = "off"
)

// DefaultAskWait is how long a question waits for the first ingest.
const DefaultAskWait = 3 * time.Second

// validHover reports whether v is a hover setting value ("" : default).
func validHover(v string) bool {
	return v == "" || v == HoverTerms || v == HoverLinks || v == HoverOff
}

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	WorkDoneProgress   bool
	DynamicWatch       bool
	Configuration      bool
	WorkspaceFolders   bool
	ShowMessageRequest bool
}

// Server is one language server connection.
type Server struct {
	opt  Options
	log  *slog.Logger
	conn jsonrpc2.Conn

	ctx    context.Context // lives until the connection ends
	cancel context.CancelFunc
	bg     sync.WaitGroup

	mu          sync.Mutex
	initialized bool // initialize answered
	shutdown    bool
	exitCalled  bool
	caps        clientCaps
	settings    Settings
	folders     []*folder
	// Workspace roots (roots.go): findRoots serves a folder per opened
	// file; rootNoted are the folders already told about, rootPending the
	// messages held until initialized (rootsLive).
	findRoots   bool
	rootNoted   map[string]bool
	rootPending []rootMessage
	rootsLive   bool

	// inflight maps the ids of running requests to their cancel functions.
	// (jsonrpc2.CancelHandler is not used: it derives a context from the
	// pooled per-request context, which the context package may still read
	// after the request was recycled.)
	imu      sync.Mutex
	inflight map[jsonrpc2.ID]context.CancelFunc

	dmu     sync.Mutex
	dtimers map[string]*time.Timer // debounced diagnostics per URI
	ltimers map[string]*time.Timer // debounced refreshes of the files linking to a file

	docs    *docStore
	watcher *watcher
	tokens  atomic.Int64
	exited  chan struct{}
}

// drainTimeout bounds how long Serve waits, after the knowledge bases are
// closed, for the connection to end.
const drainTimeout = 500 * time.Millisecond

// ExitError is returned by Serve when the client sent exit without a prior
// shutdown (exit status 1 in the LSP specification).
var ExitError = errors.New("lsp: exit without shutdown")

// Serve runs the server on rwc until the client exits or the stream ends,
// then closes every knowledge base cleanly.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opt Options) error {
	if opt.Debounce <= 0 {
		opt.Debounce = 150 * time.Millisecond
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{opt: opt, log: log, docs: newDocStore(), exited: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(ctx)
	stream, err := newTolerantStream(jsonrpc2.NewHeaderStream(rwc), rwc, s.logf)
	if err != nil {
		return err
	}
	s.inflight = map[jsonrpc2.ID]context.CancelFunc{}
	s.conn = jsonrpc2.NewConn(stream, jsonrpc2.WithPreempter(cancelPreempter{cancel: s.cancelRequest}))
	s.conn.Go(s.ctx, s.handle)
	select {
	case <-s.conn.Done():
	case <-s.exited:
	case <-ctx.Done():
	}
	s.cancel()
	s.closeAll()
	// Close waits for the handlers still running (they see the cancelled
	// context) and for the read loop to end, which closing the stream
	// interrupts (see Stdio). The knowledge bases are closed already and the
	// client has gone, so a read that cannot be interrupted (standard input
	// outside Linux) delays the end by drainTimeout at most.
	done := make(chan struct{})
	go func() { _ = s.conn.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(drainTimeout):
		s.logf("connection did not drain in %v", drainTimeout)
	}
	s.mu.Lock()
	bad := s.exitCalled && !s.shutdown
	s.mu.Unlock()
	if bad {
		return ExitError
	}
	if err := s.conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		s.logf("connection ended: %v", err)
	}
	return nil
}

// cancelPreempter handles $/cancelRequest ahead of the request it cancels.
type cancelPreempter struct{ cancel func(jsonrpc2.ID) }

func (p cancelPreempter) Preempt(_ context.Context, req *jsonrpc2.Request) (any, error) {
	if req.Method() != "$/cancelRequest" {
		return nil, jsonrpc2.ErrNotHandled
	}
	var params struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(req.Params(), &params); err == nil {
		var n int64
		var str string
		if json.Unmarshal(params.ID, &n) == nil {
			p.cancel(jsonrpc2.NewNumberID(n))
		} else if json.Unmarshal(params.ID, &str) == nil {
			p.cancel(jsonrpc2.NewStringID(str))
		}
	}
	return struct{}{}, nil
}

// cancelRequest cancels the running request with that id, if any.
func (s *Server) cancelRequest(id jsonrpc2.ID) {
	s.imu.Lock()
	cancel := s.inflight[id]
	s.imu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *Server) logf(format string, args ...any) {
	s.log.Info(fmt.Sprintf(format, args...))
}

// rpcError builds a JSON-RPC error whose message starts with a stable code.
func rpcError(code jsonrpc2.Code, stable, format string, args ...any) error {
	return jsonrpc2.NewError(code, stable+": "+fmt.Sprintf(format, args...))
}

// handle is the jsonrpc2 handler. reqCtx is jsonrpc2's per-request
// context, and it is not an ordinary context: jsonrpc2 v1.0.1 pools the
// request object that implements it and recycles it (parent set to nil) as
// soon as a handler that did not call jsonrpc2.Async returns. Any context
// derived from it outlives that moment — context.WithCancel(reqCtx) starts a
// goroutine that calls reqCtx.Done() later, which then panics with "cannot
// create context from nil parent" and kills the server (jsonrpc2's own
// CancelHandler does exactly this). So reqCtx is used for one thing only,
// releasing the read loop with jsonrpc2.Async, and is never handed to any
// other code: requests run under a context derived from the server's own
// (cancelled through s.inflight by $/cancelRequest), notifications and
// read-loop answers need none.
func (s *Server) handle(reqCtx context.Context, req *jsonrpc2.Request) (any, error) {
	return s.dispatch(req, func() { jsonrpc2.Async(reqCtx) })
}

// dispatch handles one incoming message; release lets the read loop go on
// (it must be called at most once, and only for a call). dispatch never
// lets a panic escape (a panicking jsonrpc2 handler fails the whole
// connection) and never returns an error for a notification (that too would
// end the connection).
func (s *Server) dispatch(req *jsonrpc2.Request, release func()) (result any, err error) {
	// The method string borrows jsonrpc2's frame buffer, which the read loop
	// reuses for the next message once release is called: keep a copy.
	method := strings.Clone(req.Method())
	isCall := req.IsCall()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic in handler", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			result, err = nil, nil
			if isCall {
				err = jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("internal_error: %s panicked: %v", method, r))
			}
		}
	}()
	if !isCall {
		s.notification(method, json.RawMessage(req.Params()))
		return nil, nil
	}
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case method == "initialize":
		if initialized {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "already_initialized: initialize was already called")
		}
		return s.initialize(json.RawMessage(req.Params()))
	case !initialized:
		return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "not_initialized: initialize first")
	case method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		if s.opt.OnShutdown != nil {
			runtime.GC()
			s.opt.OnShutdown()
		}
		return nil, nil
	case shutdown:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "shutting_down: the server is shutting down")
	}
	h, ok := requestHandlers[method]
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method_not_found: "+method)
	}
	params := append(json.RawMessage(nil), req.Params()...)
	// Register before releasing the read loop, so a $/cancelRequest that
	// follows the request on the wire always finds it.
	id := req.ID()
	rctx, cancel := context.WithCancel(s.ctx)
	s.imu.Lock()
	s.inflight[id] = cancel
	s.imu.Unlock()
	defer func() {
		s.imu.Lock()
		delete(s.inflight, id)
		s.imu.Unlock()
		cancel()
	}()
	release()
	res, err := h(s, rctx, params)
	if rctx.Err() != nil && s.ctx.Err() == nil {
		return nil, jsonrpc2.NewError(CodeRequestCancelled, "request_cancelled: "+method+" was cancelled")
	}
	if err != nil {
		var je *jsonrpc2.Error
		if errors.As(err, &je) {
			return nil, je
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	return res, nil
}

type requestHandler func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

var requestHandlers map[string]requestHandler

func init() {
	requestHandlers = map[string]requestHandler{
		"textDocument/hover":          (*Server).hover,
		"textDocument/documentSymbol": (*Server).documentSymbol,
		"textDocument/definition":     (*Server).definition,
		"textDocument/completion":     (*Server).completion,
		"workspace/symbol":            (*Server).workspaceSymbol,
		"workspace/executeCommand":    (*Server).executeCommand,
		"textDocument/references":     (*Server).references,
		"textDocument/prepareRename":  (*Server).prepareRename,
		"textDocument/rename":         (*Server).rename,
		"textDocument/codeLens":       (*Server).codeLens,
		"textDocument/documentLink":   (*Server).documentLink,
		"textDocument/foldingRange":   (*Server).foldingRange,
		"textDocument/codeAction":     (*Server).codeAction,
		"workspace/willRenameFiles":   (*Server).willRenameFiles,
	}
}

// notification handles one notification inline, in wire order.
func (s *Server) notification(method string, params json.RawMessage) {
	s.mu.Lock()
	initialized := s.initialized
	s.mu.Unlock()
	if method == "exit" {
		s.mu.Lock()
		s.exitCalled = true
		s.mu.Unlock()
		select {
		case <-s.exited:
		default:
			close(s.exited)
		}
		return
	}
	if !initialized {
		return // notifications before initialize are dropped (LSP)
	}
	var err error
	switch method {
	case "initialized":
		s.onInitialized()
	case "textDocument/didOpen":
		err = s.didOpen(params)
	case "textDocument/didChange":
		err = s.didChange(params)
	case "textDocument/didClose":
		err = s.didClose(params)
	case "textDocument/didSave":
		err = s.didSave(params)
	case "workspace/didChangeWatchedFiles":
		err = s.didChangeWatchedFiles(params)
	case "workspace/didRenameFiles":
		err = s.didRenameFiles(params)
	case "workspace/didChangeWorkspaceFolders":
		err = s.didChangeWorkspaceFolders(params)
	case "workspace/didChangeConfiguration":
		s.goBG(func() { s.pullConfiguration() })
	default:
		// $/setTrace, $/progress from the client and unknown notifications.
	}
	if err != nil {
		s.log.Warn("notification failed", "method", method, "err", err)
	}
}

// goBG runs fn on a goroutine tied to the server's lifetime.
func (s *Server) goBG(fn func()) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panic in background work", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			}
		}()
		fn()
	}()
}

// notify sends a notification to the client, logging failures.
func (s *Server) notify(method string, params any) {
	b, err := marshal(params)
	if err != nil {
		s.log.Error("encode notification", "method", method, "err", err)
		return
	}
	if err := s.conn.Notify(s.ctx, method, jsonrpc2.RawMessage(b)); err != nil && s.ctx.Err() == nil {
		s.log.Warn("notify", "method", method, "err", err)
	}
}

// call sends a request to the client. Never call it from the read loop.
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	b, err := marshal(params)
	if err != nil {
		return err
	}
	var raw jsonrpc2.RawMessage
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := s.conn.Call(ctx, method, jsonrpc2.RawMessage(b), &raw); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if result != nil && len(raw) > 0 {
		return json.Unmarshal(raw, result)
	}
	return nil
}

// showMessage shows a message in the editor.
func (s *Server) showMessage(typ protocol.MessageType, text string) {
	s.notify("window/showMessage", map[string]any{"type": typ, "message": text})
}

// marshal encodes a result or params: protocol types through the protocol
// package's union-aware codec, everything else with encoding/json.
func marshal(v any) (jsonrpc2.RawMessage, error) {
	switch v.(type) {
	case nil:
		return jsonrpc2.RawMessage("null"), nil
	case jsonrpc2.RawMessage:
		return v.(jsonrpc2.RawMessage), nil
	case *protocol.Hover, []protocol.DocumentSymbol, []protocol.Location, *protocol.PublishDiagnosticsParams:
		b, err := protocol.Marshal(v)
		return jsonrpc2.RawMessage(b), err
	}
	if fromProtocol(v) {
		b, err := protocol.Marshal(v)
		return jsonrpc2.RawMessage(b), err
	}
	b, err := json.Marshal(v)
	return jsonrpc2.RawMessage(b), err
}

// fromProtocol reports whether v is a go.lsp.dev/protocol type (or a
// pointer to or slice of one), which only the protocol package's codec
// encodes right (its unions and optional fields).
func fromProtocol(v any) bool {
	t := reflect.TypeOf(v)
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice) {
		t = t.Elem()
	}
	return t != nil && t.PkgPath() == "go.lsp.dev/protocol"
}

// initialize records the client's capabilities and settings, starts
// opening the folders' knowledge bases in the background and answers at once.
func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: initialize: "+err.Error())
		}
	}
	caps := clientCaps{
		WorkDoneProgress:   p.Capabilities.Window.WorkDoneProgress,
		DynamicWatch:       p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration,
		Configuration:      p.Capabilities.Workspace.Configuration,
		WorkspaceFolders:   p.Capabilities.Workspace.WorkspaceFolders,
		ShowMessageRequest: true,
	}
	var st Settings
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		if err := json.Unmarshal(p.InitializationOptions, &st); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_settings: initializationOptions: "+err.Error())
		}
	}
	if !validHover(st.Hover) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("bad_settings: initializationOptions: hover is %q; want terms, links or off", st.Hover))
	}
	var named []folderRef
	for _, f := range p.WorkspaceFolders {
		named = append(named, f)
	}
	if len(named) == 0 {
		u := p.RootURI
		if u == "" && p.RootPath != "" {
			u = pathToURI(p.RootPath)
		}
		if u != "" {
			named = append(named, folderRef{URI: u, Name: filepath.Base(uriToPath(u))})
		}
	}
	var roots []folderRef
	for _, r := range named {
		if s.acceptRoot(uriToPath(r.URI)) {
			roots = append(roots, r)
		}
	}
	s.mu.Lock()
	s.caps = caps
	s.settings = st
	s.initialized = true
	if len(roots) == 0 {
		s.findRoots = true // a single file opened with no folder
	}
	s.mu.Unlock()
	if bad := badGlobs(st.Exclude); bad != "" {
		s.rootNote(protocol.MessageTypeWarning, "settings:exclude", "mrpvm: the exclude setting: "+bad)
	}
	for i, r := range roots {
		s.addFolder(r, i == 0)
	}
	return jsonrpc2.RawMessage(mustJSON(initializeResult())), nil
}

// Commands lists the workspace/executeCommand ids.
var Commands = []string{"mrpvm.ask", "mrpvm.search", "mrpvm.ingest", "mrpvm.plugins", "mrpvm.trace", "mrpvm.kb", "mrpvm.stats"}

func initializeResult() map[string]any {
	return map[string]any{
		"capabilities": serverCapabilities(),
		"serverInfo":   map[string]any{"name": "mrpvm", "version": version.Version()},
	}
}

// serverCapabilities is the capabilities part of the initialize result.
func serverCapabilities() json.RawMessage {
	yes := true
	incremental := protocol.TextDocumentSyncKindIncremental
	no := false
	md := func(kind protocol.FileOperationPatternKind, glob string) protocol.FileOperationFilter {
		scheme := "file"
		return protocol.FileOperationFilter{Scheme: &scheme, Pattern: protocol.FileOperationPattern{Glob: glob, Matches: kind}}
	}
	caps := protocol.ServerCapabilities{
		PositionEncoding: protocol.PositionEncodingKindUTF16,
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &yes,
			Change:    &incremental,
			Save:      &protocol.SaveOptions{IncludeText: &no},
		},
		HoverProvider:           protocol.Boolean(true),
		DocumentSymbolProvider:  protocol.Boolean(true),
		WorkspaceSymbolProvider: protocol.Boolean(true),
		DefinitionProvider:      protocol.Boolean(true),
		ReferencesProvider:      protocol.Boolean(true),
		RenameProvider:          &protocol.RenameOptions{PrepareProvider: &yes},
		CodeLensProvider:        &protocol.CodeLensOptions{},
		DocumentLinkProvider:    &protocol.DocumentLinkOptions{},
		FoldingRangeProvider:    protocol.Boolean(true),
		CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
			protocol.CodeActionKindQuickFix, protocol.CodeActionKindEmpty}},
		CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{"\"", ":", " ", "[", "(", "#", "/"}},
		ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: Commands},
		Workspace: &protocol.WorkspaceOptions{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: &yes, ChangeNotifications: protocol.Boolean(true)},
			FileOperations: &protocol.FileOperationOptions{
				WillRename: protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
					md(protocol.FileOperationPatternKindFile, "**/*.{md,markdown}"),
					md(protocol.FileOperationPatternKindFolder, "**/*"),
				}},
				DidRename: protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
					md(protocol.FileOperationPatternKindFile, "**/*.{md,markdown}"),
					md(protocol.FileOperationPatternKindFolder, "**/*"),
				}},
			},
		},
	}
	b, err := protocol.Marshal(&caps)
	if err != nil {
		panic(fmt.Sprintf("server capabilities: %v", err))
	}
	return json.RawMessage(b)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// onInitialized registers file watching, pulls the configuration and
// starts the background ingest of every folder.
func (s *Server) onInitialized() {
	s.flushRootNotes()
	s.goBG(func() {
		s.mu.Lock()
		caps := s.caps
		noWatcher := s.settings.NoWatcher
		s.mu.Unlock()
		if caps.Configuration {
			s.pullConfiguration()
		}
		registered := false
		if caps.DynamicWatch {
			err := s.call(s.ctx, "client/registerCapability", map[string]any{
				"registrations": []map[string]any{{
					"id":     "mrpvm-watch",
					"method": "workspace/didChangeWatchedFiles",
					"registerOptions": map[string]any{"watchers": []map[string]any{
						{"globPattern": "**/*.md"},
						{"globPattern": "**/plugin.kus.md"},
						{"globPattern": "**/plugin.json"},
						{"globPattern": "**/manifest.json"},
						{"globPattern": "**/.mrpvm/*.json"},
					}},
				}},
			}, nil)
			if err != nil {
				s.log.Warn("dynamic registration of watched files failed; using the built-in watcher", "err", err)
			} else {
				registered = true
			}
		}
		if !registered && !noWatcher {
			w, err := newWatcher(s)
			if err != nil {
				s.log.Warn("built-in watcher", "err", err)
			} else {
				s.mu.Lock()
				s.watcher = w
				for _, f := range s.folders {
					w.add(f.root)
				}
				s.mu.Unlock()
			}
		}
	})
	for _, f := range s.folderList() {
		f := f
		s.goBG(func() { s.ingestFolder(s.ctx, f, nil) })
	}
}

// pullConfiguration asks the client for the "mrpvm" section.
func (s *Server) pullConfiguration() {
	s.mu.Lock()
	ok := s.caps.Configuration
	s.mu.Unlock()
	if !ok {
		return
	}
	var out []json.RawMessage
	if err := s.call(s.ctx, "workspace/configuration", map[string]any{
		"items": []map[string]any{{"section": "mrpvm"}},
	}, &out); err != nil {
		s.log.Warn("workspace/configuration", "err", err)
		return
	}
	if len(out) == 0 || string(out[0]) == "null" {
		return
	}
	var st Settings
	if err := json.Unmarshal(out[0], &st); err != nil {
		s.showMessage(protocol.MessageTypeWarning, "mrpvm: bad settings: "+err.Error())
		return
	}
	s.mu.Lock()
	// Settings that need a reopen (dbPath) take effect for folders opened
	// later; the snapshot folder and watcher switch apply at once.
	if st.SnapshotDir != "" {
		s.settings.SnapshotDir = st.SnapshotDir
	}
	if st.DBPath != "" && s.settings.DBPath == "" {
		s.settings.DBPath = st.DBPath
	}
	if st.LLM != nil {
		s.settings.LLM = st.LLM // folders opened from now on
	}
	s.settings.NoWatcher = st.NoWatcher
	if validHover(st.Hover) && st.Hover != "" {
		s.settings.Hover = st.Hover
	} else if st.Hover != "" {
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("mrpvm: the hover setting is %q; want terms, links or off", st.Hover))
	}
	if st.AskWaitMs != nil {
		s.settings.AskWaitMs = st.AskWaitMs
	}
	// A section without the plugins key leaves the switches as they are
	// (a client may pass them in initializationOptions only).
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(out[0], &keys)
	_, sent := keys["plugins"]
	switched := sent && !maps.Equal(st.Plugins, s.settings.Plugins)
	if switched {
		s.settings.Plugins = st.Plugins
	}
	_, sent = keys["exclude"]
	excluded := sent && !slices.Equal(st.Exclude, s.settings.Exclude)
	if excluded {
		s.settings.Exclude = st.Exclude
	}
	s.mu.Unlock()
	if excluded {
		if bad := badGlobs(st.Exclude); bad != "" {
			s.showMessage(protocol.MessageTypeWarning, "mrpvm: the exclude setting: "+bad)
		}
	}
	if switched || excluded {
		// The catalog is built when a workspace opens: reopen every folder
		// (as a saved configuration file does).
		for _, f := range s.folderList() {
			if switched {
				f.setSwitches(st.Plugins)
			}
			if excluded {
				f.setExclude(st.Exclude)
			}
			f.scheduleReload(config.SettingsFile, s.opt.Debounce)
		}
	}
}

// closeAll stops background work and closes every folder's knowledge base.
func (s *Server) closeAll() {
	s.mu.Lock()
	folders := s.folders
	s.folders = nil
	w := s.watcher
	s.watcher = nil
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
	for _, f := range folders {
		f.close()
	}
	waitTimeout(&s.bg, 10*time.Second)
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// folderList returns the open folders in order.
func (s *Server) folderList() []*folder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*folder(nil), s.folders...)
}

// folderFor returns the folder holding path (the deepest root), else the first.
func (s *Server) folderFor(path string) *folder {
	fs := s.folderList()
	var best *folder
	for _, f := range fs {
		if within(f.root, path) && (best == nil || len(f.root) > len(best.root)) {
			best = f
		}
	}
	if best == nil && len(fs) > 0 && path == "" {
		best = fs[0]
	}
	return best
}

// folderByURI picks a folder by its URI ("" : the first).
func (s *Server) folderByURI(u string) (*folder, error) {
	fs := s.folderList()
	if len(fs) == 0 {
		return nil, rpcError(jsonrpc2.InvalidRequest, "no_workspace", "no workspace folder is open")
	}
	if u == "" {
		return fs[0], nil
	}
	p := uriToPath(u)
	if f := s.folderFor(p); f != nil {
		return f, nil
	}
	return nil, rpcError(jsonrpc2.InvalidParams, "bad_argument", "%s is in no workspace folder", u)
}

func within(root, path string) bool {
	if path == root {
		return true
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}

// didChangeWorkspaceFolders opens added folders and closes removed ones.
func (s *Server) didChangeWorkspaceFolders(raw json.RawMessage) error {
	var p struct {
		Event struct {
			Added   []folderRef `json:"added"`
			Removed []folderRef `json:"removed"`
		} `json:"event"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	for _, r := range p.Event.Removed {
		root := uriToPath(r.URI)
		s.mu.Lock()
		var gone *folder
		for i, f := range s.folders {
			if f.root == root {
				gone = f
				s.folders = append(s.folders[:i:i], s.folders[i+1:]...)
				break
			}
		}
		w := s.watcher
		s.mu.Unlock()
		if gone != nil {
			if w != nil {
				w.remove(gone.root)
			}
			s.goBG(gone.close)
		}
	}
	for _, r := range p.Event.Added {
		if !s.acceptRoot(uriToPath(r.URI)) {
			continue
		}
		f := s.addFolder(r, len(s.folderList()) == 0)
		if f != nil {
			s.goBG(func() { s.ingestFolder(s.ctx, f, nil) })
		}
	}
	return nil
}

// addFolder starts opening one workspace folder's knowledge base.
func (s *Server) addFolder(r folderRef, first bool) *folder {
	root := uriToPath(r.URI)
	if root == "" {
		return nil
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	s.mu.Lock()
	for _, f := range s.folders {
		if f.root == root {
			s.mu.Unlock()
			return nil
		}
	}
	dbPath := ""
	if first {
		dbPath = s.opt.DBPath
		if s.settings.DBPath != "" {
			dbPath = s.settings.DBPath
		}
	}
	userDir := s.opt.UserDir
	if s.settings.UserDir != "" {
		userDir = s.settings.UserDir
	}
	user := config.ParseUserFolder(userDir)
	noLLM := s.opt.NoLLM
	if s.settings.NoLLM != nil {
		noLLM = *s.settings.NoLLM
	}
	f := newFolder(s, root, r.Name, dbPath, user, noLLM)
	f.llm = s.settings.LLM
	f.setSwitches(s.settings.Plugins)
	f.setExclude(s.settings.Exclude)
	s.folders = append(s.folders, f)
	if s.watcher != nil {
		s.watcher.add(root)
	}
	s.mu.Unlock()
	s.goBG(f.open)
	s.goBG(f.buildLinks)
	return f
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readText returns the text of a document: the overlay when open, else the file.
func (s *Server) readText(u string) (string, error) {
	if d, ok := s.docs.get(u); ok {
		return d.text, nil
	}
	p := uriToPath(u)
	if p == "" {
		return "", fmt.Errorf("not a file URI: %s", u)
	}
	b, err := s.readDiskFile(p)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// readDiskFile reads a file the editor has not opened: confined to the
// workspace folder holding it (when one does), a regular file, and at most
// MaxDiagnosedBytes, so a link to a secret, to /dev/zero or a FIFO is
// refused unread (fsafe's codes).
func (s *Server) readDiskFile(p string) ([]byte, error) {
	root := ""
	if f := s.folderFor(p); f != nil {
		root = f.root
	}
	return fsafe.ReadFile(root, p, MaxDiagnosedBytes)
}
