package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugins/sdk"
	"github.com/mrpvm/mrpvm/store"
)

// dump returns every key and value of the file, bucket by bucket, read
// from a snapshot of it.
func dump(t *testing.T, s *store.Store) map[string]string {
	t.Helper()
	snap := filepath.Join(t.TempDir(), "snap.db")
	require.NoError(t, s.Snapshot(snap))
	db, err := bolt.Open(snap, 0o644, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	require.NoError(t, err)
	defer db.Close()
	out := map[string]string{}
	var walk func(prefix string, b *bolt.Bucket) error
	walk = func(prefix string, b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(prefix+string(k)+"/", b.Bucket(k))
			}
			out[prefix+string(k)] = string(v)
			return nil
		})
	}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name)+"/", b) })
	}))
	return out
}

func TestCompactKeepsContentAndStoreUsable(t *testing.T) {
	ws := writeWorkspace(t, basicWorkspace)
	hook := &recordingHook{id: "rec"}
	kb := openTestKB(t, ws, hook)
	ingest(t, kb)
	ps := kb.Store().PluginStore("rec") // handed out before the swap
	before := dump(t, kb.Store())
	require.NotEmpty(t, before)

	require.NoError(t, kb.Compact())
	assert.Equal(t, before, dump(t, kb.Store()), "same keys and values")
	_, err := os.Stat(kb.Store().Path() + ".compact")
	assert.ErrorIs(t, err, os.ErrNotExist, "no temporary file left")

	// The store and the namespaces handed out before keep working.
	require.NoError(t, ps.Update(func(kv sdk.KV) error { return kv.Put([]byte("k"), []byte("v")) }))
	require.NoError(t, ps.View(func(kv sdk.KV) error {
		assert.Equal(t, []byte("v"), kv.Get([]byte("k")))
		return nil
	}))
	bump(t, ws+"/README.md")
	require.NoError(t, os.WriteFile(ws+"/README.md", []byte("# Project\n\nChanged.\n"), 0o644))
	rep := ingest(t, kb)
	assert.Equal(t, 1, rep.Files)
	u, err := kb.Store().KU("README.md::source-summary")
	require.NoError(t, err)
	require.NotNil(t, u)
	assert.Contains(t, u.TextBody, "Changed.")

	kb = reopen(t, kb, hook)
	problems, err := kb.Store().Verify()
	require.NoError(t, err)
	assert.Empty(t, problems)
}

func TestIngestCompactOption(t *testing.T) {
	ws := writeWorkspace(t, basicWorkspace)
	kb := openTestKB(t, ws)
	rep, err := kb.Ingest(context.Background(), RunOptions{Compact: true})
	require.NoError(t, err)
	assert.Empty(t, rep.Errors)
	assert.Positive(t, rep.KUs)
	problems, err := kb.Store().Verify()
	require.NoError(t, err)
	assert.Empty(t, problems)
	n, units, err := kb.Store().Counts()
	require.NoError(t, err)
	assert.Equal(t, rep.KUs, units)
	assert.Positive(t, n)
}
