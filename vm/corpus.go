package vm

import (
	"context"
	"sync"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval"
)

// corpus is the plugin.Corpus of one request: term statistics come from the
// first kb-plugin in the loop's order that counts terms (kb.TermCounter),
// the index its ranking already keeps; answers are remembered for the
// request's life.
type corpus struct {
	kb  *ingest.KB
	ctx context.Context
	tc  retrieval.TermCounter // nil: no statistics

	mu      sync.Mutex
	sources int
	freq    map[string]int
	texts   map[string][]byte // source texts read in this request (nil: unavailable)
	failed  bool              // a count failed: a 0 may not mean "absent"
}

func (m *Machine) newCorpus(ctx context.Context) *corpus {
	if m.kb == nil {
		return nil
	}
	c := &corpus{kb: m.kb, ctx: ctx, sources: -1, freq: map[string]int{}, texts: map[string][]byte{}}
	for _, id := range m.cat.Order(plugin.LoopKB) {
		if p, ok := m.cat.Registry.KB(id); ok {
			if tc, ok := p.(retrieval.TermCounter); ok {
				c.tc = tc
				break
			}
		}
	}
	return c
}

// Documents is the number of indexed sources; 0 without statistics or on
// an error (the plugin's own search reports a damaged index).
func (c *corpus) Documents() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sources < 0 {
		c.sources = 0
		if c.tc != nil {
			if _, n, err := c.tc.TermFreq(c.ctx, ""); err == nil {
				c.sources = n
			} else {
				c.failed = true
			}
		}
	}
	return c.sources
}

// DocFreq is the number of indexed sources holding term.
func (c *corpus) DocFreq(term string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.freq[term]; ok {
		return f
	}
	f := 0
	if c.tc != nil {
		if h, _, err := c.tc.TermFreq(c.ctx, term); err == nil {
			f = h
		} else {
			c.failed = true
		}
	}
	c.freq[term] = f
	return f
}

// SourceText is the source as ingested (ingest.KB.SourceText), read and
// checked once per request: validation asks again for every statement.
func (c *corpus) SourceText(sourceID string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.texts[sourceID]; ok {
		return b
	}
	b := c.kb.SourceText(sourceID)
	c.texts[sourceID] = b
	return b
}

// reliable reports whether every count so far was read: a term counted 0
// because its index could not be read is not known to be absent.
func (c *corpus) reliable() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.failed
}
