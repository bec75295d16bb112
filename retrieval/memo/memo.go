// Package memo is a small bounded cache keyed by content hashes. The
// retrieval cores use it to keep the CPU-bound half of indexing a source
// (analysis, encoding, fact extraction) between a Prepare call, which may
// run on any goroutine ahead of the write transaction, and the IndexSource
// call inside it; and to let the kb-plugins that index the same source one
// after the other share that work.
package memo

import "sync"

// Cache maps hashes to values, evicting the oldest entry beyond its
// capacity. It is safe for concurrent use.
type Cache[V any] struct {
	mu    sync.Mutex
	m     map[uint64]V
	ring  []uint64
	next  int
	limit int
}

// New returns a cache holding at most capacity entries (at least 1).
func New[V any](capacity int) *Cache[V] {
	capacity = max(1, capacity)
	return &Cache[V]{m: make(map[uint64]V, capacity), limit: capacity}
}

// Get returns the value cached under k.
func (c *Cache[V]) Get(k uint64) (V, bool) {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	return v, ok
}

// Put caches v under k, evicting the oldest entry when full.
func (c *Cache[V]) Put(k uint64, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		c.m[k] = v
		return
	}
	if len(c.ring) < c.limit {
		c.ring = append(c.ring, k)
	} else {
		delete(c.m, c.ring[c.next])
		c.ring[c.next] = k
		c.next = (c.next + 1) % c.limit
	}
	c.m[k] = v
}

// Len returns the number of entries.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
