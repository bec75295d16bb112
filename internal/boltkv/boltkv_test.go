package boltkv

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

func TestBucketScanWriteAndReadOnly(t *testing.T) {
	db := namespaceWithBucket(t, "p/nested", func(kv Bucket) error {
		for _, k := range []string{"p/a", "p/b", "p/c", "q/a"} {
			if err := kv.Put([]byte(k), []byte("v"+k)); err != nil {
				return err
			}
		}
		return kv.Delete([]byte("p/c"))
	})
	err := db.View(func(tx *bolt.Tx) error {
		kv := Bucket{B: tx.Bucket([]byte("ns"))}
		var got []string
		scan := func(start string, stopAt string) error {
			got = got[:0]
			return kv.Scan([]byte("p/"), []byte(start), func(k, v []byte) error {
				got = append(got, string(k)+"="+string(v))
				if string(k) == stopAt {
					return plugin.ErrStopScan
				}
				return nil
			})
		}
		if err := scan("", ""); err != nil {
			return err
		}
		if want := "[p/a=vp/a p/b=vp/b]"; fmt.Sprint(got) != want {
			t.Errorf("scan: %s, want %s", fmt.Sprint(got), want)
		}
		if err := scan("p/b", ""); err != nil {
			return err
		}
		if want := "[p/b=vp/b]"; fmt.Sprint(got) != want {
			t.Errorf("scan from p/b: %s, want %s", fmt.Sprint(got), want)
		}
		if err := scan("", "p/a"); err != nil {
			return err
		}
		if want := "[p/a=vp/a]"; fmt.Sprint(got) != want {
			t.Errorf("stopped scan: %s, want %s", fmt.Sprint(got), want)
		}
		for _, kv := range []plugin.KV{kv, Empty{}} {
			if kv.Writable() {
				t.Errorf("%T writable in a read transaction", kv)
			}
			if err := kv.Put([]byte("x"), []byte("y")); !errors.Is(err, ErrReadOnly) {
				t.Errorf("%T put: %v", kv, err)
			}
			if err := kv.Delete([]byte("p/a")); !errors.Is(err, ErrReadOnly) {
				t.Errorf("%T delete: %v", kv, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPutOverABucketIsKBCorrupt: a namespace of plain keys holds no nested
// bucket, so bbolt's refusal to put or delete a value where its page marks
// the key as one is a damaged file (plugin.ErrKBCorrupt).
func TestPutOverABucketIsKBCorrupt(t *testing.T) {
	namespaceWithBucket(t, "k", func(kv Bucket) error {
		if err := kv.Put([]byte("k"), []byte("v")); !errors.Is(err, plugin.ErrKBCorrupt) {
			t.Errorf("put over a bucket: %v, want kb_corrupt", err)
		}
		if err := kv.Delete([]byte("k")); !errors.Is(err, plugin.ErrKBCorrupt) {
			t.Errorf("delete of a bucket: %v, want kb_corrupt", err)
		}
		if err := kv.Put([]byte("other"), []byte("v")); err != nil {
			t.Errorf("plain put: %v", err)
		}
		return nil
	})
}

// namespaceWithBucket makes a database whose bucket "ns" holds a nested
// bucket named nested, runs fn on "ns" in that write transaction and
// returns the database, closed when the test ends.
func namespaceWithBucket(t *testing.T, nested string, fn func(kv Bucket) error) *bolt.DB {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "kv.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("ns"))
		if err != nil {
			return err
		}
		if _, err := b.CreateBucket([]byte(nested)); err != nil {
			return err
		}
		return fn(Bucket{B: b})
	}); err != nil {
		t.Fatal(err)
	}
	return db
}
