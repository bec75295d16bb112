package ireval

import (
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/internal/boltkv"
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
			return fn(boltkv.Empty{})
		}
		return fn(boltkv.Bucket{B: b})
	})
}

func (s boltStore) Update(fn func(plugin.KV) error) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(s.name)
		if err != nil {
			return fmt.Errorf("ireval: bucket %s: %w", s.name, err)
		}
		return fn(boltkv.Bucket{B: b})
	})
}

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
			kvs[i] = boltkv.Bucket{B: b}
		}
		return fn(kvs)
	})
}
