//go:build unix

package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/test/internal/lspclient"
)

// TestServerHostileWorkspace opens a cloned repository that commits a
// .gitignore linked to /dev/zero, a FIFO .gitignore and Markdown links to a
// key outside the workspace, with the real binary under a 4 GiB address
// space limit: the server ingests the rest, stays up, and neither
// workspace/symbol nor documentSymbol returns the key.
func TestServerHostileWorkspace(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := t.TempDir()
	secret := filepath.Join(base, "home", ".ssh", "id_rsa")
	root := filepath.Join(base, "repo")
	for p, text := range map[string]string{
		secret:                              "# Private key\n\nSECRETKEYMATERIAL\n",
		filepath.Join(root, "a.md"):         "# Alpha Zeppelinite\n\nThe alpha guide.\n",
		filepath.Join(root, "sub", "b.md"):  "# Beta Quasarite\n\nThe beta guide.\n",
		filepath.Join(base, "home", "h.md"): "# Home HOMENOTES\n",
	} {
		testtree.WriteFile(t, p, text)
	}
	for link, target := range map[string]string{
		"key.md":     secret,
		".gitignore": "/dev/zero",
		"home":       filepath.Join(base, "home"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "sub", ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The address space limit turns a read of /dev/zero into a prompt
	// crash instead of exhausting the machine.
	bin := mrpvmBinary(t)
	wrapper := filepath.Join(t.TempDir(), "mrpvm-limited")
	script := "#!/bin/sh\nulimit -v 4194304\nexec '" + bin + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	c := startServer(t, wrapper, isolatedEnv(t), filepath.Join(tmp, "kb.db"), filepath.Join(tmp, "log"))
	if err := c.Initialize(ctx, root, nil); err != nil {
		t.Fatalf("initialize: %v; stderr: %s", err, c.Stderr())
	}
	waitIngestEnd(t, ctx, c)

	symbols := func(query string) string {
		t.Helper()
		var out json.RawMessage
		if err := c.Call(ctx, "workspace/symbol", map[string]any{"query": query}, &out); err != nil {
			t.Fatalf("workspace/symbol %q: %v; stderr: %s", query, err, c.Stderr())
		}
		return string(out)
	}
	if got := symbols("Zeppelinite"); !strings.Contains(got, "a.md") {
		t.Errorf("a.md not ingested: %s", got)
	}
	if got := symbols("Quasarite"); !strings.Contains(got, "b.md") {
		t.Errorf("sub/b.md not ingested: %s", got)
	}
	for _, q := range []string{"SECRETKEYMATERIAL", "Private key", "HOMENOTES"} {
		if got := symbols(q); strings.Contains(got, "key.md") || strings.Contains(got, "h.md") {
			t.Errorf("workspace/symbol %q returns content from outside the workspace: %s", q, got)
		}
	}
	var syms json.RawMessage
	if err := c.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": lspclient.PathToURI(filepath.Join(root, "key.md"))}}, &syms); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(syms), "Private key") {
		t.Errorf("documentSymbol read the key through the link: %s", syms)
	}
	select {
	case <-c.Exited():
		t.Fatalf("the server exited; stderr: %s", c.Stderr())
	default:
	}
}
