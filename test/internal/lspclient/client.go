// Package lspclient is a small Language Server Protocol client that runs
// the real `mrpvm lsp` binary as a subprocess and talks to it over its
// standard input and output, as an editor does. Tests and the measurement
// program in test/bench/lsp use it; it records every notification with its
// arrival time and answers the server's requests (progress tokens,
// registrations, configuration) the way a capable editor would.
package lspclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
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
	cmd    *exec.Cmd
	conn   jsonrpc2.Conn
	stdin  io.WriteCloser
	stderr bytes.Buffer
	exited chan struct{}
	// Started is when the process was started.
	Started time.Time

	mu      sync.Mutex
	notes   []Note
	changed chan struct{}
	config  json.RawMessage
}

// Build compiles ./cmd/mrpvm of the module holding this package into dir
// and returns the binary's path.
func Build(dir string) (string, error) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	bin := filepath.Join(dir, "mrpvm")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/mrpvm")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/mrpvm: %w\n%s", err, out)
	}
	return bin, nil
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

// Start runs `mrpvm lsp` and connects to it.
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
	c := &Client{cmd: cmd, stdin: in, exited: make(chan struct{}), changed: make(chan struct{}, 1)}
	cmd.Stderr = &lockedWriter{w: &c.stderr, mu: &c.mu}
	c.Started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s lsp: %w", opt.Binary, err)
	}
	go func() { _ = cmd.Wait(); close(c.exited) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(pipe{ReadCloser: out, w: in}))
	c.conn.Go(context.Background(), c.handle)
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

// Pid is the server's process id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// Stderr returns what the server wrote to standard error.
func (c *Client) Stderr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// ExitCode is the process's exit status (-1 while it runs or when it was
// killed by a signal).
func (c *Client) ExitCode() int {
	select {
	case <-c.exited:
		return c.cmd.ProcessState.ExitCode()
	default:
		return -1
	}
}

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
	case "window/workDoneProgress/create", "client/registerCapability", "window/showMessageRequest":
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

// Initialize sends initialize (one workspace folder, root) and initialized.
// initOpts becomes initializationOptions when not nil.
func (c *Client) Initialize(ctx context.Context, root string, initOpts any) error {
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          PathToURI(root),
		"capabilities":     Caps(),
		"workspaceFolders": []map[string]any{{"uri": PathToURI(root), "name": filepath.Base(root)}},
	}
	if initOpts != nil {
		params["initializationOptions"] = initOpts
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

// Shutdown sends shutdown and exit and waits for the process to end
// (killing it after the context ends).
func (c *Client) Shutdown(ctx context.Context) error {
	err := c.Call(ctx, "shutdown", nil, nil)
	if err == nil {
		err = c.Notify(ctx, "exit", nil)
	}
	select {
	case <-c.exited:
	case <-ctx.Done():
		_ = c.cmd.Process.Kill()
		<-c.exited
		err = errors.Join(err, fmt.Errorf("the server did not exit: %w", ctx.Err()))
	}
	_ = c.conn.Close()
	if err == nil && c.cmd.ProcessState != nil && !c.cmd.ProcessState.Success() {
		err = fmt.Errorf("the server exited with %v; stderr: %s", c.cmd.ProcessState, c.Stderr())
	}
	return err
}

// CloseInput closes the server's standard input (end of input, as when an
// editor dies) and leaves its output open.
func (c *Client) CloseInput() error { return c.stdin.Close() }

// Kill sends SIGKILL to the server and waits for it to end.
func (c *Client) Kill() {
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
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
