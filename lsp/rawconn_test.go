package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
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

func (rc *rawClient) initialize(params map[string]any) {
	rc.t.Helper()
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
	m, err := rc.response("1", 5*time.Second)
	if err != nil || m.Error != nil {
		rc.t.Fatalf("initialize: %v %+v", err, m.Error)
	}
}

type (
	ctxT = context.Context
	rawT = json.RawMessage
)
