package kvns

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/mrpvm/mrpvm/plugin"
)

// DeletePrefix deletes every key with prefix. The keys are collected
// first (a KV may not be modified while it is scanned), then deleted last
// to first.
func DeletePrefix(kv plugin.KV, prefix []byte) error {
	var keys [][]byte
	err := kv.Scan(prefix, nil, func(k, _ []byte) error {
		keys = append(keys, bytes.Clone(k))
		return nil
	})
	if err != nil {
		return err
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if err := kv.Delete(keys[i]); err != nil {
			return err
		}
	}
	return nil
}

// Clear deletes every key of the index named name, whose keys start with
// prefix.
func Clear(kv plugin.KV, name string, prefix []byte) error {
	if err := DeletePrefix(kv, prefix); err != nil {
		return fmt.Errorf("%s: clear: %w", name, err)
	}
	return nil
}

// WriteSource runs write, an index's replacement of one source's keys in
// kv, once kv is known to be writable. When that fails it calls drop (what
// the index holds in memory may no longer match kv) and wraps the error
// with the index's name and the source.
func WriteSource(kv plugin.KV, name, sourceID string, write func() error, drop func()) error {
	err := errors.New("read-only transaction")
	if kv.Writable() {
		err = write()
	}
	if err != nil {
		drop()
		return fmt.Errorf("%s: index source %s: %w", name, sourceID, err)
	}
	return nil
}
