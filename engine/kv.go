package engine

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// boltKV adapts one bbolt bucket to sdk.KV.
type boltKV struct {
	b *bolt.Bucket
}

var _ sdk.KV = boltKV{}

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
			if errors.Is(err, sdk.ErrStopScan) {
				return nil
			}
			return err
		}
	}
	return nil
}

// pluginStore implements sdk.Store over one plugin's private bucket.
type pluginStore struct {
	db *bolt.DB
	id string
}

var _ sdk.Store = pluginStore{}

func (p pluginStore) View(fn func(sdk.KV) error) error {
	return p.db.View(func(tx *bolt.Tx) error {
		b := pluginBucket(tx, p.id)
		if b == nil {
			return fn(emptyKV{})
		}
		return fn(boltKV{b})
	})
}

func (p pluginStore) Update(fn func(sdk.KV) error) error {
	return p.db.Update(func(tx *bolt.Tx) error {
		b, err := ensurePluginBucket(tx, p.id)
		if err != nil {
			return err
		}
		return fn(boltKV{b})
	})
}

// pluginBucket returns the private bucket of plugin id, or nil.
func pluginBucket(tx *bolt.Tx, id string) *bolt.Bucket {
	root := tx.Bucket(bucketPlugins)
	if root == nil {
		return nil
	}
	return root.Bucket([]byte(id))
}

func ensurePluginBucket(tx *bolt.Tx, id string) (*bolt.Bucket, error) {
	root, err := tx.CreateBucketIfNotExists(bucketPlugins)
	if err != nil {
		return nil, fmt.Errorf("plugin buckets: %w", err)
	}
	b, err := root.CreateBucketIfNotExists([]byte(id))
	if err != nil {
		return nil, fmt.Errorf("plugin bucket %s: %w", id, err)
	}
	return b, nil
}

// emptyKV is a read-only KV with no keys, used before a plugin has written anything.
type emptyKV struct{}

func (emptyKV) Get([]byte) []byte                                       { return nil }
func (emptyKV) Put(_, _ []byte) error                                   { return errors.New("put in a read-only transaction") }
func (emptyKV) Delete([]byte) error                                     { return errors.New("delete in a read-only transaction") }
func (emptyKV) Scan(_, _ []byte, _ func(key, value []byte) error) error { return nil }
func (emptyKV) Writable() bool                                          { return false }
