package kvns

import (
	"bytes"
	"fmt"

	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// DeletePrefix deletes every key with prefix. The keys are collected
// first (a KV may not be modified while it is scanned), then deleted last
// to first.
func DeletePrefix(kv sdk.KV, prefix []byte) error {
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
func Clear(kv sdk.KV, name string, prefix []byte) error {
	if err := DeletePrefix(kv, prefix); err != nil {
		return fmt.Errorf("%s: clear: %w", name, err)
	}
	return nil
}
