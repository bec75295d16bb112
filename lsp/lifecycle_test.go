package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/version"
)

func TestInitializeReportsBuildVersionInServerInfo(t *testing.T) {
	rc := startRaw(t, Options{UserDir: "-", NoLLM: true})
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}})
	m, err := rc.response("1", 5*time.Second)
	if err != nil || m.Error != nil {
		t.Fatalf("initialize: %v %+v", err, m.Error)
	}
	var res struct {
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		t.Fatalf("initialize result: %v: %s", err, m.Result)
	}
	if res.ServerInfo.Name != "mrpvm" || res.ServerInfo.Version != version.Version() || res.ServerInfo.Version == "" {
		t.Errorf("serverInfo = %+v, want mrpvm %s", res.ServerInfo, version.Version())
	}
}

// TestShutdownExitDuringIngest answers shutdown and ends on exit while the
// first ingest of a hostile workspace is running: the ingest is cancelled,
// not waited for.
func TestShutdownExitDuringIngest(t *testing.T) {
	root := t.TempDir()
	for i, unit := range []string{"*a_", "[a](", "> ", "["} {
		body := bytes.Repeat([]byte(unit), (1<<20)/len(unit))
		testtree.WriteFile(t, filepath.Join(root, fmt.Sprintf("adv%d.md", i)), string(body))
	}
	writeLoremPages(t, root, 600, func(i int) string { return fmt.Sprintf("page%d.md", i) })
	rc := startOnWorkspace(t, root)
	rc.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	time.Sleep(200 * time.Millisecond)
	t0 := time.Now()
	rc.shutdownAndExit(t, 2, "during an ingest")
	t.Logf("shutdown+exit took %v", time.Since(t0).Round(time.Millisecond))
}

// uninterruptible is a stream whose Close does not interrupt a Read in
// progress, as with a blocking os.Stdin: the read ends only when the peer
// closes its end.
type uninterruptible struct {
	in  *io.PipeReader
	out *io.PipeWriter
}

func (u uninterruptible) Read(p []byte) (int, error)  { return u.in.Read(p) }
func (u uninterruptible) Write(p []byte) (int, error) { return u.out.Write(p) }
func (u uninterruptible) Close() error                { return nil }

// TestServeEndsPromptlyWhenTheReadCannotBeInterrupted sends shutdown and
// exit over a stream whose reads cannot be interrupted and keeps the input
// open, as an editor does until the process ends: Serve must still return
// promptly (it used to wait 5s for the connection to drain).
func TestServeEndsPromptlyWhenTheReadCannotBeInterrupted(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	defer outR.Close()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), uninterruptible{in: inR, out: outW}, Options{UserDir: "-", NoLLM: true})
	}()
	// Drain the server's output.
	go func() { _, _ = io.Copy(io.Discard, bufio.NewReader(outR)) }()
	send := func(body string) {
		if _, err := fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	t0 := time.Now()
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return within 10s of exit")
	}
	took := time.Since(t0)
	t.Logf("Serve returned %v after exit", took)
	if took > 2*time.Second {
		t.Errorf("Serve returned %v after exit (bound 2s)", took)
	}
}
