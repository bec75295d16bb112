package lspclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/mrpvm/mrpvm/lsp"
)

// Note is one notification the server sent.
type Note struct {
	Method string
	Params json.RawMessage
	At     time.Time
}

// Options say how to start the server.
type Options struct {
	// Binary is the mrpvm executable.
	Binary string
	// Args follow "lsp" (for example --db FILE --log FILE).
	Args []string
	// Env is added to the environment (KEY=VALUE).
	Env []string
}

// Client is one running server and the connection to it.
type Client struct {
	conn   jsonrpc2.Conn
	exited chan struct{}
	// Started is when the server was started.
	Started time.Time

	// Subprocess mode (Start).
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer

	// In-process mode (StartInProcess): the pipe's client end, the
	// cancellation of Serve's context, and Serve's error once exited is
	// closed.
	pipe     net.Conn
	cancel   context.CancelFunc
	serveErr error

	mu      sync.Mutex
	notes   []Note
	changed chan struct{}
	config  json.RawMessage
	created []string // progress tokens the server created
	regs    []string // methods the server registered
}

func newClient() *Client {
	return &Client{exited: make(chan struct{}), changed: make(chan struct{}, 1), Started: time.Now()}
}

// connect starts the JSON-RPC connection over a stream to the server.
func (c *Client) connect(rwc io.ReadWriteCloser) {
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(rwc))
	c.conn.Go(context.Background(), c.handle)
}

// StartInProcess runs lsp.Serve with opt on one end of an in-memory pipe
// and connects to the other end.
func StartInProcess(opt lsp.Options) *Client {
	serverSide, clientSide := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := newClient()
	c.pipe, c.cancel = clientSide, cancel
	go func() {
		c.serveErr = lsp.Serve(ctx, serverSide, opt)
		close(c.exited)
	}()
	c.connect(clientSide)
	return c
}

// pipe joins the child's stdout (read) and stdin (write).
type pipe struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p pipe) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipe) Close() error {
	err := p.w.Close()
	if e := p.ReadCloser.Close(); err == nil {
		err = e
	}
	return err
}

