package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// txID is the id of the file's last committed transaction.
func txID(t *testing.T, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	require.NoError(t, err)
	defer db.Close()
	var id int
	require.NoError(t, db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }))
	return id
}

// TestUnchangedCheckOfLargeFolder covers the stats spread over several
// goroutines (a folder of more than statParallelMin files, beside a small
// subfolder): every change is found as before, and a run with no change
// commits no transaction at all, from Open to Close.
func TestUnchangedCheckOfLargeFolder(t *testing.T) {
	ws := t.TempDir()
	const n = 3*statParallelMin + 7
	name := func(i int) string { return filepath.Join(ws, "big", fmt.Sprintf("f%04d.md", i)) }
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "big"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "small"), 0o755))
	for i := 0; i < n; i++ {
		require.NoError(t, os.WriteFile(name(i), fmt.Appendf(nil, "# File %d\n\nText of file %d.\n", i, i), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "small", "a.md"), []byte("# A\n\nText.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "big", "notes.txt"), []byte("not Markdown"), 0o644))
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
	require.NoError(t, os.WriteFile(name(600), []byte("# Changed\n\nNew text.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "big", "zz-new.md"), []byte("# New\n\nMore.\n"), 0o644))
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
	rec, err = kb.Store().Source("big/f1000.md")
	require.NoError(t, err)
	assert.Nil(t, rec)
	require.NoError(t, kb.Close())

	kb = open()
	defer kb.Close()
	rep = ingest(t, kb)
	assert.Equal(t, 0, rep.Files)
	assert.Equal(t, n+1, rep.Unchanged)
}
