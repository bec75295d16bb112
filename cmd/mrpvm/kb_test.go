package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
)

// sourcesIn counts the sources of a knowledge base file.
func sourcesIn(t *testing.T, path string) int {
	t.Helper()
	s, err := store.Open(path, store.Options{ReadOnly: true})
	require.NoError(t, err)
	defer s.Close()
	n, _, err := s.Counts()
	require.NoError(t, err)
	return n
}

// TestKBCommands: mrpvm kb save, load and fork over real knowledge base
// files: a saved snapshot keeps the knowledge base as it was, load makes
// the workspace's file a copy of it (the snapshot is not changed and the
// replaced file is kept), fork continues on a new file; bad names, taken
// names and missing snapshots are errors that change nothing.
func TestKBCommands(t *testing.T) {
	t.Setenv("MRPVM_CONFIG_DIR", t.TempDir())
	ws, snaps := t.TempDir(), t.TempDir()
	db := filepath.Join(t.TempDir(), "kb.db")
	testtree.WriteFile(t, filepath.Join(ws, "a.md"), "# A\n\nAlpha uses beta.\n")
	kb := func(args ...string) (kbCmdResult, error) {
		out, err := runCLI(t, append([]string{"-w", ws, "--db", db, "--json", "kb"}, append(args, "--snapshot-dir", snaps)...)...)
		var res kbCmdResult
		if err == nil {
			require.NoError(t, json.Unmarshal([]byte(out), &res), out)
			assert.NotNil(t, res.HookProblems)
			assert.Empty(t, res.HookProblems)
		}
		return res, err
	}
	_, err := runCLI(t, "-w", ws, "--db", db, "ingest")
	require.NoError(t, err)
	base := sourcesIn(t, db)

	res, err := kb("save", "one")
	require.NoError(t, err)
	assert.Equal(t, kbCmdResult{Action: "save", Name: "one", Snapshot: filepath.Join(snaps, "one.db"), KB: db, HookProblems: []vm.StageError{}}, res)
	assert.Equal(t, base, sourcesIn(t, res.Snapshot))

	// The workspace grows; loading the snapshot brings the knowledge base
	// back to it.
	testtree.WriteFile(t, filepath.Join(ws, "b.md"), "# B\n\nBeta uses gamma.\n")
	_, err = runCLI(t, "-w", ws, "--db", db, "ingest")
	require.NoError(t, err)
	require.Equal(t, base+1, sourcesIn(t, db))
	res, err = kb("load", "one")
	require.NoError(t, err)
	assert.Equal(t, db, res.KB)
	assert.Equal(t, db+".before-load", res.Previous)
	assert.Equal(t, base, sourcesIn(t, db), "the knowledge base is the snapshot's copy")
	assert.Equal(t, base+1, sourcesIn(t, res.Previous), "the replaced file is kept")
	assert.Equal(t, base, sourcesIn(t, filepath.Join(snaps, "one.db")), "the snapshot does not change")

	res, err = kb("fork", "two")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(snaps, "two.db"), res.KB)
	assert.Equal(t, base, sourcesIn(t, res.KB))

	for _, bad := range [][]string{{"save", "one"}, {"save", "../x"}, {"load", "missing"}, {"fork", "two"}} {
		_, err := kb(bad...)
		assert.Error(t, err, "%v", bad)
	}
	entries, err := os.ReadDir(snaps)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "failed commands leave no file")
}
