package lsp

import "sync"

// hoverCache keeps rendered hovers (including "nothing here") until the
// folder's knowledge base changes: every ingest run and every switch of
// knowledge base starts a new generation. Common words have long posting
// lists, so the cache takes the slow tail off repeated hovers.
type hoverCache struct {
	mu     sync.Mutex
	gen    uint64
	m      map[string]string
	ingest int // ingest runs in flight: their commits are not final yet
}

// maxCachedHovers bounds the cache; it is emptied when full.
const maxCachedHovers = 4096

func (c *hoverCache) get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	md, ok := c.m[key]
	return md, ok
}

func (c *hoverCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put stores a hover computed during generation gen (dropped when the
// knowledge base changed meanwhile).
func (c *hoverCache) put(gen uint64, key, md string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.ingest > 0 {
		return
	}
	if c.m == nil || len(c.m) >= maxCachedHovers {
		c.m = map[string]string{}
	}
	c.m[key] = md
}

// invalidate starts a new generation.
func (c *hoverCache) invalidate() {
	c.mu.Lock()
	c.gen++
	c.m = nil
	c.mu.Unlock()
}

// beginIngest stops caching until the matching endIngest, which starts a
// new generation: while sources are being committed nothing is final.
func (c *hoverCache) beginIngest() {
	c.mu.Lock()
	c.ingest++
	c.gen++
	c.m = nil
	c.mu.Unlock()
}

func (c *hoverCache) endIngest() {
	c.mu.Lock()
	c.ingest--
	c.gen++
	c.m = nil
	c.mu.Unlock()
}
