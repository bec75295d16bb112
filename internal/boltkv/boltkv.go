package boltkv

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/mrpvm/mrpvm/plugin"
)

// ErrReadOnly is what Put and Delete return, wrapped, outside a write
// transaction.
var ErrReadOnly = errors.New("read-only transaction")

var (
	errPut    = fmt.Errorf("put in a %w", ErrReadOnly)
	errDelete = fmt.Errorf("delete in a %w", ErrReadOnly)
)

// Bucket adapts one bbolt bucket to plugin.KV. It is valid for the life of
// the bucket's transaction.
type Bucket struct {
	B *bolt.Bucket
}

var _ plugin.KV = Bucket{}

// Get returns the value of key, or nil.
func (k Bucket) Get(key []byte) []byte { return k.B.Get(key) }

// Put stores value under key; in a read-only transaction it returns an
// error wrapping ErrReadOnly.
func (k Bucket) Put(key, value []byte) error {
	if !k.Writable() {
		return errPut
	}
	return damaged(k.B.Put(key, value), key)
}

// Delete removes key; in a read-only transaction it returns an error
// wrapping ErrReadOnly.
func (k Bucket) Delete(key []byte) error {
	if !k.Writable() {
		return errDelete
	}
	return damaged(k.B.Delete(key), key)
}

// damaged reads bbolt's refusal to put or delete a plain value where its
// page marks the key as a nested bucket as a damaged file: a namespace of
// plain keys holds no bucket, so only a damaged page can say so.
func damaged(err error, key []byte) error {
	if errors.Is(err, bolterrors.ErrIncompatibleValue) {
		return fmt.Errorf("%w: key %q is marked as a nested bucket: %v", plugin.ErrKBCorrupt, key, err)
	}
	return err
}

// Writable reports whether the transaction can write.
func (k Bucket) Writable() bool { return k.B.Writable() }

// Scan visits the keys with prefix, in key order, from start on (from the
// prefix when start sorts before it). Nested buckets are not values and are
// passed over. A callback returning plugin.ErrStopScan ends the scan
// without error.
func (k Bucket) Scan(prefix, start []byte, fn func(key, value []byte) error) error {
	c := k.B.Cursor()
	seek := prefix
	if bytes.Compare(start, prefix) > 0 {
		seek = start
	}
	for key, v := c.Seek(seek); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
		if v == nil && k.B.Bucket(key) != nil {
			continue
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

// Empty is a read-only plugin.KV with no keys: a namespace nobody has
// written yet, read outside a write transaction.
type Empty struct{}

var _ plugin.KV = Empty{}

// Get returns nil.
func (Empty) Get([]byte) []byte { return nil }

// Put returns an error wrapping ErrReadOnly.
func (Empty) Put(_, _ []byte) error { return errPut }

// Delete returns an error wrapping ErrReadOnly.
func (Empty) Delete([]byte) error { return errDelete }

// Scan visits nothing.
func (Empty) Scan(_, _ []byte, _ func(key, value []byte) error) error { return nil }

// Writable returns false.
func (Empty) Writable() bool { return false }
