// Package kvtest provides an in-memory plugin.KV for the tests of the retrieval
// cores.
package kvtest

import (
	"bytes"
	"errors"
	"slices"
	"sort"

	"github.com/mrpvm/mrpvm/plugin"
)

// Mem is an in-memory plugin.KV with sorted keys. It is not safe for concurrent
// writes; concurrent reads are fine.
type Mem struct {
	keys     []string // sorted
	vals     map[string][]byte
	ReadOnly bool
}

var _ plugin.KV = (*Mem)(nil)

// New returns an empty Mem.
func New() *Mem { return &Mem{vals: make(map[string][]byte)} }

// Get returns the value of key or nil.
func (m *Mem) Get(key []byte) []byte { return m.vals[string(key)] }

// Put stores value. Like bbolt, it keeps the slice: the caller must not
// modify it afterwards.
func (m *Mem) Put(key, value []byte) error {
	if m.ReadOnly {
		return errors.New("kvtest: read-only")
	}
	k := string(key)
	if _, ok := m.vals[k]; !ok {
		i := sort.SearchStrings(m.keys, k)
		m.keys = slices.Insert(m.keys, i, k)
	}
	// Keep the caller's slice, as bbolt does until commit, so that tests
	// catch a caller reusing a buffer it has passed to Put.
	if value == nil {
		value = []byte{}
	}
	m.vals[k] = value
	return nil
}

// Delete removes key.
func (m *Mem) Delete(key []byte) error {
	if m.ReadOnly {
		return errors.New("kvtest: read-only")
	}
	k := string(key)
	if _, ok := m.vals[k]; !ok {
		return nil
	}
	delete(m.vals, k)
	i := sort.SearchStrings(m.keys, k)
	m.keys = slices.Delete(m.keys, i, i+1)
	return nil
}

// Scan visits keys with prefix from start on, in order.
func (m *Mem) Scan(prefix, start []byte, fn func(key, value []byte) error) error {
	seek := string(prefix)
	if string(start) > seek {
		seek = string(start)
	}
	for i := sort.SearchStrings(m.keys, seek); i < len(m.keys); i++ {
		k := m.keys[i]
		if !bytes.HasPrefix([]byte(k), prefix) {
			break
		}
		if err := fn([]byte(k), m.vals[k]); err != nil {
			if errors.Is(err, plugin.ErrStopScan) {
				return nil
			}
			return err
		}
	}
	return nil
}

// Writable reports whether Put and Delete are allowed.
func (m *Mem) Writable() bool { return !m.ReadOnly }

// Len returns the number of keys.
func (m *Mem) Len() int { return len(m.keys) }

// Keys returns the keys in order.
func (m *Mem) Keys() []string { return slices.Clone(m.keys) }

// Dump returns a copy of every key and value.
func (m *Mem) Dump() map[string][]byte {
	d := make(map[string][]byte, len(m.vals))
	for k, v := range m.vals {
		d[k] = bytes.Clone(v)
	}
	return d
}
