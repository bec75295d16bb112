package storetest

import (
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

// Dump returns every key and value of the bbolt file at path (a snapshot,
// store.Store.Snapshot), bucket by bucket: the key of a value in a nested
// bucket is its bucket names and its key joined by "/".
func Dump(tb testing.TB, path string) map[string]string {
	tb.Helper()
	db, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
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
	if err := db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name)+"/", b) })
	}); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return out
}

// Garble overwrites every value of st, a plugin's private namespace, with
// bytes no decoder accepts, for tests of the repair of a corrupt index. The
// test fails when st holds no value.
func Garble(tb testing.TB, st plugin.Store) {
	tb.Helper()
	n := 0
	err := st.Update(func(kv plugin.KV) error {
		var keys [][]byte
		if err := kv.Scan(nil, nil, func(k, _ []byte) error {
			keys = append(keys, append([]byte(nil), k...))
			return nil
		}); err != nil {
			return err
		}
		for _, k := range keys {
			if err := kv.Put(k, []byte{0xff, 0xfe, 0x00, 0x01}); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil || n == 0 {
		tb.Fatalf("garble: %v (%d keys)", err, n)
	}
}
