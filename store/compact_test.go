package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/store/storetest"
)

// openTestStore opens a store in a new temporary file and closes it when
// the test ends.
func openTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "kb.db"), Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// putSource commits a source of n KUs the way the ingest does.
func putSource(s *Store, id string, n int) error {
	rec := &SourceRecord{SourceID: id, Path: "/ws/" + id, Size: int64(n), Hash: id}
	var units []*kus.KU
	for i := range n {
		u := &kus.KU{ID: fmt.Sprintf("%s::%d", id, i), SourceID: id, Level: "section", Title: id, TextBody: fmt.Sprintf("text %d of %s", i, id)}
		units = append(units, u)
		rec.UnitIDs = append(rec.UnitIDs, u.ID)
	}
	return s.Update(func(tx *Tx) error {
		return tx.PutSource(SourceWrite{Record: rec, Units: units, EncodedUnits: EncodeUnits(units)})
	})
}

// dump returns every key and value of the file, read from a snapshot.
func dump(t *testing.T, s *Store) map[string]string {
	t.Helper()
	snap := filepath.Join(t.TempDir(), "snap.db")
	require.NoError(t, s.Snapshot(snap))
	return storetest.Dump(t, snap)
}

func TestCompactGivesUpWhileAReaderStays(t *testing.T) {
	old := compactWait
	compactWait = 50 * time.Millisecond
	t.Cleanup(func() { compactWait = old })
	s := openTestStore(t)
	for i := range 5 {
		require.NoError(t, putSource(s, fmt.Sprintf("f%d.md", i), 3))
	}
	before := dump(t, s)

	inside, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		_ = s.view(func(*bolt.Tx) error {
			close(inside)
			<-release
			return nil
		})
	})
	<-inside
	err := s.Compact()
	close(release)
	wg.Wait()
	require.Error(t, err)
	assert.True(t, errors.Is(err, errBusy), "%v", err)
	assert.Equal(t, before, dump(t, s))
	_, err = os.Stat(s.Path() + ".compact")
	assert.ErrorIs(t, err, os.ErrNotExist)
	require.NoError(t, putSource(s, "f0.md", 4), "the store stays usable")
	problems, err := s.Verify()
	require.NoError(t, err)
	assert.Empty(t, problems)
}