// Start runs `mrpvm lsp` as a subprocess and connects to it.
func Start(opt Options) (*Client, error) {
	cmd := exec.Command(opt.Binary, append([]string{"lsp"}, opt.Args...)...)
	cmd.Env = append(os.Environ(), opt.Env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := newClient()
	c.cmd, c.stdin = cmd, in
	cmd.Stderr = &lockedWriter{w: &c.stderr, mu: &c.mu}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s lsp: %w", opt.Binary, err)
	}
	go func() { _ = cmd.Wait(); close(c.exited) }()
	c.connect(pipe{ReadCloser: out, w: in})
	return c, nil
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// Pid is the server's process id (in-process: this process's).
func (c *Client) Pid() int {
	if c.cmd == nil {
		return os.Getpid()
	}
	return c.cmd.Process.Pid
}

// Stderr returns what the server wrote to standard error (in-process:
// nothing; the server logs through lsp.Options.Logger).
func (c *Client) Stderr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// ExitCode is the process's exit status (-1 while it runs or when it was
// killed by a signal; in-process: 0 when Serve returned nil, else 1).
func (c *Client) ExitCode() int {
	select {
	case <-c.exited:
	default:
		return -1
	}
	if c.cmd == nil {
		if c.serveErr != nil {
			return 1
		}
		return 0
	}
	return c.cmd.ProcessState.ExitCode()
}

// ServeErr is what lsp.Serve returned (in-process mode, once Exited is
// closed).
func (c *Client) ServeErr() error { return c.serveErr }

// Exited is closed when the process has ended.
func (c *Client) Exited() <-chan struct{} { return c.exited }

// SetConfiguration sets the answer to workspace/configuration (section mrpvm).
func (c *Client) SetConfiguration(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.config = b
	c.mu.Unlock()
	return nil
}

func (c *Client) handle(_ context.Context, req *jsonrpc2.Request) (any, error) {
	method := strings.Clone(req.Method())
	params := append(json.RawMessage(nil), req.Params()...)
	switch method {
	case "window/workDoneProgress/create":
		var p struct {
			Token any `json:"token"`
		}
		_ = json.Unmarshal(params, &p)
		c.mu.Lock()
		c.created = append(c.created, fmt.Sprint(p.Token))
		c.mu.Unlock()
		return nil, nil
	case "client/registerCapability":
		var p struct {
			Registrations []struct {
				Method string `json:"method"`
			} `json:"registrations"`
		}
		_ = json.Unmarshal(params, &p)
		c.mu.Lock()
		for _, r := range p.Registrations {
			c.regs = append(c.regs, r.Method)
		}
		c.mu.Unlock()
		return nil, nil
	case "window/showMessageRequest":
		return nil, nil
	case "workspace/configuration":
		c.mu.Lock()
		cfg := c.config
		c.mu.Unlock()
		if cfg == nil {
			cfg = json.RawMessage("null")
		}
		return jsonrpc2.RawMessage("[" + string(cfg) + "]"), nil
	}
	if req.IsCall() {
		return nil, jsonrpc2.ErrMethodNotFound
	}
	c.mu.Lock()
	c.notes = append(c.notes, Note{Method: method, Params: params, At: time.Now()})
	c.mu.Unlock()
	select {
	case c.changed <- struct{}{}:
	default:
	}
	return nil, nil
}

// Caps are the client capabilities of a capable editor: progress, dynamic
// file watching, configuration and workspace folders.
func Caps() map[string]any {
	return map[string]any{
		"window": map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{
			"configuration":         true,
			"workspaceFolders":      true,
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		},
	}
}

// Init are the parameters of initialize.
type Init struct {
	// Root is the one workspace folder (also the root URI).
	Root string
	// Name is the folder's name ("" : Root's base name).
	Name string
	// Caps are the client capabilities (nil: Caps()).
	Caps map[string]any
	// Options become initializationOptions when not nil.
	Options any
}

// InitializeOnly sends initialize (without initialized) and checks that the
// answer announces hover.
func (c *Client) InitializeOnly(ctx context.Context, in Init) error {
	name, caps := in.Name, in.Caps
	if name == "" {
		name = filepath.Base(in.Root)
	}
	if caps == nil {
		caps = Caps()
	}
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          PathToURI(in.Root),
		"capabilities":     caps,
		"workspaceFolders": []map[string]any{{"uri": PathToURI(in.Root), "name": name}},
	}
	if in.Options != nil {
		params["initializationOptions"] = in.Options
	}
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := c.Call(ctx, "initialize", params, &res); err != nil {
		return err
	}
	if res.Capabilities["hoverProvider"] != true {
		return fmt.Errorf("initialize: no hover capability in %v", res.Capabilities)
	}
	return nil
}

// Initialize sends initialize (one workspace folder, root) and initialized.
// initOpts becomes initializationOptions when not nil.
func (c *Client) Initialize(ctx context.Context, root string, initOpts any) error {
	if err := c.InitializeOnly(ctx, Init{Root: root, Options: initOpts}); err != nil {
		return err
	}
	return c.Notify(ctx, "initialized", map[string]any{})
}

// Call sends a request and decodes its result (nil result: ignored).
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	var raw jsonrpc2.RawMessage
	if _, err := c.conn.Call(ctx, method, params, &raw); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if result != nil && len(raw) > 0 {
		return json.Unmarshal(raw, result)
	}
	return nil
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	return c.conn.Notify(ctx, method, params)
}

// Command runs workspace/executeCommand with one object argument.
func (c *Client) Command(ctx context.Context, name string, arg, result any) error {
	params := map[string]any{"command": name}
	if arg != nil {
		params["arguments"] = []any{arg}
	}
	return c.Call(ctx, "workspace/executeCommand", params, result)
}

// Hover asks for the hover at a position; "" for no hover.
func (c *Client) Hover(ctx context.Context, uri string, line, char int) (string, error) {
	var h *struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	err := c.Call(ctx, "textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"position":     map[string]any{"line": line, "character": char},
	}, &h)
	if err != nil || h == nil {
		return "", err
	}
	return h.Contents.Value, nil
}

// Open sends textDocument/didOpen.
func (c *Client) Open(ctx context.Context, uri, languageID, text string) error {
	return c.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": languageID, "version": 1, "text": text}})
}

// Created returns the progress tokens the server created so far.
func (c *Client) Created() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.created...)
}

// Registered returns the methods the server registered so far.
func (c *Client) Registered() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.regs...)
}

