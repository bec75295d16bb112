package ingest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/store"
)

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
	require.Len(t, rep.Errors, 1)
	assert.Equal(t, CodeTooLarge, rep.Errors[0].Code)
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

// fileStats returns the size and mtime of every source, by source id.
func fileStats(s *store.Store) (map[string]store.FileStat, error) {
	list, err := s.FileStats()
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.FileStat, len(list))
	for _, e := range list {
		out[e.SourceID] = e
	}
	return out, nil
}
