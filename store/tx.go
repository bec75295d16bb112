package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// Tx is one transaction of the store, read-only (View) or read-write
// (Update). It and everything read through it are valid only until the
// function it was handed to returns.
type Tx struct{ tx *bolt.Tx }

var _ plugin.KUReader = (*Tx)(nil)

// View runs fn in a read transaction. A damaged page is reported as
// CodeCorrupt, never as a panic.
func (s *Store) View(fn func(*Tx) error) error {
	return s.view(func(tx *bolt.Tx) error { return fn(&Tx{tx}) })
}

// Update runs fn in a write transaction: every change fn makes lands, or
// none does when fn returns an error. A damaged page is reported as
// CodeCorrupt; a read-only store fails with CodeReadOnly.
func (s *Store) Update(fn func(*Tx) error) error {
	return s.update(func(tx *bolt.Tx) error { return fn(&Tx{tx}) })
}

// KU returns one stored unit by id, or nil.
func (t *Tx) KU(id string) (*kus.KU, error) { return getKU(t.tx, id) }

// Source returns the record of one source, or nil.
func (t *Tx) Source(id string) (*SourceRecord, error) { return getSource(t.tx, id) }

// PluginKV returns the private namespace of plugin id inside t, creating it
// in a write transaction; in a read transaction a namespace nobody wrote
// yet reads as empty.
func (t *Tx) PluginKV(id string) (plugin.KV, error) { return namespace(t.tx, bucketPlugins, id) }

// DropPluginKV deletes the private namespace of plugin id with every key
// in it.
func (t *Tx) DropPluginKV(id string) error {
	root := t.tx.Bucket(bucketPlugins)
	if root.Bucket([]byte(id)) == nil {
		return nil
	}
	if err := root.DeleteBucket([]byte(id)); err != nil {
		return fmt.Errorf("drop plugin bucket %s: %w", id, err)
	}
	return nil
}

func hookMetaKey(id string) []byte { return []byte("hook:" + id) }

// HookVersion returns the index version recorded for ingest hook id ("" when
// none is: the hook's index has to be built from the stored KUs).
func (t *Tx) HookVersion(id string) string {
	return string(t.tx.Bucket(bucketMeta).Get(hookMetaKey(id)))
}

// SetHookVersion records that hook id's index is complete at version v.
func (t *Tx) SetHookVersion(id, v string) error {
	return t.tx.Bucket(bucketMeta).Put(hookMetaKey(id), []byte(v))
}

// ForgetHookVersion marks hook id's index stale: the next ingest rebuilds it.
func (t *Tx) ForgetHookVersion(id string) error {
	return t.tx.Bucket(bucketMeta).Delete(hookMetaKey(id))
}
