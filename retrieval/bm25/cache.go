package bm25

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/plugin"
)

// cache holds the unit table and decoded postings of one index state
// (nonce, gen). Units get dense document numbers — the segments' documents
// in segment order, then the delta's — so scores accumulate in plain arrays.
// Every field is guarded by Index.mu. The doc* slices are append-only (an
// element, once written, never changes), so a query may keep reading the
// prefix it captured under the lock after releasing it; live is read only
// under the lock.
type cache struct {
	nonce, gen uint64

	segs     []segRange
	srcDocs  map[string]docRange // live documents of each source
	srcNum   map[string]int32    // source number, stable across versions
	srcNames []string

	docID   []string // KU id
	docSrc  []string // source id
	docSrcN []int32  // source number (index into srcNames)
	docDL   []float32
	docRole []uint8
	live    []bool
	dead    int

	delta        map[string][]dpost // the delta's postings, by term
	deltaEntries int

	terms    map[string]*plist
	postings int // entries held in terms
}

type segRange struct {
	id      uint32
	base, n uint32
	blocks  []string // first term of each block
}

type docRange struct{ base, n uint32 }

type dpost struct {
	doc uint32
	tf  float32
}

// plist is one term's live postings, sorted by document.
type plist struct {
	docs []uint32
	tf   []float32 // field-weighted term frequency
	ub   atomic.Pointer[termBound]
}

// blockSize is the number of postings per block of a list's block-max
// bounds.
const blockSize = 128

// termBound caches the exact maximum of tf/(tf + c1 + c2*dl) over a
// list's postings for one (c1, c2), that is for one average length, and the
// same maximum over each block of blockSize postings (block-max bounds; only
// for lists of at least two blocks).
type termBound struct {
	c1, c2, max float64
	blocks      []float64
}

// bound returns the list's bounds under (c1, c2), computing them once per
// average length.
func (pl *plist) bound(c1, c2 float64, docDL []float32) *termBound {
	if b := pl.ub.Load(); b != nil && b.c1 == c1 && b.c2 == c2 {
		return b
	}
	tb := &termBound{c1: c1, c2: c2}
	if len(pl.docs) >= 2*blockSize {
		tb.blocks = make([]float64, 0, (len(pl.docs)+blockSize-1)/blockSize)
	}
	m := 0.0
	for lo := 0; lo < len(pl.docs); lo += blockSize {
		docs := pl.docs[lo:min(lo+blockSize, len(pl.docs))]
		tfs := pl.tf[lo:]
		tfs = tfs[:len(docs)]
		bm := 0.0
		for j, d := range docs {
			tf := float64(tfs[j])
			bm = max(bm, tf/(tf+c1+c2*float64(docDL[d])))
		}
		if tb.blocks != nil {
			tb.blocks = append(tb.blocks, bm)
		}
		m = max(m, bm)
	}
	tb.max = m
	pl.ub.Store(tb)
	return tb
}

// maxCachedPostings bounds the postings kept decoded (8 bytes each).
const maxCachedPostings = 24 << 20

