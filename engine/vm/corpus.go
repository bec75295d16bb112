package vm

import (
	"context"
	"encoding/binary"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/engine"
	"github.com/mrpvm/mrpvm/plugins/sdk"
	"github.com/mrpvm/mrpvm/plugins/sdk/text"
)

// termsHookID names the core namespace holding source frequencies.
const termsHookID = "_terms"

// Keys of the terms namespace: the source count, one frequency per term
// and, per source, the terms it was counted under (to undo on change).
var (
	keySources  = []byte("n")
	prefixTerm  = "t\x00"
	prefixTerms = "s\x00"
)

// termsHook keeps, in step with ingest, how many sources hold each term:
// the statistics sdk.Corpus gives plugins that weigh words by rarity.
type termsHook struct{}

func (termsHook) HookID() string      { return termsHookID }
func (termsHook) HookVersion() string { return "1" }

func (termsHook) OnSource(ctx context.Context, ev *engine.SourceEvent) error {
	kv := ev.KV
	skey := []byte(prefixTerms + ev.SourceID)
	old := kv.Get(skey)
	n := int64(getUvarint(kv.Get(keySources)))
	if old != nil {
		for _, t := range strings.Split(string(old), "\n") {
			if err := addFreq(kv, t, -1); err != nil {
				return err
			}
		}
		n--
	}
	if ev.Kind == engine.SourceRemoved || ev.Doc == nil {
		if old != nil {
			if err := kv.Delete(skey); err != nil {
				return err
			}
		}
		return putUvarint(kv, keySources, uint64(max(0, n)))
	}
	seen := map[string]bool{}
	var terms []string
	for _, u := range ev.Doc.Units {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, s := range []string{u.Title, u.Claim, u.Procedure, u.TextBody} {
			for _, t := range text.Terms(s) {
				if !seen[t] && !strings.ContainsRune(t, '\n') {
					seen[t] = true
					terms = append(terms, t)
				}
			}
		}
	}
	for _, t := range terms {
		if err := addFreq(kv, t, 1); err != nil {
			return err
		}
	}
	if err := kv.Put(skey, []byte(strings.Join(terms, "\n"))); err != nil {
		return err
	}
	return putUvarint(kv, keySources, uint64(n+1))
}

func addFreq(kv sdk.KV, term string, d int64) error {
	if term == "" {
		return nil
	}
	k := []byte(prefixTerm + term)
	v := int64(getUvarint(kv.Get(k))) + d
	if v <= 0 {
		return kv.Delete(k)
	}
	return putUvarint(kv, k, uint64(v))
}

func getUvarint(b []byte) uint64 {
	v, _ := binary.Uvarint(b)
	return v
}

func putUvarint(kv sdk.KV, k []byte, v uint64) error {
	return kv.Put(k, binary.AppendUvarint(nil, v))
}

// corpus is the sdk.Corpus of one request: reads go to the store and are
// remembered for the request's life.
type corpus struct {
	kb *engine.KB
	st sdk.Store

	mu      sync.Mutex
	sources int
	freq    map[string]int
}

func newCorpus(kb *engine.KB) *corpus {
	if kb == nil {
		return nil
	}
	return &corpus{kb: kb, st: kb.Store().PluginStore(termsHookID), sources: -1, freq: map[string]int{}}
}

func (c *corpus) Sources() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sources < 0 {
		c.sources = 0
		_ = c.st.View(func(kv sdk.KV) error {
			c.sources = int(getUvarint(kv.Get(keySources)))
			return nil
		})
	}
	return c.sources
}

func (c *corpus) SourceFreq(term string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.freq[term]; ok {
		return f
	}
	f := 0
	_ = c.st.View(func(kv sdk.KV) error {
		f = int(getUvarint(kv.Get([]byte(prefixTerm + term))))
		return nil
	})
	c.freq[term] = f
	return f
}

func (c *corpus) SourceText(sourceID string) []byte { return c.kb.SourceText(sourceID) }
