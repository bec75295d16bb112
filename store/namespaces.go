package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/internal/boltkv"
	"github.com/mrpvm/mrpvm/plugin"
)

// boltKV is a plugin namespace: one bbolt bucket as plugin.KV, with the
// shared namespaces of its transaction.
type boltKV struct {
	boltkv.Bucket
}

var (
	_ plugin.KV               = boltKV{}
	_ plugin.SharedNamespacer = boltKV{}
)

// Shared returns the shared namespace name inside the same transaction as
// k: the built-in kb-plugins keep one BM25 index there that each of them
// writes idempotently and all of them read. It is the optional
// plugin.SharedNamespacer, not part of plugin.KV. In a read-only transaction a
// namespace nobody wrote yet reads
// as empty.
func (k boltKV) Shared(name string) (plugin.KV, error) {
	return sharedKV(k.B.Tx(), name)
}

func sharedKV(tx *bolt.Tx, name string) (plugin.KV, error) {
	if name == "" {
		return nil, errors.New("shared namespace: empty name")
	}
	return namespace(tx, bucketShared, name)
}

// namespace returns the bucket name nested in the top-level bucket root as
// an plugin.KV: created (append-filled) in a write transaction, read as empty
// in a read transaction when nobody wrote it yet.
func namespace(tx *bolt.Tx, root []byte, name string) (plugin.KV, error) {
	if !tx.Writable() {
		if r := tx.Bucket(root); r != nil {
			if b := r.Bucket([]byte(name)); b != nil {
				return boltKV{boltkv.Bucket{B: b}}, nil
			}
		}
		return boltkv.Empty{}, nil
	}
	r, err := tx.CreateBucketIfNotExists(root)
	if err != nil {
		return nil, fmt.Errorf("%s buckets: %w", root, err)
	}
	b, err := r.CreateBucketIfNotExists([]byte(name))
	if err != nil {
		return nil, fmt.Errorf("%s bucket %s: %w", root, name, err)
	}
	b.FillPercent = appendFill
	return boltKV{boltkv.Bucket{B: b}}, nil
}

// PluginStore returns the private namespace of plugin id.
func (s *Store) PluginStore(id string) plugin.Store {
	return pluginStore{s: s, id: id}
}

// pluginStore implements plugin.Store over one plugin's private bucket.
type pluginStore struct {
	s  *Store
	id string
}

// SharedState returns the in-memory state the plugins attach to shared
// namespace name (such as a decoded-postings cache), creating it with mk on
// first use. It lives as long as the open store, so every plugin reading
// the namespace in this process shares one copy.
func (p pluginStore) SharedState(name string, mk func() any) any {
	return p.s.sharedState(name, mk)
}

var (
	_ plugin.Store        = pluginStore{}
	_ plugin.SharedStater = pluginStore{}
)

func (p pluginStore) View(fn func(plugin.KV) error) error {
	return p.s.view(func(tx *bolt.Tx) error { return p.with(tx, fn) })
}

func (p pluginStore) Update(fn func(plugin.KV) error) error {
	return p.s.update(func(tx *bolt.Tx) error { return p.with(tx, fn) })
}

func (p pluginStore) with(tx *bolt.Tx, fn func(plugin.KV) error) error {
	kv, err := namespace(tx, bucketPlugins, p.id)
	if err != nil {
		return err
	}
	return fn(kv)
}
