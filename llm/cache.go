package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// Cache stores replies by key. It is off unless the caller passes one in
// Options (the CLI's --llm-cache). Implementations must be safe for
// concurrent use; Get returns a copy the caller may keep.
type Cache interface {
	Get(key []byte) (value []byte, ok bool, err error)
	Put(key, value []byte) error
}

// cacheVersion prefixes every key; bump it when the key or entry layout
// changes.
const cacheVersion = "llm1"

// cacheKey is "llm1/<model>/<hex sha256>" where the hash covers everything
// that shapes the reply: base URL, model, messages, temperature,
// max_tokens and the JSON flag. The key is never part of it.
func cacheKey(ep Endpoint, body wireRequest) []byte {
	h := sha256.New()
	// json.Marshal of these plain types cannot fail.
	b, _ := json.Marshal(struct {
		URL         string           `json:"u"`
		Model       string           `json:"m"`
		Messages    []plugin.Message `json:"msgs"`
		Temperature *float64         `json:"t"`
		MaxTokens   int              `json:"n"`
		JSON        bool             `json:"j"`
	}{chatURL(redactURL(ep.BaseURL)), body.Model, body.Messages, body.Temperature, body.MaxTokens, body.ResponseFormat != nil})
	h.Write(b)
	return []byte(cacheVersion + "/" + body.Model + "/" + hex.EncodeToString(h.Sum(nil)))
}

// cacheEntry is a stored reply.
type cacheEntry struct {
	Text         string    `json:"text"`
	Model        string    `json:"model"`
	FinishReason string    `json:"finishReason,omitempty"`
	Usage        Usage     `json:"usage"`
	At           time.Time `json:"at"`
}

// StoreCache keeps replies in an plugin.Store namespace, e.g. the bucket the
// engine reserves for the bridge.
func StoreCache(s plugin.Store) Cache { return storeCache{s} }

type storeCache struct{ s plugin.Store }

func (c storeCache) Get(key []byte) ([]byte, bool, error) {
	var out []byte
	err := c.s.View(func(kv plugin.KV) error {
		if v := kv.Get(key); v != nil {
			out = append([]byte(nil), v...)
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("llm cache: read: %w", err)
	}
	return out, out != nil, nil
}

func (c storeCache) Put(key, value []byte) error {
	if err := c.s.Update(func(kv plugin.KV) error { return kv.Put(key, value) }); err != nil {
		return fmt.Errorf("llm cache: write: %w", err)
	}
	return nil
}

// MemoryCache is an in-process Cache, for tests and short-lived tools.
type MemoryCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

// NewMemoryCache returns an empty MemoryCache.
func NewMemoryCache() *MemoryCache { return &MemoryCache{m: map[string][]byte{}} }

// Get returns a copy of the value stored under key.
func (c *MemoryCache) Get(key []byte) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[string(key)]
	return append([]byte(nil), v...), ok, nil
}

// Put stores a copy of value under key.
func (c *MemoryCache) Put(key, value []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[string(key)] = append([]byte(nil), value...)
	return nil
}

// Len returns the number of entries.
func (c *MemoryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