// loadCache reads the unit tables of every segment and the delta.
func loadCache(kv plugin.KV, st stats, w *[NumFields]float32) (*cache, error) {
	c := &cache{nonce: st.nonce, gen: st.gen, srcDocs: make(map[string]docRange, st.sources), srcNum: make(map[string]int32, st.sources),
		delta: make(map[string][]dpost), terms: make(map[string]*plist)}
	if u := int(min(st.units, 1<<24)); u > 0 {
		// The live units, a lower bound of the documents.
		c.docID, c.docSrc, c.docSrcN = make([]string, 0, u), make([]string, 0, u), make([]int32, 0, u)
		c.docDL, c.docRole, c.live = make([]float32, 0, u), make([]uint8, 0, u), make([]bool, 0, u)
	}
	loc := make(map[string]uint32, st.sources)
	err := kv.Scan(prefixLoc, nil, func(k, v []byte) error {
		seg, n := binary.Uvarint(v)
		if n <= 0 {
			return fmt.Errorf("%w: location of %s", ErrCorrupt, k[len(prefixLoc):])
		}
		loc[string(k[len(prefixLoc):])] = uint32(seg)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, g := range st.segs {
		srcs, blocks, err := readMeta(kv, g.id)
		if err != nil {
			return nil, err
		}
		r := segRange{id: g.id, base: uint32(len(c.docID)), blocks: blocks}
		for _, s := range srcs {
			c.addDocs(s.id, s.units, loc[s.id] == g.id, w)
		}
		r.n = uint32(len(c.docID)) - r.base
		c.segs = append(c.segs, r)
	}
	for _, s := range st.delta {
		rec, err := readRecord(kv, s)
		if err != nil {
			return nil, err
		}
		if rec == nil {
			return nil, fmt.Errorf("%w: delta source %s has no record", ErrCorrupt, s)
		}
		if err := c.addDelta(s, rec, w); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// addDocs appends the documents of one source version.
func (c *cache) addDocs(src string, units []unitInfo, live bool, w *[NumFields]float32) {
	base := uint32(len(c.docID))
	sn, ok := c.srcNum[src]
	if !ok {
		sn = int32(len(c.srcNames))
		c.srcNum[src] = sn
		c.srcNames = append(c.srcNames, src)
	}
	for _, u := range units {
		var dl float32
		for f, l := range u.lens {
			dl += w[f] * float32(l)
		}
		c.docID = append(c.docID, u.id)
		c.docSrc = append(c.docSrc, src)
		c.docSrcN = append(c.docSrcN, sn)
		c.docDL = append(c.docDL, dl)
		c.docRole = append(c.docRole, u.role)
		c.live = append(c.live, live)
	}
	if live {
		c.srcDocs[src] = docRange{base: base, n: uint32(len(units))}
	} else {
		c.dead += len(units)
	}
}

// addDelta appends a source version held in the delta, with its postings.
func (c *cache) addDelta(src string, rec *record, w *[NumFields]float32) error {
	base := uint32(len(c.docID))
	c.addDocs(src, rec.units, true, w)
	for i, t := range rec.terms {
		d := decoder{bindec.Decoder{B: rec.entries[i]}}
		for len(d.B) > 0 && !d.Bad {
			local, tf := d.entry(w)
			if local >= uint64(len(rec.units)) {
				return fmt.Errorf("%w: record of %s", ErrCorrupt, src)
			}
			if tf > 0 {
				c.delta[t] = append(c.delta[t], dpost{doc: base + uint32(local), tf: tf})
				c.deltaEntries++
			}
		}
		if d.Bad {
			return fmt.Errorf("%w: record of %s", ErrCorrupt, src)
		}
	}
	return nil
}

// kill marks the live documents of src dead.
func (c *cache) kill(src string) {
	r, ok := c.srcDocs[src]
	if !ok {
		return
	}
	for d := r.base; d < r.base+r.n; d++ {
		c.live[d] = false
	}
	c.dead += int(r.n)
	delete(c.srcDocs, src)
}

// segPostingLists decodes term's postings in segments segs (live or not,
// tf > 0), as cache document numbers. It reads only what a cache never
// changes once built (its segments), so it runs without the index lock.
// The postings are decoded into pooled buffers and returned in slices of
// their exact length.
func segPostingLists(kv plugin.KV, segs []segRange, term string, w *[NumFields]float32) ([]uint32, []float32, error) {
	buf, _ := decodePool.Get().(*decodeBuf)
	if buf == nil {
		buf = &decodeBuf{}
	}
	defer decodePool.Put(buf)
	docs, tfs := buf.docs[:0], buf.tfs[:0]
	for _, g := range segs {
		v, err := segPostings(kv, g.id, g.blocks, term)
		if err != nil {
			return nil, nil, err
		}
		if v == nil {
			continue
		}
		var ok bool
		if docs, tfs, ok = decodePostings(v, g.base, g.n, w, docs, tfs); !ok {
			return nil, nil, fmt.Errorf("%w: segment %d postings of %q", ErrCorrupt, g.id, term)
		}
	}
	buf.docs, buf.tfs = docs, tfs
	if len(docs) == 0 {
		return nil, nil, nil
	}
	return slices.Clone(docs), slices.Clone(tfs), nil
}

// decodeBuf holds the postings of one term while they are decoded.
type decodeBuf struct {
	docs []uint32
	tfs  []float32
}

var decodePool sync.Pool

// decodePostings appends the postings v of one segment (documents base to
// base+n) with tf > 0 to docs and tfs; ok is false when v is corrupt. It is
// decoder.entry unrolled: most numbers fit in one byte, so it reads them in
// place by offset (and the others with longUvarint), and it writes into
// room reserved once (a posting with tf > 0 takes at least three bytes).
func decodePostings(v []byte, base, n uint32, w *[NumFields]float32, docs []uint32, tfs []float32) (_ []uint32, _ []float32, ok bool) {
	m := len(docs)
	docs = slices.Grow(docs, len(v)/3)
	tfs = slices.Grow(tfs, len(v)/3)
	docs, tfs = docs[:cap(docs)], tfs[:cap(tfs)]
	doc := int64(-1)
	for i := 0; i < len(v); {
		var gap, mask uint64
		j := i
		if v[j] < 0x80 {
			gap, j = uint64(v[j]), j+1
		} else if gap, j = longUvarint(v, j); j < 0 {
			return docs[:m], tfs[:m], false
		}
		if j < len(v) && v[j] < 0x80 {
			mask, j = uint64(v[j]), j+1
		} else if mask, j = longUvarint(v, j); j < 0 {
			return docs[:m], tfs[:m], false
		}
		if mask>>NumFields != 0 {
			return docs[:m], tfs[:m], false
		}
		var tf float32
		for mask != 0 {
			f := bits.TrailingZeros64(mask)
			mask &= mask - 1
			var c uint64
			if j < len(v) && v[j] < 0x80 {
				c, j = uint64(v[j]), j+1
			} else if c, j = longUvarint(v, j); j < 0 {
				return docs[:m], tfs[:m], false
			}
			tf += w[f] * float32(c)
		}
		i = j
		doc += int64(gap) + 1
		if doc >= int64(n) {
			return docs[:m], tfs[:m], false
		}
		if tf > 0 {
			if m == len(docs) {
				// Cannot happen (each kept posting takes three bytes); kept
				// for safety.
				docs, tfs = append(docs, 0), append(tfs, 0)
				docs, tfs = docs[:cap(docs)], tfs[:cap(tfs)]
			}
			docs[m], tfs[m] = base+uint32(doc), tf
			m++
		}
	}
	return docs[:m], tfs[:m], true
}

// loadTerm decodes the live postings of term.
func (c *cache) loadTerm(kv plugin.KV, term string, w *[NumFields]float32) (*plist, error) {
	docs, tfs, err := segPostingLists(kv, c.segs, term, w)
	if err != nil {
		return nil, err
	}
	return c.finishTerm(term, docs, tfs), nil
}

// finishTerm builds term's list from its decoded segment postings: the
// live ones, then the delta's.
func (c *cache) finishTerm(term string, docs []uint32, tfs []float32) *plist {
	pl := &plist{docs: docs, tf: tfs}
	if c.dead > 0 {
		pl.docs, pl.tf = docs[:0], tfs[:0]
		for i, d := range docs {
			if c.live[d] {
				pl.docs = append(pl.docs, d)
				pl.tf = append(pl.tf, tfs[i])
			}
		}
	}
	for _, p := range c.delta[term] {
		if c.live[p.doc] {
			pl.docs = append(pl.docs, p.doc)
			pl.tf = append(pl.tf, p.tf)
		}
	}
	return pl
}

// view is what a query captured from the cache.
type view struct {
	lists   []*plist // aligned with the query terms
	docID   []string
	docSrc  []string
	docSrcN []int32
	sources int
	docDL   []float32
	docRole []uint8
}

// snapshot returns the query's view of index state st, using and filling
// the shared cache when it matches st and a private one otherwise.
func (x *Index) snapshot(kv plugin.KV, st stats, terms []string) (*view, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	c, err := x.cacheFor(kv, st)
	if err != nil {
		return nil, err
	}
	if c == x.c && x.preload(kv, c, terms) {
		// The lock was released while decoding: look again.
		if c, err = x.cacheFor(kv, st); err != nil {
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
	v := &view{lists: lists, docID: c.docID, docSrc: c.docSrc, docSrcN: c.docSrcN, sources: len(c.srcNames),
		docDL: c.docDL, docRole: c.docRole}
	if c == x.c && c.postings > maxCachedPostings {
		c.terms = make(map[string]*plist)
		c.postings = 0
	}
	return v, nil
}

// preload decodes the segment postings of the terms the shared cache c
// lacks with the lock released, so that queries decode in parallel, and
// adds them unless a write changed the cache meanwhile (snapshot then loads
// under the lock). It reports whether it released the lock. x.mu is held.
func (x *Index) preload(kv plugin.KV, c *cache, terms []string) bool {
	var missing []string
	for _, t := range terms {
		if c.terms[t] == nil && !slices.Contains(missing, t) {
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return false
	}
	gen, segs := c.gen, c.segs
	type decoded struct {
		docs []uint32
		tfs  []float32
	}
	got := make([]decoded, len(missing))
	x.mu.Unlock()
	var err error
	for i, t := range missing {
		if got[i].docs, got[i].tfs, err = segPostingLists(kv, segs, t, &x.w); err != nil {
			break
		}
	}
	x.mu.Lock()
	if err != nil || x.c != c || c.gen != gen {
		return true // snapshot loads under the lock (and reports the error)
	}
	for i, t := range missing {
		if c.terms[t] == nil {
			pl := c.finishTerm(t, got[i].docs, got[i].tfs)
			c.terms[t] = pl
			c.postings += len(pl.docs)
		}
	}
	return true
}

// Warm loads the unit table of the index stored in kv into the shared
// cache, as the first query would, so that a server or a batch of queries
// pays for opening the index once, before the first query instead of
// inside it. Term postings are still decoded when a query first needs them.
func (x *Index) Warm(kv plugin.KV) error {
	st, ok, err := readStats(kv)
	if err != nil {
		return fmt.Errorf("bm25: warm: %w", err)
	}
	if !ok || st.units == 0 {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, err := x.cacheFor(kv, st); err != nil {
		return fmt.Errorf("bm25: warm: %w", err)
	}
	return nil
}

// cacheFor returns the cache answering a reader of state st: the shared one,
// reloaded when it is missing or older, or a private one for a reader of an
// older state. x.mu is held.
func (x *Index) cacheFor(kv plugin.KV, st stats) (*cache, error) {
	c := x.c
	switch {
	case c == nil || c.nonce != st.nonce || c.gen < st.gen:
		// Empty, another index, or written by someone else: start afresh.
		var err error
		if c, err = loadCache(kv, st, &x.w); err != nil {
			return nil, err
		}
		x.c = c
	case c.gen > st.gen:
		// The caller reads an older snapshot (a write is in flight or was
		// rolled back): answer from a private cache.
		var err error
		if c, err = loadCache(kv, st, &x.w); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// sourceChanged updates the shared cache after a write moved the index from
// gen oldGen to newGen without touching segments, or drops it when it did
// not hold oldGen.
func (x *Index) sourceChanged(nonce, oldGen, newGen uint64, src string, rec *record, oldTerms []string) {
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
	c.kill(src)
	for _, ts := range [][]string{oldTerms, rec.terms} {
		for _, t := range ts {
			if pl := c.terms[t]; pl != nil {
				c.postings -= len(pl.docs)
				delete(c.terms, t)
			}
		}
	}
	if len(rec.units) > 0 {
		if err := c.addDelta(src, rec, &x.w); err != nil {
			x.c = nil
			return
		}
	}
	c.gen = newGen
	if c.dead > 4096 && c.dead > len(c.docID)/2 {
		x.c = nil
	}
}

// dropCache forgets the shared cache.
func (x *Index) dropCache() {
	x.mu.Lock()
	x.c = nil
	x.mu.Unlock()
}

func (v *view) id(doc uint32) string { return v.docID[doc] }
