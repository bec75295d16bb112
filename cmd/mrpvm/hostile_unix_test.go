//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/internal/testtree"
)

// TestPluginsCheckSpecialFiles checks plugin and wrapper folders whose
// files are a FIFO, a symlink to /dev/zero and a symlink out of the
// folder: each is reported with its code, none is read.
func TestPluginsCheckSpecialFiles(t *testing.T) {
	base := t.TempDir()
	testtree.WriteFiles(t, base, map[string]string{
		"secret.md":       "# Secret\n\nSECRET\n",
		"fifo/README.md":  "x",
		"wrap/README.md":  "x",
		"kus/plugin.json": `{"id": "kb-x", "type": "kb", "description": "Retrieves.", "costClass": "cheap"}`,
	})
	fifo, wrap, kus := filepath.Join(base, "fifo"), filepath.Join(base, "wrap"), filepath.Join(base, "kus")
	testtree.FIFO(t, filepath.Join(fifo, "plugin.json"))
	testtree.FIFO(t, filepath.Join(wrap, "manifest.json"))
	testtree.Link(t, filepath.Join(base, "secret.md"), filepath.Join(kus, "plugin.kus.md"))
	want := map[string]string{fifo: fsafe.CodeNotRegular, wrap: fsafe.CodeNotRegular, kus: fsafe.CodeOutsideRoot}
	if _, err := os.Stat("/dev/zero"); err == nil {
		zero := filepath.Join(base, "zero")
		testtree.WriteFile(t, filepath.Join(zero, "README.md"), "x")
		testtree.Link(t, "/dev/zero", filepath.Join(zero, "manifest.json"))
		want[zero] = fsafe.CodeOutsideRoot
	}
	for dir, code := range want {
		out, err := runCLIWithin(t, "plugins", "check", dir)
		if err == nil || !strings.Contains(out, ": "+code+": ") {
			t.Errorf("%s: %q, %v; want %s", filepath.Base(dir), out, err, code)
		}
	}
}

// TestKusSpecialFiles runs kus on a FIFO, a symlink to /dev/zero and a
// workspace symlink to a file outside it.
func TestKusSpecialFiles(t *testing.T) {
	base := t.TempDir()
	testtree.WriteFiles(t, base, map[string]string{"secret.md": "# Secret\n\nSECRET\n", "ws/a.md": "# A\n"})
	ws := filepath.Join(base, "ws")
	testtree.FIFO(t, filepath.Join(ws, "fifo.md"))
	testtree.Link(t, filepath.Join(base, "secret.md"), filepath.Join(ws, "key.md"))
	want := map[string]string{"fifo.md": fsafe.CodeNotRegular, "key.md": fsafe.CodeOutsideRoot}
	if testtree.LinkDevZero(t, filepath.Join(ws, "zero.md")) {
		want["zero.md"] = fsafe.CodeOutsideRoot
	}
	for name, code := range want {
		out, err := runCLIWithin(t, "kus", "--workspace", ws, filepath.Join(ws, name))
		if err == nil || !strings.Contains(err.Error(), code) || strings.Contains(out, "SECRET") {
			t.Errorf("%s: %q, %v; want %s", name, out, err, code)
		}
	}
	if out, err := runCLIWithin(t, "kus", "--workspace", ws, filepath.Join(ws, "a.md")); err != nil || !strings.Contains(out, "a.md::") {
		t.Errorf("a.md: %q, %v", out, err)
	}
}
