package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/testtree"
)

// TestUnchangedCheckOfLargeFolder covers the stats spread over several
// goroutines (a folder of more than statParallelMin files, beside a small
// subfolder): every change is found as before, and a run with no change
// commits no transaction at all, from Open to Close.
func TestUnchangedCheckOfLargeFolder(t *testing.T) {
	ws := t.TempDir()
	const n = 3*statParallelMin + 7
	name := func(i int) string { return filepath.Join(ws, "big", fmt.Sprintf("f%04d.md", i)) }
	for i := 0; i < n; i++ {
		testtree.WriteFile(t, name(i), fmt.Sprintf("# File %d\n\nText of file %d.\n", i, i))
	}
	testtree.WriteFiles(t, ws, map[string]string{"small/a.md": "# A\n\nText.\n", "big/notes.txt": "not Markdown"})
	db := filepath.Join(t.TempDir(), "kb.db")
	open := func() *KB {
		return openKB(t, Options{Workspace: ws, DBPath: db})
	}

	kb := open()
	rep := ingest(t, kb)
	assert.Equal(t, n+1, rep.Files)
	require.NoError(t, kb.Close())

	before := txID(t, db)
	kb = open()
	rep = ingest(t, kb)
	assert.Equal(t, 0, rep.Files)
	assert.Equal(t, n+1, rep.Unchanged)
	assert.Empty(t, rep.Errors)
	require.NoError(t, kb.Close())
	assert.Equal(t, before, txID(t, db), "an unchanged workspace writes nothing")

	// Touch one file (same text), modify one, add one, remove one.
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(name(5), later, later))
	testtree.WriteFile(t, name(600), "# Changed\n\nNew text.\n")
	testtree.WriteFile(t, filepath.Join(ws, "big", "zz-new.md"), "# New\n\nMore.\n")
	require.NoError(t, os.Remove(name(1000)))
	kb = open()
	rep = ingest(t, kb)
	assert.Equal(t, 2, rep.Files, "the modified and the added file")
	assert.Equal(t, n+1-2, rep.Unchanged, "the touched file counts as unchanged")
	assert.Equal(t, 1, rep.Removed)
	assert.Empty(t, rep.Errors)
	rec, err := kb.Store().Source("big/f0005.md")
	require.NoError(t, err)
	assert.Equal(t, later.UnixNano(), rec.ModTime, "the touch is recorded")
	assert.Nil(t, sourceRecord(t, kb, "big/f1000.md"))
	require.NoError(t, kb.Close())

	kb = open()
	defer kb.Close()
	rep = ingest(t, kb)
	assert.Equal(t, 0, rep.Files)
	assert.Equal(t, n+1, rep.Unchanged)
}

// TestColdIngestStatsFilesOnWorkers checks the cold path, where the walk
// leaves size and mtime to the parse workers: every source records what
// os.Stat reports, so the next run finds them all unchanged, and a file too
// large for the cap is still skipped.
func TestColdIngestStatsFilesOnWorkers(t *testing.T) {
	ws := writeWorkspace(t, basicWorkspace)
	big := filepath.Join(ws, "big.md")
	require.NoError(t, os.WriteFile(big, make([]byte, 300), 0o644))
	kb := openTestKB(t, ws)
	kb.maxFileSize = 200

	stats, err := fileStats(kb.Store())
	require.NoError(t, err)
	require.Empty(t, stats, "a new knowledge base takes the cold path")
	cands, _, err := walkWorkspace(ws, true)
	require.NoError(t, err)
	for _, c := range cands {
		assert.Equal(t, int64(-1), c.size, "%s stat'ed by a cold walk", c.sourceID)
	}

	rep := ingest(t, kb)
	assert.Equal(t, 3, rep.Files)
	requireOneError(t, rep, CodeTooLarge)
	stats, err = fileStats(kb.Store())
	require.NoError(t, err)
	require.Len(t, stats, 3)
	for id, st := range stats {
		info, err := os.Stat(filepath.Join(ws, filepath.FromSlash(id)))
		require.NoError(t, err)
		assert.Equal(t, info.Size(), st.Size, id)
		assert.Equal(t, info.ModTime().UnixNano(), st.ModTime, id)
		rec, err := kb.store.Source(id)
		require.NoError(t, err)
		assert.Equal(t, info.Size(), rec.Size, id)
	}

	rep = ingest(t, kb)
	assert.Equal(t, 0, rep.Files)
	assert.Equal(t, 3, rep.Unchanged)
}

// TestIngestExcludeAndSavedFile checks that the configured walk options
// reach an ingest, and that a saved file ingested on its own is held to the
// same ignore rules (a file that became ignored leaves the knowledge base).
func TestIngestExcludeAndSavedFile(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"a.md", "drafts/d.md", "notes/n.md", "notes/old.md"} {
		writeFile(t, filepath.Join(ws, f), "# "+f+"\n\nSome text about "+f+".\n")
	}
	kb := openKB(t, Options{Workspace: ws, Walk: WalkOptions{Exclude: []string{"drafts/"}}})
	ctx := t.Context()
	_, err := kb.Ingest(ctx, RunOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"a.md", "notes/n.md", "notes/old.md"}, sourceIDs(t, kb))

	// A saved excluded file is not ingested on its own either.
	rep, err := kb.Ingest(ctx, RunOptions{Only: []string{filepath.Join(ws, "drafts", "d.md")}})
	require.NoError(t, err)
	require.Zero(t, rep.Files)
	require.Equal(t, []string{"a.md", "notes/n.md", "notes/old.md"}, sourceIDs(t, kb))

	// notes/.gitignore now ignores old.md: saving it removes it.
	writeFile(t, filepath.Join(ws, "notes", ".gitignore"), "old.md\n")
	writeFile(t, filepath.Join(ws, "notes", "old.md"), "# old\n\nChanged.\n")
	rep, err = kb.Ingest(ctx, RunOptions{Only: []string{filepath.Join(ws, "notes", "old.md")}})
	require.NoError(t, err)
	require.Equal(t, 1, rep.Removed)
	require.Equal(t, []string{"a.md", "notes/n.md"}, sourceIDs(t, kb))

	// A file cap given when the file is opened again applies to the next
	// full ingest.
	kb = reopenWith(t, kb, Options{Walk: WalkOptions{MaxFiles: 1}})
	rep, err = kb.Ingest(ctx, RunOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"a.md"}, sourceIDs(t, kb))
	require.Equal(t, CodeTooManyFiles, rep.Errors[0].Code)
	require.False(t, rep.Failed(), "the cap is a warning")
}
