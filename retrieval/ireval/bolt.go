package ireval

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

// DB is a bbolt file holding one bucket per plugin namespace, opened the way
// the engine opens its store (map freelist, no freelist sync). Bulk loads
// run with NoSync and one fsync at the end, like a cold ingest.
type DB struct {
	db *bolt.DB
}

// OpenDB opens (creating) a bbolt file.
func OpenDB(path string) (*DB, error) {
	db, err := bolt.Open(path, 0o644, &bolt.Options{
		Timeout:        time.Second,
		NoFreelistSync: true,
		FreelistType:   bolt.FreelistMapType,
	})
	if err != nil {
		return nil, fmt.Errorf("ireval: open %s: %w", path, err)
	}
	return &DB{db: db}, nil
}

// Close closes the file.
func (d *DB) Close() error { return d.db.Close() }

// SetNoSync turns per-commit fsync off (bulk load) or back on; turning it on
// flushes what was written meanwhile.
func (d *DB) SetNoSync(on bool) error {
	d.db.NoSync = on
	if !on {
		return d.db.Sync()
	}
	return nil
}

// Size returns the file size in bytes.
func (d *DB) Size() (int64, error) {
	fi, err := os.Stat(d.db.Path())
	if err != nil {
		return 0, fmt.Errorf("ireval: %w", err)
	}
	return fi.Size(), nil
}

// Store returns the namespace of one plugin.
func (d *DB) Store(id string) plugin.Store { return boltStore{db: d.db, name: []byte(id)} }

type boltStore struct {
	db   *bolt.DB
	name []byte
}

func (s boltStore) View(fn func(plugin.KV) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(s.name)
		if b == nil {
			return fn(emptyKV{})
		}
		return fn(BoltKV{b})
	})
}

func (s boltStore) Update(fn func(plugin.KV) error) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(s.name)
		if err != nil {
			return fmt.Errorf("ireval: bucket %s: %w", s.name, err)
		}
		return fn(BoltKV{b})
	})
}

// BoltKV adapts a bbolt bucket to plugin.KV.
type BoltKV struct{ B *bolt.Bucket }

var _ plugin.KV = BoltKV{}

// Get returns the value of key or nil.
func (k BoltKV) Get(key []byte) []byte { return k.B.Get(key) }

// Put stores value under key.
func (k BoltKV) Put(key, value []byte) error { return k.B.Put(key, value) }

// Delete removes key.
func (k BoltKV) Delete(key []byte) error { return k.B.Delete(key) }

// Writable reports whether the transaction can write.
func (k BoltKV) Writable() bool { return k.B.Writable() }

// Scan visits the keys with prefix from start on.
func (k BoltKV) Scan(prefix, start []byte, fn func(key, value []byte) error) error {
	c := k.B.Cursor()
	seek := prefix
	if bytes.Compare(start, prefix) > 0 {
		seek = start
	}
	for key, v := c.Seek(seek); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
		if v == nil {
			continue // nested bucket
		}
		if err := fn(key, v); err != nil {
			if errors.Is(err, plugin.ErrStopScan) {
				return nil
			}
			return err
		}
	}
	return nil
}

type emptyKV struct{}

func (emptyKV) Get([]byte) []byte                                 { return nil }
func (emptyKV) Put(_, _ []byte) error                             { return errors.New("ireval: read-only") }
func (emptyKV) Delete([]byte) error                               { return errors.New("ireval: read-only") }
func (emptyKV) Scan(_, _ []byte, _ func(k, v []byte) error) error { return nil }
func (emptyKV) Writable() bool                                    { return false }

// UpdateAll runs fn in one write transaction over the namespaces of several
// plugins, as the engine's ingest commits a source and calls every hook.
func (d *DB) UpdateAll(names []string, fn func(kvs []plugin.KV) error) error {
	return d.db.Update(func(tx *bolt.Tx) error {
		kvs := make([]plugin.KV, len(names))
		for i, n := range names {
			b, err := tx.CreateBucketIfNotExists([]byte(n))
			if err != nil {
				return fmt.Errorf("ireval: bucket %s: %w", n, err)
			}
			kvs[i] = BoltKV{b}
		}
		return fn(kvs)
	})
}
