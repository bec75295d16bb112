package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
)

// rawClient speaks framed JSON-RPC by hand, so tests can send what a
// well-behaved client library never would.
type rawClient struct {
	t    testing.TB
	c    net.Conn
	r    *bufio.Reader
	done chan error
	in   chan message // frames read by a background reader (net.Pipe is unbuffered)
	rerr chan error
}

func startRaw(t testing.TB, opt Options) *rawClient {
	t.Helper()
	server, client := net.Pipe()
	rc := &rawClient{t: t, c: client, r: bufio.NewReader(client), done: make(chan error, 1),
		in: make(chan message, 4096), rerr: make(chan error, 1)}
	go func() { rc.done <- Serve(context.Background(), server, opt) }()
	go func() {
		for {
			m, err := rc.readFrame()
			if err != nil {
				rc.rerr <- err
				return
			}
			if m.Method != "" && len(m.ID) > 0 {
				rc.frame(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
			}
			rc.in <- m
		}
	}()
	t.Cleanup(func() {
		client.Close()
		select {
		case <-rc.done:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	return rc
}

// frame writes one Content-Length frame.
func (rc *rawClient) frame(body []byte) {
	rc.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := rc.c.Write(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(body), body)); err != nil {
		rc.t.Errorf("write: %v", err)
	}
}

func (rc *rawClient) send(v any) {
	rc.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		rc.t.Fatal(err)
	}
	rc.frame(b)
}

// message is any incoming JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// read returns the next frame.
func (rc *rawClient) read(timeout time.Duration) (message, error) {
	select {
	case m := <-rc.in:
		return m, nil
	case err := <-rc.rerr:
		rc.rerr <- err
		return message{}, err
	case <-time.After(timeout):
		return message{}, fmt.Errorf("no frame in %v", timeout)
	}
}

// readFrame reads one frame from the connection.
func (rc *rawClient) readFrame() (message, error) {
	n := -1
	for {
		line, err := rc.r.ReadString('\n')
		if err != nil {
			return message{}, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return message{}, fmt.Errorf("frame without Content-Length")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(rc.r, body); err != nil {
		return message{}, err
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return message{}, fmt.Errorf("bad frame %q: %w", body, err)
	}
	return m, nil
}

// response reads until the response with the given id (as JSON), answering
// server requests with null.
func (rc *rawClient) response(id string, timeout time.Duration) (message, error) {
	deadline := time.Now().Add(timeout)
	for {
		m, err := rc.read(time.Until(deadline))
		if err != nil {
			return m, err
		}
		if m.Method != "" {
			continue
		}
		if string(m.ID) == id {
			return m, nil
		}
	}
}

// shutdownAndExit sends shutdown (request id) and exit; the test fails
// unless shutdown is answered without an error and Serve returns cleanly
// within 10s. when says what the server was doing, for the messages.
func (rc *rawClient) shutdownAndExit(t testing.TB, id int, when string) {
	t.Helper()
	rc.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "shutdown"})
	if m, err := rc.response(strconv.Itoa(id), 10*time.Second); err != nil || m.Error != nil {
		t.Fatalf("shutdown %s: %v %+v", when, err, m.Error)
	}
	rc.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	select {
	case err := <-rc.done:
		rc.done <- err // for the cleanup
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Serve still running 10s after shutdown and exit %s", when)
	}
}

func (rc *rawClient) initialize(params map[string]any) {
	rc.t.Helper()
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
	m, err := rc.response("1", 5*time.Second)
	if err != nil || m.Error != nil {
		rc.t.Fatalf("initialize: %v %+v", err, m.Error)
	}
}

// startInitialized starts a server with no workspace, no user folder and
// no model, and initializes it.
func startInitialized(t testing.TB) *rawClient {
	t.Helper()
	rc := startRaw(t, Options{UserDir: "-", NoLLM: true})
	rc.initialize(map[string]any{})
	return rc
}

// startOnWorkspace starts a server with a knowledge base of its own and
// initializes it on root, without "initialized": nothing is ingested yet.
func startOnWorkspace(t testing.TB, root string) *rawClient {
	t.Helper()
	rc := startRaw(t, Options{UserDir: "-", NoLLM: true, DBPath: filepath.Join(t.TempDir(), "kb.db")})
	rc.initialize(map[string]any{"rootUri": pathToURI(root)})
	return rc
}

// writeLoremPages writes n long pages under root, page i at the slash
// path name(i), so that an ingest of them takes a while.
func writeLoremPages(t testing.TB, root string, n int, name func(i int) string) {
	t.Helper()
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("# Page %d\n\n%s\n", i, strings.Repeat("Lorem ipsum dolor sit amet consectetur adipiscing elit. ", 80))
		testtree.WriteFile(t, filepath.Join(root, filepath.FromSlash(name(i))), body)
	}
}

type (
	ctxT = context.Context
	rawT = json.RawMessage
)

// TestMisSizedFrames sends frames whose Content-Length counts characters
// instead of bytes (too short on "Café"), one that claims more bytes than
// it has, noise and an absurd length: the broken ones are answered with a
// parse error and every request after them is still served.
func TestMisSizedFrames(t *testing.T) {
	rc := startRaw(t, Options{})
	rc.initialize(map[string]any{"rootUri": nil})
	write := func(format string, args ...any) {
		t.Helper()
		rc.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, err := fmt.Fprintf(rc.c, format, args...); err != nil {
			t.Fatal(err)
		}
	}
	// Requests run concurrently once read, so their responses may come in
	// any order: responses read while awaiting another id are kept, with
	// the number of parse errors (-32700) read before each.
	responses := map[string]int{}
	parseErrors := 0
	// await waits for the response with id and returns the number of
	// parse errors read before it.
	await := func(id string) int {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			if before, ok := responses[id]; ok {
				return before
			}
			m, err := rc.read(time.Until(deadline))
			if err != nil {
				t.Fatalf("waiting for response %s: %v", id, err)
			}
			if m.Error != nil && m.Error.Code == -32700 {
				parseErrors++
			}
			if m.Method == "" && len(m.ID) > 0 && string(m.ID) != "null" {
				if m.Error != nil {
					t.Fatalf("response %s: %+v", m.ID, m.Error)
				}
				responses[string(m.ID)] = parseErrors
			}
		}
	}

	short := `{"jsonrpc":"2.0","id":2,"method":"workspace/symbol","params":{"query":"Café"}}`
	mark := parseErrors
	write("Content-Length: %d\r\n\r\n%s", len([]rune(short)), short)
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "workspace/symbol", "params": map[string]any{"query": "x"}})
	if await("3") == mark {
		t.Error("short frame: no parse error answered")
	}

	long := `{"jsonrpc":"2.0","id":4,"method":"workspace/symbol","params":{"query":"x"}}`
	next := `{"jsonrpc":"2.0","id":5,"method":"workspace/symbol","params":{"query":"x"}}`
	write("Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s", len(long)+10, long, len(next), next)
	await("4")
	await("5")

	mark = parseErrors
	write("garbage line\r\nContent-Length: 99999999999\r\n\r\n")
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 6, "method": "shutdown"})
	if await("6") == mark {
		t.Error("noise: no parse error answered")
	}
}
