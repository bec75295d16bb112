package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
