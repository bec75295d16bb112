package bm25

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/kvns"
	"github.com/mrpvm/mrpvm/retrieval/memo"
)

// IndexSource replaces the indexed units of one source with units (none
// removes the source). The index keeps its own record of each source's
// units and terms, which is authoritative; oldUnitIDs (the ids the knowledge
// base held before) is accepted for the hook contract and not needed.
func (x *Index) IndexSource(kv plugin.KV, sourceID string, units []*kus.KU, oldUnitIDs []string) error {
	_ = oldUnitIDs
	return kvns.WriteSource(kv, "bm25", sourceID, func() error { return x.indexSource(kv, sourceID, units) }, x.dropCache)
}

// RemoveSource deletes the source from the index.
func (x *Index) RemoveSource(kv plugin.KV, sourceID string, oldUnitIDs []string) error {
	return x.IndexSource(kv, sourceID, nil, oldUnitIDs)
}

func (x *Index) indexSource(kv plugin.KV, src string, units []*kus.KU) error {
	if src == "" || strings.IndexByte(src, 0) >= 0 {
		return fmt.Errorf("invalid source id %q", src)
	}
	prep := x.buildRecord(units)
	rec := prep.rec
	var enc []byte
	stored := kv.Get(recordKey(src))
	if len(rec.units) > 0 {
		enc = rec.enc
		if bytes.Equal(stored, enc) {
			// Indexed as it is (by another plugin sharing the namespace):
			// the stats need not even be read.
			return nil
		}
	}
	st, ok, err := takeStats(kv)
	if err != nil {
		return err
	}
	if len(rec.units) == 0 && stored == nil {
		return nil // nothing to remove
	}
	if !ok {
		st = stats{nonce: kvns.NewNonce(), nextSeg: math.MaxUint32}
	}
	oldGen := st.gen
	structural := false // segments changed: caches must reload

	// Take the old version out.
	old, err := readRecord(kv, src)
	if err != nil {
		return err
	}
	if old != nil {
		loc, err := readLoc(kv, src)
		if err != nil {
			return err
		}
		st.sources--
		st.units -= uint64(len(old.units))
		for _, u := range old.units {
			for f, l := range u.lens {
				st.fieldLen[f] -= uint64(l)
			}
		}
		if loc == 0 {
			st.removeDelta(src)
		} else if g := st.seg(loc); g == nil {
			return fmt.Errorf("%w: source %s in unknown segment %d", ErrCorrupt, src, loc)
		} else if g.live--; g.live == 0 {
			if err := deleteSegment(kv, &st, loc); err != nil {
				return err
			}
			structural = true
		}
	}

	if len(rec.units) > 0 {
		if err := kv.Put(recordKey(src), enc); err != nil {
			return err
		}
		if err := kv.Put(locKey(src), []byte{0}); err != nil {
			return err
		}
		pending.put(src, prep)
		st.sources++
		st.addDelta(src)
		st.units += uint64(len(rec.units))
		for _, u := range rec.units {
			for f, l := range u.lens {
				st.fieldLen[f] += uint64(l)
			}
		}
	} else if old != nil {
		for _, k := range [][]byte{recordKey(src), locKey(src)} {
			if err := kv.Delete(k); err != nil {
				return err
			}
		}
	}
	st.gen++

	if st.sources == 0 {
		x.dropCache()
		return Clear(kv)
	}
	if len(st.delta) >= x.p.FlushSources {
		if err := x.flush(kv, &st); err != nil {
			return err
		}
		if err := x.mergeTiers(kv, &st); err != nil {
			return err
		}
		structural = true
	}
	stEnc := st.encode()
	if err := kv.Put(keyStats, stEnc); err != nil {
		return err
	}
	keepStats(stEnc, st)
	if structural {
		x.dropCache()
		return nil
	}
	var oldTerms []string
	if old != nil {
		oldTerms = old.terms
	}
	x.sourceChanged(st.nonce, oldGen, st.gen, src, rec, oldTerms)
	return nil
}

// records keeps recently analysed sources, per analyzer: the kb-plugins
// that index the same source one after the other in one ingest transaction
// (each in its own namespace, with the same analyzer) analyse it once, and
// Prepare can analyse ahead of the transaction.
var records struct {
	sync.Mutex
	by map[*text.Analyzer]*memo.Cache[*prepared]
}

// prepared is an analysed source: its forward record (shared, read-only)
// and the analyzer's ID of each of its terms (0: not numbered), which
// flush uses to group postings without hashing terms.
type prepared struct {
	rec *record
	ids []uint32
	an  *text.Analyzer
	src []string // what it was built from (unitsSource)
}

// preparedSources bounds the analysed sources kept per analyzer.
const preparedSources = 1024

