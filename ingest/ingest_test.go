package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIngestWalksWorkspaceAndIsIncremental(t *testing.T) {
	ws := writeWorkspace(t, basicWorkspace)
	hook := &recordingHook{id: "rec"}
	kb := openTestKB(t, ws, hook)

	rep := ingest(t, kb)
	assert.Equal(t, 3, rep.Files)
	assert.Equal(t, 0, rep.Unchanged)
	assert.Empty(t, rep.Errors)
	assert.Greater(t, rep.KUs, 3)
	assert.Equal(t, []string{"upsert README.md", "upsert docs/guide.md", "upsert sub/final.md"}, hook.take())

	rep = ingest(t, kb)
	assert.Equal(t, 0, rep.Files)
	assert.Equal(t, 3, rep.Unchanged)
	assert.Empty(t, hook.take())

	// Change one file: exactly that one is re-ingested.
	guide := filepath.Join(ws, "docs", "guide.md")
	require.NoError(t, os.WriteFile(guide, []byte("# Guide\n\nThe guide changed.\n"), 0o644))
	bump(t, guide)
	rep = ingest(t, kb)
	assert.Equal(t, 1, rep.Files)
	assert.Equal(t, 2, rep.Unchanged)
	assert.Equal(t, []string{"upsert docs/guide.md"}, hook.take())

	// Touch without change: same hash, no re-ingest.
	bump(t, guide)
	rep = ingest(t, kb)
	assert.Equal(t, 0, rep.Files)
	assert.Equal(t, 3, rep.Unchanged)

	// Delete a file: its source and KUs go.
	require.NoError(t, os.Remove(filepath.Join(ws, "sub", "final.md")))
	rep = ingest(t, kb)
	assert.Equal(t, 1, rep.Removed)
	assert.Equal(t, []string{"remove sub/final.md"}, hook.take())
	assert.Nil(t, sourceRecord(t, kb, "sub/final.md"))
}

func TestIngestBadInput(t *testing.T) {
	ws := writeWorkspace(t, `
-- good.md --
# Good

Fine text.
-- empty.md --
-- latin1.md --
PLACEHOLDER
-- binary.md --
PLACEHOLDER
-- big.md --
PLACEHOLDER
`)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "latin1.md"), []byte("caf\xe9 au lait\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "binary.md"), []byte("\x7fELF\x00\x01\x02"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "big.md"), []byte(strings.Repeat("word ", 5000)), 0o644))

	kb := openKB(t, Options{Workspace: ws, MaxFileSize: 10_000})
	rep := ingest(t, kb)
	codes := map[string]string{}
	for _, e := range rep.Errors {
		assert.True(t, e.Warning, "%v should only skip the file", e)
		codes[filepath.Base(e.Path)] = e.Code
	}
	assert.Equal(t, map[string]string{"latin1.md": CodeNotUTF8, "binary.md": CodeBinary, "big.md": CodeTooLarge}, codes)
	assert.Equal(t, 2, rep.Files, "good.md and empty.md are ingested")
	assert.False(t, rep.Failed())
}

func TestIngestReadFailureKeepsLastGoodKUs(t *testing.T) {
	ws, kb := ingestedTwoFiles(t)
	before, err := kb.Store().SourceKUs("a.md")
	require.NoError(t, err)

	a := filepath.Join(ws, "a.md")
	require.NoError(t, os.WriteFile(a, []byte("# A\n\nchanged\n"), 0o644))
	bump(t, a)
	kb.readFile = func(path string, limit int64) ([]byte, error) {
		if path == a {
			return nil, fmt.Errorf("open %s: %w", path, os.ErrPermission)
		}
		return readCapped(path, limit)
	}
	rep := ingest(t, kb)
	requireOneError(t, rep, CodeReadFailed)
	assert.True(t, rep.Failed())
	after, err := kb.Store().SourceKUs("a.md")
	require.NoError(t, err)
	assert.Equal(t, len(before), len(after), "the last good KUs stay")

	kb.readFile = readCapped
	rep = ingest(t, kb)
	assert.Equal(t, 1, rep.Files, "the next run retries the file")
}

func TestIngestFileVanishedBetweenWalkAndRead(t *testing.T) {
	ws, kb := ingestedTwoFiles(t)
	b := filepath.Join(ws, "b.md")
	require.NoError(t, os.WriteFile(b, []byte("# B\n\nnew\n"), 0o644))
	bump(t, b)
	kb.readFile = func(path string, limit int64) ([]byte, error) {
		if path == b {
			os.Remove(path) // deleted after the walk saw it
		}
		return readCapped(path, limit)
	}
	rep := ingest(t, kb)
	requireOneError(t, rep, CodeVanished)
	assert.Equal(t, 1, rep.Removed)
	assert.Nil(t, sourceRecord(t, kb, "b.md"))
}

