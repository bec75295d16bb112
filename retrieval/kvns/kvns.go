package kvns

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
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

// NewNonce is a random odd number that tells one life of an index from
// another: an index cleared and rebuilt starts with a new one, so that a
// cache keyed by nonce and generation never serves the old one's records.
func NewNonce() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) | 1
}

// headerLen is the length of a stats record's header.
const headerLen = 17

// AppendHeader appends to b the header every index's stats record opens
// with: the index's format version, then its nonce and generation as
// 8-byte little-endian numbers.
func AppendHeader(b []byte, format byte, nonce, gen uint64) []byte {
	b = append(b, format)
	b = binary.LittleEndian.AppendUint64(b, nonce)
	return binary.LittleEndian.AppendUint64(b, gen)
}

// ReadStats reads the stats record at key of an index of format version
// format: found is false when there is none (an empty index). decode reads
// the record after its header; a record without that header, or one decode
// refuses, is an error wrapping corrupt.
func ReadStats[S any](kv plugin.KV, key []byte, format byte, corrupt error, decode func(nonce, gen uint64, rest []byte) (S, bool)) (s S, found bool, err error) {
	v := kv.Get(key)
	if v == nil {
		return s, false, nil
	}
	nonce, gen, rest, ok := readHeader(v, format)
	if ok {
		s, ok = decode(nonce, gen, rest)
	}
	if !ok {
		return s, false, fmt.Errorf("%w: stats record", corrupt)
	}
	return s, true, nil
}

// readHeader reads the header AppendHeader wrote at the start of the stats
// record v and returns what follows it; ok is false when v is too short or
// of another format version.
func readHeader(v []byte, format byte) (nonce, gen uint64, rest []byte, ok bool) {
	if len(v) < headerLen || v[0] != format {
		return 0, 0, nil, false
	}
	return binary.LittleEndian.Uint64(v[1:]), binary.LittleEndian.Uint64(v[9:]), v[headerLen:], true
}
