package store

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

func TestStoreLockedByAnotherHandleFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	defer s.Close()
	start := time.Now()
	_, err = Open(path, Options{LockTimeout: 300 * time.Millisecond})
	require.ErrorIs(t, err, ErrLocked)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Contains(t, err.Error(), "in use by another mrpvm process")
}

func TestStoreCorruptFile(t *testing.T) {
	cases := map[string]func(t *testing.T, path string){
		"garbage": func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, []byte("this is not a bbolt file, just text that goes on and on"), 0o644))
		},
		"truncated": func(t *testing.T, path string) {
			s, err := Open(path, Options{})
			require.NoError(t, err)
			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket(bucketKUs)
				for i := 0; i < 2000; i++ {
					if err := b.Put([]byte(filepathKey(i)), make([]byte, 512)); err != nil {
						return err
					}
				}
				return nil
			}))
			require.NoError(t, s.Close())
			info, err := os.Stat(path)
			require.NoError(t, err)
			require.NoError(t, os.Truncate(path, info.Size()/3))
		},
		"zeroed meta": func(t *testing.T, path string) {
			s, err := Open(path, Options{})
			require.NoError(t, err)
			require.NoError(t, s.Close())
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			require.NoError(t, err)
			_, err = f.WriteAt(make([]byte, 8192), 0)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kb.db")
			damage(t, path)
			_, err := Open(path, Options{LockTimeout: 200 * time.Millisecond})
			require.ErrorIs(t, err, ErrCorrupt)
			assert.Contains(t, err.Error(), "--rebuild")

			s, err := Open(path, Options{Rebuild: true})
			require.NoError(t, err)
			defer s.Close()
			assert.True(t, s.Rebuilt)
			assert.FileExists(t, s.MovedAside, "the damaged file is kept, not deleted")
		})
	}
}

func filepathKey(i int) string {
	return filepath.Join("k", string(rune('a'+i%26)), time.Duration(i).String())
}

func TestStoreSchemaMismatchRebuilds(t *testing.T) {
	for name, schema := range map[string]string{
		"older layout": "0",
		// The same layout, its KUs made by a Markdown reader before
		// kus.ReaderVersion was recorded.
		"earlier reader": strconv.Itoa(SchemaVersion),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kb.db")
			s, err := Open(path, Options{})
			require.NoError(t, err)
			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
				if err := tx.Bucket(bucketKUs).Put([]byte("old"), []byte("{}")); err != nil {
					return err
				}
				return tx.Bucket(bucketMeta).Put(keySchema, []byte(schema))
			}))
			require.NoError(t, s.Close())

			s, err = Open(path, Options{})
			require.NoError(t, err)
			defer s.Close()
			assert.True(t, s.Rebuilt)
			ku, err := s.KU("old")
			require.NoError(t, err)
			assert.Nil(t, ku)
		})
	}
}

func TestStoreUncleanShutdownIsChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	require.NoError(t, s.db.Close()) // no clean Close: the dirty flag stays
	s, err = Open(path, Options{})
	require.NoError(t, err, "a consistent file opens after a full check")
	require.NoError(t, s.Close())
}

func TestDefaultDBPathIsStablePerWorkspace(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a, err := DefaultPath("/tmp/ws-a")
	require.NoError(t, err)
	b, err := DefaultPath("/tmp/ws-a/")
	require.NoError(t, err)
	c, err := DefaultPath("/tmp/ws-b")
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
	assert.Equal(t, "kb.db", filepath.Base(a))
}

// TestSharedNamespace checks the namespace the built-in kb-plugins share:
// it is written inside the hook's own transaction, reads as empty before
// anyone wrote it, and lives outside the plugin buckets.
func TestSharedNamespace(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "kb.db"), Options{})
	require.NoError(t, err)
	defer s.Close()

	ro := s.PluginStore("p1")
	require.NoError(t, ro.View(func(kv plugin.KV) error {
		// Nothing written yet: the plugin's own namespace is empty too.
		_, ok := kv.(plugin.SharedNamespacer)
		assert.False(t, ok, "an unwritten namespace offers no shared view")
		return nil
	}))
	require.NoError(t, s.PluginStore("p1").Update(func(kv plugin.KV) error {
		sh, err := kv.(plugin.SharedNamespacer).Shared("idx")
		require.NoError(t, err)
		return sh.Put([]byte("k"), []byte("v1"))
	}))
	require.NoError(t, s.PluginStore("p2").Update(func(kv plugin.KV) error {
		sh, err := kv.(plugin.SharedNamespacer).Shared("idx")
		require.NoError(t, err)
		assert.Equal(t, "v1", string(sh.Get([]byte("k"))), "another plugin sees the same namespace")
		empty, err := kv.(plugin.SharedNamespacer).Shared("other")
		require.NoError(t, err)
		assert.Nil(t, empty.Get([]byte("k")))
		_, err = kv.(plugin.SharedNamespacer).Shared("")
		assert.Error(t, err)
		return nil
	}))
	require.NoError(t, s.PluginStore("p2").View(func(kv plugin.KV) error {
		sh, err := kv.(plugin.SharedNamespacer).Shared("missing")
		require.NoError(t, err)
		assert.False(t, sh.Writable())
		assert.Nil(t, sh.Get([]byte("k")))
		return nil
	}))
	st, err := s.Stats()
	require.NoError(t, err)
	assert.Equal(t, []string{"p1", "p2"}, st.Plugins, "shared namespaces are not plugin indexes")

	a := s.PluginStore("p1").(plugin.SharedStater).SharedState("idx", func() any { return new(int) })
	b := s.PluginStore("p2").(plugin.SharedStater).SharedState("idx", func() any { return new(int) })
	assert.Same(t, a, b, "one in-memory state per namespace and open store")
}

// TestDirtyMarkOnlyWhileWriting checks the unclean-shutdown mark: a process
// that writes marks the file dirty (durably) before its first write, so a
// crash is still detected, and a clean Close clears it; one that only reads
// leaves the file as it was.
func TestDirtyMarkOnlyWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.db")
	dirty := func(s *Store) bool {
		var d bool
		require.NoError(t, s.view(func(tx *bolt.Tx) error { d = tx.Bucket(bucketMeta).Get(keyDirty) != nil; return nil }))
		return d
	}
	s, err := Open(path, Options{})
	require.NoError(t, err)
	assert.True(t, dirty(s), "a new file is written at once")
	require.NoError(t, s.Close())

	s, err = Open(path, Options{})
	require.NoError(t, err)
	assert.False(t, dirty(s), "opening a file in shape writes nothing")
	require.NoError(t, s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucketKUs).Put([]byte("k"), []byte("v")) }))
	assert.True(t, dirty(s), "the first write marks the file")
	require.NoError(t, s.db.Close()) // crash: no clean Close

	s, err = Open(path, Options{})
	require.NoError(t, err, "checked in full, then opened")
	assert.True(t, dirty(s), "a file left dirty stays marked until this process closes it")
	require.NoError(t, s.Close())

	s, err = Open(path, Options{})
	require.NoError(t, err)
	defer s.Close()
	assert.False(t, dirty(s))
}
