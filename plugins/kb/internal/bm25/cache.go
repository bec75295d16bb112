package bm25

import (
	"fmt"
	"slices"

	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// cache holds decoded postings and the unit table of one index state
// (nonce, gen). Units get dense document numbers so scores accumulate in
// plain arrays. Every field is guarded by Index.mu; slices are append-only
// (an element, once written, never changes), so a query may keep reading the
// prefix it captured under the lock after releasing it.
type cache struct {
	nonce, gen uint64

	srcIdx map[string]int32 // source id -> index in srcs (the live version)
	srcs   []srcEntry

	docSrc   []int32
	docLocal []uint32
	docDL    []float32 // weighted document length
	docRole  []uint8

	terms    map[string]*plist
	postings int // entries held in terms
	orphans  int // documents of replaced sources
}

type srcEntry struct {
	id   string
	base uint32
	ids  []string // KU ids by local index
}

// plist is one term's decoded postings, sorted by document.
type plist struct {
	docs  []uint32
	tf    []float32 // field-weighted term frequency
	maxTF float32
	minDL float32
}

// maxCachedPostings bounds the postings kept decoded (about 8 bytes each).
const maxCachedPostings = 24 << 20

func newCache(nonce, gen uint64) *cache {
	return &cache{nonce: nonce, gen: gen, srcIdx: make(map[string]int32), terms: make(map[string]*plist)}
}

// loadUnits reads every source's unit record.
func (c *cache) loadUnits(kv sdk.KV, w *[NumFields]float32) error {
	return kv.Scan(prefixUnits, nil, func(k, v []byte) error {
		units, err := decodeUnits(v)
		if err != nil {
			return fmt.Errorf("source %s: %w", k[len(prefixUnits):], err)
		}
		c.addSource(string(k[len(prefixUnits):]), units, w)
		return nil
	})
}

// addSource appends the documents of a (new version of a) source.
func (c *cache) addSource(src string, units []unitInfo, w *[NumFields]float32) {
	if old, ok := c.srcIdx[src]; ok {
		c.orphans += len(c.srcs[old].ids)
		delete(c.srcIdx, src)
	}
	if len(units) == 0 {
		return
	}
	e := srcEntry{id: src, base: uint32(len(c.docSrc)), ids: make([]string, len(units))}
	si := int32(len(c.srcs))
	for i, u := range units {
		e.ids[i] = u.id
		var dl float32
		for f, l := range u.lens {
			dl += w[f] * float32(l)
		}
		c.docSrc = append(c.docSrc, si)
		c.docLocal = append(c.docLocal, uint32(i))
		c.docDL = append(c.docDL, dl)
		c.docRole = append(c.docRole, u.role)
	}
	c.srcs = append(c.srcs, e)
	c.srcIdx[src] = si
}

// loadTerm decodes the postings of term from kv.
func (c *cache) loadTerm(kv sdk.KV, term string, w *[NumFields]float32) (*plist, error) {
	pre := termPrefix(term)
	pl := &plist{}
	sorted := true
	var last uint32
	err := kv.Scan(pre, nil, func(k, v []byte) error {
		src := k[len(pre):]
		si, ok := c.srcIdx[string(src)]
		if !ok {
			return fmt.Errorf("%w: postings of %q for unknown source %q", ErrCorrupt, term, src)
		}
		e := &c.srcs[si]
		d := decoder{b: v}
		for len(d.b) > 0 && !d.err {
			local := d.uvarint()
			mask := d.uvarint()
			var tf float32
			for f := 0; f < int(NumFields); f++ {
				if mask&(1<<f) != 0 {
					tf += w[f] * float32(d.uvarint())
				}
			}
			if local >= uint64(len(e.ids)) {
				return fmt.Errorf("%w: posting of %q beyond source %q", ErrCorrupt, term, src)
			}
			if tf <= 0 {
				continue // only in zero-weight fields
			}
			doc := e.base + uint32(local)
			if len(pl.docs) > 0 && doc < last {
				sorted = false
			}
			last = doc
			pl.docs = append(pl.docs, doc)
			pl.tf = append(pl.tf, tf)
		}
		if d.err {
			return fmt.Errorf("%w: postings of %q in %q", ErrCorrupt, term, src)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !sorted {
		pl.sort()
	}
	pl.minDL = 0
	for i, d := range pl.docs {
		if tf := pl.tf[i]; tf > pl.maxTF {
			pl.maxTF = tf
		}
		if dl := c.docDL[d]; i == 0 || dl < pl.minDL {
			pl.minDL = dl
		}
	}
	return pl, nil
}

func (pl *plist) sort() {
	idx := make([]int, len(pl.docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return int(pl.docs[a]) - int(pl.docs[b]) })
	docs := make([]uint32, len(idx))
	tf := make([]float32, len(idx))
	for i, j := range idx {
		docs[i], tf[i] = pl.docs[j], pl.tf[j]
	}
	pl.docs, pl.tf = docs, tf
}

// view is what a query captured from the cache.
type view struct {
	lists    []*plist // aligned with the query terms; nil when absent
	srcs     []srcEntry
	docSrc   []int32
	docLocal []uint32
	docDL    []float32
	docRole  []uint8
}

func (c *cache) view(lists []*plist) *view {
	return &view{lists: lists, srcs: c.srcs, docSrc: c.docSrc, docLocal: c.docLocal, docDL: c.docDL, docRole: c.docRole}
}

func (v *view) id(doc uint32) string {
	return v.srcs[v.docSrc[doc]].ids[v.docLocal[doc]]
}

// snapshot returns the query's view of the index state st, using and
// filling the shared cache when it matches st and a private one otherwise.
func (x *Index) snapshot(kv sdk.KV, st stats, terms []string) (*view, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := x.c
	switch {
	case c == nil || c.nonce != st.nonce || c.gen < st.gen:
		// Empty, another index, or written by someone else: start afresh.
		c = newCache(st.nonce, st.gen)
		if err := c.loadUnits(kv, &x.w); err != nil {
			return nil, err
		}
		x.c = c
	case c.gen > st.gen:
		// The caller reads an older snapshot (a write is in flight or was
		// rolled back): answer from a private cache.
		c = newCache(st.nonce, st.gen)
		if err := c.loadUnits(kv, &x.w); err != nil {
			return nil, err
		}
	}
	lists := make([]*plist, len(terms))
	for i, t := range terms {
		pl := c.terms[t]
		if pl == nil {
			var err error
			if pl, err = c.loadTerm(kv, t, &x.w); err != nil {
				return nil, err
			}
			c.terms[t] = pl
			c.postings += len(pl.docs)
		}
		lists[i] = pl
	}
	v := c.view(lists)
	if c == x.c && c.postings > maxCachedPostings {
		c.terms = make(map[string]*plist)
		c.postings = 0
	}
	return v, nil
}

// sourceChanged updates the shared cache after a write moved the index from
// gen oldGen to newGen, or drops it when it did not hold oldGen.
func (x *Index) sourceChanged(nonce, oldGen, newGen uint64, src string, units []unitInfo, oldTerms, newTerms []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := x.c
	if c == nil {
		return
	}
	if c.nonce != nonce || c.gen != oldGen {
		x.c = nil
		return
	}
	for _, ts := range [][]string{oldTerms, newTerms} {
		for _, t := range ts {
			if pl := c.terms[t]; pl != nil {
				c.postings -= len(pl.docs)
				delete(c.terms, t)
			}
		}
	}
	c.addSource(src, units, &x.w)
	c.gen = newGen
	if c.orphans > 4096 && c.orphans > len(c.docSrc)/2 {
		x.c = nil
	}
}

// dropCache forgets the shared cache.
func (x *Index) dropCache() {
	x.mu.Lock()
	x.c = nil
	x.mu.Unlock()
}