// Notes returns a copy of the notifications received so far.
func (c *Client) Notes() []Note {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Note(nil), c.notes...)
}

// Wait waits until pred holds over the notifications received so far, the
// context ends or the server exits.
func (c *Client) Wait(ctx context.Context, what string, pred func([]Note) bool) error {
	for {
		if pred(c.Notes()) {
			return nil
		}
		select {
		case <-c.changed:
		case <-time.After(10 * time.Millisecond):
		case <-c.exited:
			if pred(c.Notes()) {
				return nil
			}
			return fmt.Errorf("waiting for %s: the server exited; stderr: %s", what, c.Stderr())
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		}
	}
}

// Shutdown sends shutdown and exit (unless the server has ended already)
// and waits for it to end, stopping it when the context ends first: the
// process is killed, Serve's context cancelled. It fails when the server
// did not end cleanly.
func (c *Client) Shutdown(ctx context.Context) error {
	var err error
	select {
	case <-c.exited:
	default:
		err = c.Call(ctx, "shutdown", nil, nil)
		if err == nil {
			err = c.Notify(ctx, "exit", nil)
		}
	}
	select {
	case <-c.exited:
	case <-ctx.Done():
		c.stop()
		<-c.exited
		err = errors.Join(err, fmt.Errorf("the server did not exit: %w", ctx.Err()))
	}
	_ = c.conn.Close()
	if c.cancel != nil {
		c.cancel()
	}
	if err != nil {
		return err
	}
	if c.cmd == nil {
		if c.serveErr != nil {
			return fmt.Errorf("the server ended with %w", c.serveErr)
		}
		return nil
	}
	if c.cmd.ProcessState != nil && !c.cmd.ProcessState.Success() {
		return fmt.Errorf("the server exited with %v; stderr: %s", c.cmd.ProcessState, c.Stderr())
	}
	return nil
}

// stop ends the server at once: SIGKILL for a process, cancelling Serve's
// context in process.
func (c *Client) stop() {
	if c.cmd == nil {
		c.cancel()
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
}

// CloseInput closes the server's input (end of input, as when an editor
// dies) and leaves its output open (in-process: the pipe ends both ways).
func (c *Client) CloseInput() error {
	if c.cmd == nil {
		return c.pipe.Close()
	}
	return c.stdin.Close()
}

// Kill ends the server at once and waits for it to end.
func (c *Client) Kill() {
	c.stop()
	<-c.exited
	_ = c.conn.Close()
}

// ProgressEnd returns when the first work-done progress whose title starts
// with prefix ended (zero when it has not).
func ProgressEnd(notes []Note, prefix string) time.Time {
	titles := map[string]string{}
	for _, n := range notes {
		if n.Method != "$/progress" {
			continue
		}
		var p struct {
			Token any `json:"token"`
			Value struct {
				Kind  string `json:"kind"`
				Title string `json:"title"`
			} `json:"value"`
		}
		if json.Unmarshal(n.Params, &p) != nil {
			continue
		}
		tok := fmt.Sprint(p.Token)
		switch p.Value.Kind {
		case "begin":
			titles[tok] = p.Value.Title
		case "end":
			if t, ok := titles[tok]; ok && strings.HasPrefix(t, prefix) {
				return n.At
			}
		}
	}
	return time.Time{}
}

// Count counts the notifications of a method whose params contain sub.
func Count(notes []Note, method, sub string) int {
	k := 0
	for _, n := range notes {
		if n.Method == method && strings.Contains(string(n.Params), sub) {
			k++
		}
	}
	return k
}

// PeakRSS returns VmHWM (peak resident set size, bytes) of a process from
// /proc/<pid>/status.
func PeakRSS(pid int) (int64, error) {
	return procStatus(pid, "VmHWM:")
}

// RSS returns VmRSS (current resident set size, bytes).
func RSS(pid int) (int64, error) {
	return procStatus(pid, "VmRSS:")
}

// Status returns one "kB" field of /proc/<pid>/status in bytes (key with
// its colon, for example "RssAnon:" or "RssFile:").
func Status(pid int, key string) (int64, error) { return procStatus(pid, key) }

func procStatus(pid int, key string) (int64, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				break
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return 0, err
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("%s not in /proc/%d/status", key, pid)
}

// PathToURI turns an absolute path into a file:// URI.
func PathToURI(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return string(uri.File(p))
}
