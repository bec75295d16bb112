package storetest

import (
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
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