func TestIngestSymlinkLoop(t *testing.T) {
	ws := writeWorkspace(t, "-- a/doc.md --\n# Doc\n\ntext\n")
	require.NoError(t, os.Symlink("..", filepath.Join(ws, "a", "loop")))
	require.NoError(t, os.Symlink("doc.md", filepath.Join(ws, "a", "alias.md")))
	require.NoError(t, os.Symlink("missing.md", filepath.Join(ws, "dangling.md")))
	kb := openTestKB(t, ws)
	rep := ingest(t, kb)
	assert.Equal(t, 2, rep.Files, "doc.md and its file alias")
	var codes []string
	for _, e := range rep.Errors {
		codes = append(codes, e.Code)
	}
	assert.ElementsMatch(t, []string{CodeSymlinkLoop, CodeBrokenSymlink}, codes)
}

func TestHookFailureAbortsOnlyThatSource(t *testing.T) {
	ws := writeWorkspace(t, twoFiles)
	hook := &recordingHook{id: "rec", failFor: "b.md"}
	kb := openTestKB(t, ws, hook)
	rep := ingest(t, kb)
	assert.Equal(t, 1, rep.Files)
	requireOneError(t, rep, CodeHookFailed)
	assert.Nil(t, sourceRecord(t, kb, "b.md"), "nothing of b.md was committed")

	hook.failFor = ""
	rep = ingest(t, kb)
	assert.Equal(t, 1, rep.Files, "b.md is retried")
}

func TestNewHookIsBackfilledFromStoredKUs(t *testing.T) {
	_, kb := ingestedTwoFiles(t)
	hook := &recordingHook{id: "late"}
	kb = reopen(t, kb, hook)
	rep := ingest(t, kb)
	assert.Equal(t, 0, rep.Files)
	assert.Equal(t, []string{"upsert a.md", "upsert b.md"}, hook.take())
	kb = reopen(t, kb, hook)
	ingest(t, kb)
	assert.Empty(t, hook.take(), "a hook whose version is recorded is not rebuilt")
}

func TestVirtualSources(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nalpha\n")
	v := []VirtualSource{{ID: "plugin::demo", Text: []byte("# Demo plugin\n\nIt demonstrates.\n")}}
	kb := openKB(t, Options{Workspace: ws, Virtual: v})
	rep := ingest(t, kb)
	assert.Equal(t, 1, rep.Files)
	assert.Equal(t, 1, rep.PluginSources)
	us, err := kb.Store().SourceKUs("plugin::demo")
	require.NoError(t, err)
	require.NotEmpty(t, us)
	assert.Equal(t, "plugin::demo", us[0].SourceID)
	rep = ingest(t, kb)
	assert.Equal(t, 1, rep.Unchanged)
	assert.Equal(t, 0, rep.PluginSources, "unchanged plugin sources are not re-ingested")

	kb = reopenWith(t, kb, Options{}) // plugin no longer built in
	rep = ingest(t, kb)
	assert.Equal(t, 1, rep.Removed)
}

func TestIngestOnlyOneFile(t *testing.T) {
	ws, kb := ingestedTwoFiles(t)
	a := filepath.Join(ws, "a.md")
	require.NoError(t, os.WriteFile(a, []byte("# A\n\nnew alpha\n"), 0o644))
	bump(t, a)
	rep, err := kb.Ingest(context.Background(), RunOptions{Only: []string{a}})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Files)
	us, err := kb.Store().SourceKUs("a.md")
	require.NoError(t, err)
	var texts []string
	for _, u := range us {
		texts = append(texts, u.Text())
	}
	assert.Contains(t, strings.Join(texts, " "), "new alpha")

	require.NoError(t, os.Remove(a))
	rep, err = kb.Ingest(context.Background(), RunOptions{Only: []string{a}})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Removed)
}

func TestIngestCancelled(t *testing.T) {
	ws := t.TempDir()
	for i := 0; i < 200; i++ {
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%03d.md", i)), []byte(fmt.Sprintf("# F%d\n\ntext %d\n", i, i)), 0o644))
	}
	kb := openTestKB(t, ws)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := kb.Ingest(ctx, RunOptions{Progress: func(done, total int, _ string) {
		if n++; n == 20 {
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)
	problems, err := kb.Store().Verify()
	require.NoError(t, err)
	assert.Empty(t, problems)
	rep := ingest(t, kb)
	assert.Equal(t, 200, rep.Files+rep.Unchanged, "the next run finishes the job")
	assert.Greater(t, rep.Files, 0)
}