func recordCache(a *text.Analyzer) *memo.Cache[*prepared] {
	records.Lock()
	defer records.Unlock()
	if records.by == nil {
		records.by = map[*text.Analyzer]*memo.Cache[*prepared]{}
	}
	c := records.by[a]
	if c == nil {
		c = memo.New[*prepared](preparedSources)
		records.by[a] = c
	}
	return c
}

var recentSeed = maphash.MakeSeed()

// unitsKey hashes a sample of what buildRecord reads from units: each
// unit's ID (unique in a source) and the lengths of its other fields. Hashing
// the whole texts cost more than it saves; the cache entry's source
// (prepared.matches) tells apart the units a key confuses.
func unitsKey(units []*kus.KU) uint64 {
	h := uint64(len(units))
	mix := func(v uint64) {
		h = (h ^ v) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	str := func(s string) { mix(uint64(len(s))) }
	for _, u := range units {
		if u == nil {
			mix(0)
			continue
		}
		mix(maphash.String(recentSeed, u.ID))
		str(u.Role)
		str(u.Title)
		str(u.Topic)
		str(u.Claim)
		str(u.Procedure)
		str(u.TextBody)
		str(u.UtilityNote)
		str(u.Condition)
		mix(uint64(len(u.UtilityActs))<<32 | uint64(len(u.Tags)))
	}
	return h
}

// unitsSource returns what buildRecord reads from units: the ID, the role
// and the field texts of each unit, unitFields strings a unit.
func unitsSource(units []*kus.KU) []string {
	src := make([]string, 0, unitFields*len(units))
	for _, u := range units {
		if u != nil {
			f := FieldTexts(u)
			src = append(append(src, u.ID, u.Role), f[:]...)
		}
	}
	return src
}

// unitFields is the number of strings unitsSource keeps of a unit.
const unitFields = 2 + int(NumFields)

// matches says whether p was built from units (from the same texts: the
// comparisons are cheap when the strings are the very ones p keeps).
func (p *prepared) matches(units []*kus.KU) bool {
	src := p.src
	for _, u := range units {
		if u == nil {
			continue
		}
		if len(src) < unitFields || src[0] != u.ID || src[1] != u.Role {
			return false
		}
		f := FieldTexts(u)
		if [NumFields]string(src[2:unitFields]) != f {
			return false
		}
		src = src[unitFields:]
	}
	return len(src) == 0
}

// buildRecord analyses units into a forward record (shared, read-only),
// or takes it from the cache.
func (x *Index) buildRecord(units []*kus.KU) *prepared {
	key := unitsKey(units)
	c := recordCache(x.p.Analyzer)
	if p, ok := c.Get(key); ok && p.matches(units) {
		return p
	}
	p := x.analyse(units)
	p.src = unitsSource(units)
	c.Put(key, p)
	return p
}

// Prepare analyses a source's units ahead of IndexSource, which then only
// writes. It needs no transaction and may run on any goroutine (an ingest
// can prepare sources in its parse workers); the result is kept for the
// last 1024 sources prepared or indexed.
func (x *Index) Prepare(units []*kus.KU) {
	x.buildRecord(units)
}

// analyse builds a forward record. The entries of all terms are encoded
// into one buffer as the units are read (unit order), then laid out term by
// term into a second one, so a source costs a few allocations whatever its
// number of terms; the scratch space is reused from source to source.
func (x *Index) analyse(units []*kus.KU) *prepared {
	st := srcTermsPool.Get().(*srcTerms)
	defer st.release()
	st.begin()
	rec := &record{units: make([]unitInfo, 0, len(units))}
	buf, refs := st.buf[:0], st.refs[:0]
	for _, u := range units {
		if u == nil {
			continue
		}
		local := len(rec.units)
		analyzeUnit(x.p.Analyzer, u, local, st)
		rec.units = append(rec.units, unitInfo{id: u.ID, role: roleCode(u.Role), lens: st.lens})
		for i, id := range st.uterms {
			off := len(buf)
			buf = appendEntryMask(buf, uint64(local), st.masks[i], &st.tfs[i])
			refs = append(refs, entryRef{term: id, off: int32(off), n: int32(len(buf) - off)})
		}
	}
	st.buf, st.refs = buf, refs
	p := &prepared{rec: rec, an: x.p.Analyzer}
	n := len(st.terms)
	if n == 0 {
		if len(rec.units) > 0 {
			rec.enc = rec.encode()
		}
		return p
	}
	// Sort the term ids by term; size and place each term's entries.
	order := resize(&st.order, n)
	terms := st.terms
	sortTermOrder(order, &st.keys, func(i int32) string { return terms[i] })
	size := resize(&st.size, n)
	clear(size)
	for _, r := range refs {
		size[r.term] += r.n
	}
	pos := resize(&st.at, n) // term id -> write position in out
	rec.terms = make([]string, n)
	rec.entries = make([][]byte, n)
	p.ids = make([]uint32, n)
	at := int32(0)
	for i, id := range order {
		rec.terms[i] = terms[id]
		p.ids[i] = st.gids[id]
		pos[id] = at
		at += size[id]
	}
	if cap(st.out) < int(at) {
		st.out = make([]byte, at, at+at/4)
	}
	out := st.out[:at]
	for i, id := range order {
		rec.entries[i] = out[pos[id] : pos[id]+size[id] : pos[id]+size[id]]
	}
	for _, r := range refs {
		copy(out[pos[r.term]:], buf[r.off:r.off+r.n])
		pos[r.term] += r.n
	}
	rec.enc = rec.encode()
	if !aliasEntries(rec) {
		// Cannot happen (encode writes the entries last, as laid out);
		// keep private copies rather than the reused buffer.
		for i, e := range rec.entries {
			rec.entries[i] = bytes.Clone(e)
		}
	}
	return p
}

// resize returns (*s)[:n], reallocating when the capacity is short.
func resize(s *[]int32, n int) []int32 {
	if cap(*s) < n {
		*s = make([]int32, n, n+n/4)
	}
	return (*s)[:n]
}

// aliasEntries points rec.entries into rec.enc, where encode copied them:
// the terms and their entries close the encoding, so they start at
// len(enc) minus their encoded size. It reports false if enc does not
// hold them there (some entries may then alias enc already).
func aliasEntries(rec *record) bool {
	size := uvarintLen(uint64(len(rec.terms)))
	for i, t := range rec.terms {
		n := len(rec.entries[i])
		size += uvarintLen(uint64(len(t))) + len(t) + uvarintLen(uint64(n)) + n
	}
	if size > len(rec.enc) {
		return false
	}
	d := decoder{bindec.Decoder{B: rec.enc[len(rec.enc)-size:]}}
	if d.Uvarint() != uint64(len(rec.terms)) {
		return false
	}
	for i, t := range rec.terms {
		if string(d.Bytes(d.Uvarint())) != t {
			return false
		}
		e := d.Bytes(d.Uvarint())
		if d.Bad || !bytes.Equal(e, rec.entries[i]) {
			return false
		}
		rec.entries[i] = e[:len(e):len(e)]
	}
	return !d.Bad && len(d.B) == 0
}

// uvarintLen is the length of v's uvarint encoding.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// writeSegment writes a segment's postings (in term order) and meta.
func writeSegment(kv plugin.KV, id uint32, meta []segSource, terms []string, lists [][]byte) error {
	w := &blockWriter{kv: kv, id: id}
	for i, t := range terms {
		if err := w.add(t, lists[i]); err != nil {
			return err
		}
	}
	if err := w.flush(); err != nil {
		return err
	}
	return kv.Put(segMetaKey(id), encodeMeta(meta, w.first))
}

// tier is a segment's size class: 0 up to MergeFactor flushes, and so on.
func (x *Index) tier(total uint32) int {
	t, size := 0, uint64(x.p.FlushSources)*uint64(x.p.MergeFactor)
	for uint64(total) >= size {
		t++
		size *= uint64(x.p.MergeFactor)
	}
	return t
}

// mergeTiers merges MergeFactor segments of one tier while any tier has
// that many, and rewrites segments that are mostly dead.
func (x *Index) mergeTiers(kv plugin.KV, st *stats) error {
	for {
		byTier := map[int][]uint32{}
		var group []uint32
		for _, g := range st.segs {
			if g.live*2 < g.total {
				group = []uint32{g.id} // vacuum
				break
			}
			t := x.tier(g.total)
			byTier[t] = append(byTier[t], g.id)
			if len(byTier[t]) == x.p.MergeFactor {
				group = byTier[t]
				break
			}
		}
		if group == nil {
			return nil
		}
		if err := x.merge(kv, st, group); err != nil {
			return err
		}
	}
}

// merge rewrites the live documents of segments ids into one new segment.
func (x *Index) merge(kv plugin.KV, st *stats, ids []uint32) error {
	newID := st.allocSeg()
	var meta []segSource
	remap := make([][]int64, len(ids)) // old document -> new document, or -1
	its := make([]*segIter, len(ids))
	var next int64
	for i, id := range ids {
		srcs, blocks, err := readMeta(kv, id)
		if err != nil {
			return err
		}
		its[i] = &segIter{kv: kv, id: id, blocks: uint32(len(blocks))}
		for _, s := range srcs {
			loc, err := readLoc(kv, s.id)
			live := err == nil && loc == id
			for range s.units {
				if live {
					remap[i] = append(remap[i], next)
					next++
				} else {
					remap[i] = append(remap[i], -1)
				}
			}
			if live {
				meta = append(meta, s)
			}
		}
		if err := its[i].advance(); err != nil {
			return err
		}
	}

	// K-way merge of the segments' term-ordered postings.
	w := &blockWriter{kv: kv, id: newID}
	var buf []byte
	for {
		term, any := "", false
		for _, it := range its {
			if !it.done && (!any || it.term < term) {
				term, any = it.term, true
			}
		}
		if !any {
			break
		}
		buf = buf[:0]
		prev := int64(-1)
		for i, it := range its {
			if it.done || it.term != term {
				continue
			}
			old := int64(-1)
			for e := it.post; len(e) > 0; {
				gap, rest, tail, ok := nextEntry(e)
				if !ok {
					return fmt.Errorf("%w: segment %d postings of %q", ErrCorrupt, ids[i], term)
				}
				e = tail
				old += int64(gap) + 1
				if old >= int64(len(remap[i])) {
					return fmt.Errorf("%w: segment %d postings of %q", ErrCorrupt, ids[i], term)
				}
				if nd := remap[i][old]; nd >= 0 {
					buf = binary.AppendUvarint(buf, uint64(nd-prev-1))
					buf = append(buf, rest...)
					prev = nd
				}
			}
			if err := it.advance(); err != nil {
				return err
			}
		}
		if len(buf) > 0 {
			if err := w.add(term, buf); err != nil {
				return err
			}
		}
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := kv.Put(segMetaKey(newID), encodeMeta(meta, w.first)); err != nil {
		return err
	}
	for _, s := range meta {
		if err := kv.Put(locKey(s.id), binary.AppendUvarint(nil, uint64(newID))); err != nil {
			return err
		}
	}
	for _, id := range ids {
		if err := deleteSegment(kv, st, id); err != nil {
			return err
		}
	}
	st.segs = append(st.segs, segInfo{id: newID, total: uint32(len(meta)), live: uint32(len(meta))})
	if len(meta) == 0 {
		return deleteSegment(kv, st, newID)
	}
	return nil
}

// segIter walks a segment's terms in order, one block at a time (each block
// copied, so the caller may write to the KV meanwhile).
type segIter struct {
	kv     plugin.KV
	id     uint32
	blocks uint32
	next   uint32 // next block to load
	r      blockReader
	loaded bool
	term   string
	post   []byte
	done   bool
}

// advance moves to the next term, loading blocks as needed.
func (it *segIter) advance() error {
	for {
		if it.loaded {
			t, post, ok := it.r.next()
			if ok {
				it.term, it.post = string(t), post
				return nil
			}
			if it.r.d.Bad {
				return fmt.Errorf("%w: segment %d block %d", ErrCorrupt, it.id, it.next-1)
			}
		}
		if it.next >= it.blocks {
			it.done = true
			return nil
		}
		v := it.kv.Get(segBlockKey(it.id, it.next))
		if v == nil {
			return fmt.Errorf("%w: segment %d lacks block %d", ErrCorrupt, it.id, it.next)
		}
		it.r = newBlockReader(bytes.Clone(v))
		it.loaded = true
		it.next++
	}
}

// deleteSegment removes a segment's keys and its entry in the stats.
func deleteSegment(kv plugin.KV, st *stats, id uint32) error {
	if err := kvns.DeletePrefix(kv, segPrefix(id)); err != nil {
		return err
	}
	st.segs = slices.DeleteFunc(st.segs, func(g segInfo) bool { return g.id == id })
	return nil
}

// Clear deletes every key of the index (for a rebuild after corruption).
func Clear(kv plugin.KV) error { return kvns.Clear(kv, "bm25", prefixAll) }

// Compact flushes the delta and merges every segment into one, dropping all
// replaced versions. Ingest never needs it; it makes the layout canonical.
func (x *Index) Compact(kv plugin.KV) error {
	st, ok, err := readStats(kv)
	if err != nil || !ok {
		return err
	}
	if err := x.flush(kv, &st); err != nil {
		return fmt.Errorf("bm25: compact: %w", err)
	}
	if len(st.segs) > 1 || len(st.segs) == 1 && st.segs[0].live < st.segs[0].total {
		ids := make([]uint32, len(st.segs))
		for i, g := range st.segs {
			ids[i] = g.id
		}
		if err := x.merge(kv, &st, ids); err != nil {
			return fmt.Errorf("bm25: compact: %w", err)
		}
	}
	st.gen++
	x.dropCache()
	if err := kv.Put(keyStats, st.encode()); err != nil {
		return fmt.Errorf("bm25: compact: %w", err)
	}
	return nil
}
