package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// adversarialWorkspace writes Markdown files shaped to drive the parser's
// costly paths (each under the ingest size cap) among ordinary ones.
func adversarialWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	families := []string{"*a_", "[a](", "> ", "["}
	for i, unit := range families {
		body := bytes.Repeat([]byte(unit), (2<<20)/len(unit))
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("adv%d.md", i)), body, 0o644))
	}
	for i := 0; i < 1500; i++ {
		body := fmt.Sprintf("# Note %d\n\n%s\n", i, strings.Repeat(fmt.Sprintf("Text about topic %d. ", i), 40))
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("n%04d.md", i)), []byte(body), 0o644))
	}
	return ws
}

// TestSIGTERMStopsIngest sends SIGTERM (then, in a second run, SIGINT) to
// a running ingest of a hostile workspace: the process must exit within a
// few seconds, with a non-zero status.
func TestSIGTERMStopsIngest(t *testing.T) {
	ws := adversarialWorkspace(t)
	env := isolatedEnv(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		dbPath := filepath.Join(t.TempDir(), "kb.db")
		cmd := exec.Command(binary, "ingest", "--workspace", ws, "--db", dbPath)
		cmd.Env = append(os.Environ(), env...)
		stderr, err := cmd.StderrPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		// Wait for the first progress output (the ingest is under way), or
		// a few seconds when parsing holds it back.
		started := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			buf := make([]byte, 64)
			_, _ = stderr.Read(buf)
			close(started)
			_, _ = io.Copy(io.Discard, stderr)
			done <- cmd.Wait()
		}()
		select {
		case <-started:
		case <-time.After(5 * time.Second):
		}
		time.Sleep(100 * time.Millisecond)
		t0 := time.Now()
		require.NoError(t, cmd.Process.Signal(sig))
		select {
		case err := <-done:
			t.Logf("%v: exited after %v: %v", sig, time.Since(t0).Round(time.Millisecond), err)
			require.Error(t, err, "an interrupted ingest reports failure")
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Fatalf("%v: ingest still running 10s after the signal", sig)
		}
	}
}
