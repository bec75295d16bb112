package ingest

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/fsafe"
)

// TestIngestNeverFollowsSymlinksOut links a secret file, a folder outside
// the workspace and the file system root into a workspace: none of their
// content is ingested, each is reported, and links inside the workspace
// still work.
func TestIngestNeverFollowsSymlinksOut(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "home", ".ssh", "id_rsa")
	require.NoError(t, os.MkdirAll(filepath.Dir(secret), 0o700))
	require.NoError(t, os.WriteFile(secret, []byte("# key\n\nSECRETKEYMATERIAL\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(base, "home", "notes.md"), []byte("# Home\n\nHOMENOTES\n"), 0o644))
	ws := filepath.Join(base, "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "docs", "a.md"), []byte("# A\n\nalpha\n"), 0o644))

	symlinkOrSkip(t, secret, filepath.Join(ws, "key.md"))
	symlinkOrSkip(t, "../home/.ssh/id_rsa", filepath.Join(ws, "rel.md"))
	symlinkOrSkip(t, filepath.Join(base, "home"), filepath.Join(ws, "home"))
	symlinkOrSkip(t, "/", filepath.Join(ws, "root"))
	symlinkOrSkip(t, "docs/a.md", filepath.Join(ws, "alias.md"))
	symlinkOrSkip(t, "docs", filepath.Join(ws, "docs2")) // walked once, as before
	passwd := false
	if _, err := os.Stat("/etc/passwd"); err == nil {
		symlinkOrSkip(t, "/etc/passwd", filepath.Join(ws, "passwd.md"))
		passwd = true
	}

	kb := openTestKB(t, ws)
	rep := ingest(t, kb)
	assert.ElementsMatch(t, []string{"alias.md", "docs/a.md"}, sourceIDs(t, kb))
	text := allText(t, kb)
	assert.NotContains(t, text, "SECRETKEYMATERIAL")
	assert.NotContains(t, text, "HOMENOTES")
	assert.NotContains(t, text, "root:")
	codes := codesByPath(rep)
	for _, name := range []string{"key.md", "rel.md", "home", "root"} {
		assert.Equal(t, CodeOutsideRoot, codes[name], "%s: %v", name, rep.Errors)
	}
	if passwd {
		assert.Equal(t, CodeOutsideRoot, codes["passwd.md"])
	}
	assert.Equal(t, CodeSymlinkLoop, codes["docs2"])
	assert.False(t, rep.Failed(), "skipped links are warnings")

	// A saved file (the language server's path) is confined the same way.
	rep, err := kb.Ingest(context.Background(), RunOptions{Only: []string{filepath.Join(ws, "key.md")}})
	require.NoError(t, err)
	requireOneError(t, rep, CodeOutsideRoot)
	assert.NotContains(t, allText(t, kb), "SECRETKEYMATERIAL")
}

// TestIngestSymlinkRetargetedOutRemovesSource re-points an ingested link
// outside the workspace: the next run drops what it had stored.
func TestIngestSymlinkRetargetedOutRemovesSource(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.md"), []byte("# A\n\nalpha\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(base, "out.md"), []byte("# Out\n\nOUTSIDE\n"), 0o644))
	link := filepath.Join(ws, "l.md")
	symlinkOrSkip(t, "a.md", link)
	kb := openTestKB(t, ws)
	ingest(t, kb)
	assert.ElementsMatch(t, []string{"a.md", "l.md"}, sourceIDs(t, kb))
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Symlink(filepath.Join(base, "out.md"), link))
	rep := ingest(t, kb)
	assert.Equal(t, CodeOutsideRoot, codesByPath(rep)["l.md"])
	assert.Equal(t, []string{"a.md"}, sourceIDs(t, kb))
	assert.NotContains(t, allText(t, kb), "OUTSIDE")
}

// TestReadCapped reads a source at and over the limit, and reports a
// missing file as fs.ErrNotExist and a folder as not regular (the buffer
// handling is tested in internal/fsafe).
func TestReadCapped(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	want := bytes.Repeat([]byte("abcdefghij"), 10)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := readCapped(p, 100); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("at the limit: %d bytes, %v", len(got), err)
	}
	if _, err := readCapped(p, 99); !errors.Is(err, errTooLarge) {
		t.Fatalf("over the limit: %v, want errTooLarge", err)
	}
	if _, err := readCapped(filepath.Join(dir, "missing.md"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	if _, err := readCapped(dir, 100); !errors.Is(err, fsafe.ErrNotRegular) {
		t.Fatalf("reading a folder: %v, want fsafe.ErrNotRegular", err)
	}
}
