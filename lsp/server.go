package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
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
	druns   serialRuns             // diagnostics runs, one at a time per URI

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
		return s.shutdownRequest()
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
		"textDocument/references":     linkDocRequest(linkReferences),
		"textDocument/prepareRename":  (*Server).prepareRename,
		"textDocument/rename":         (*Server).rename,
		"textDocument/codeLens":       linkDocRequest(referenceLenses),
		"textDocument/documentLink":   linkDocRequest(resolvedLinks),
		"textDocument/foldingRange":   linkDocRequest(sectionFolds),
		"textDocument/codeAction":     linkDocRequest(markdownActions),
		"workspace/willRenameFiles":   (*Server).willRenameFiles,
	}
}

// notification handles one notification inline, in wire order.
func (s *Server) notification(method string, params json.RawMessage) {
	s.mu.Lock()
	initialized := s.initialized
	s.mu.Unlock()
	if method == "exit" {
		s.exit()
		return
	}
	if !initialized {
		return // notifications before initialize are dropped (LSP)
	}
	h := notificationHandlers[method]
	if h == nil {
		return // $/setTrace, $/progress from the client and unknown notifications
	}
	if err := h(s, params); err != nil {
		s.log.Warn("notification failed", "method", method, "err", err)
	}
}

// notificationHandler handles one notification; an error is logged.
type notificationHandler func(s *Server, params json.RawMessage) error

var notificationHandlers = map[string]notificationHandler{
	"initialized": func(s *Server, _ json.RawMessage) error {
		s.onInitialized()
		return nil
	},
	"textDocument/didOpen":                (*Server).didOpen,
	"textDocument/didChange":              (*Server).didChange,
	"textDocument/didClose":               (*Server).didClose,
	"textDocument/didSave":                (*Server).didSave,
	"workspace/didChangeWatchedFiles":     (*Server).didChangeWatchedFiles,
	"workspace/didRenameFiles":            (*Server).didRenameFiles,
	"workspace/didChangeWorkspaceFolders": (*Server).didChangeWorkspaceFolders,
	"workspace/didChangeConfiguration": func(s *Server, _ json.RawMessage) error {
		s.goBG(func() { s.pullConfiguration() })
		return nil
	},
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
