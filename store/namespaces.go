package store

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

// boltKV adapts one bbolt bucket to plugin.KV.
type boltKV struct {
	b *bolt.Bucket
}

var _ plugin.KV = boltKV{}

func (k boltKV) Get(key []byte) []byte { return k.b.Get(key) }

func (k boltKV) Put(key, value []byte) error {
	if !k.Writable() {
		return errors.New("put in a read-only transaction")
	}
	return k.b.Put(key, value)
}

func (k boltKV) Delete(key []byte) error {
	if !k.Writable() {
		return errors.New("delete in a read-only transaction")
	}
	return k.b.Delete(key)
}

func (k boltKV) Writable() bool { return k.b.Writable() }

// Shared returns the shared namespace name inside the same transaction as
// k: the built-in kb-plugins keep one BM25 index there that each of them
// writes idempotently and all of them read. It is
// not part of plugin.KV, so third-party plugins only ever see their private
// namespace. In a read-only transaction a namespace nobody wrote yet reads
// as empty.
func (k boltKV) Shared(name string) (plugin.KV, error) {
	return sharedKV(k.b.Tx(), name)
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
				return boltKV{b}, nil
			}
		}
		return emptyKV{}, nil
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
	return boltKV{b}, nil
}

func (k boltKV) Scan(prefix, start []byte, fn func(key, value []byte) error) error {
	c := k.b.Cursor()
	seek := prefix
	if bytes.Compare(start, prefix) > 0 {
		seek = start
	}
	for key, v := c.Seek(seek); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
		if v == nil && k.b.Bucket(key) != nil {
			continue // nested bucket, not a value
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

var _ plugin.Store = pluginStore{}

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

// emptyKV is a read-only KV with no keys, used before a plugin has written anything.
type emptyKV struct{}

func (emptyKV) Get([]byte) []byte                                       { return nil }
func (emptyKV) Put(_, _ []byte) error                                   { return errors.New("put in a read-only transaction") }
func (emptyKV) Delete([]byte) error                                     { return errors.New("delete in a read-only transaction") }
func (emptyKV) Scan(_, _ []byte, _ func(key, value []byte) error) error { return nil }
func (emptyKV) Writable() bool                                          { return false }
