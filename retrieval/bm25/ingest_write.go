package bm25

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"github.com/mrpvm/mrpvm/plugin"
)

// The write path of a bulk ingest: every IndexSource reads and rewrites the
// stats, and every FlushSources sources a flush reads the delta's records
// back. Both are kept decoded in memory between the writes, and used only
// when the stored bytes prove them current, so a rolled-back transaction or
// another writer costs a decode, never a wrong index.

// statsCache holds the stats last written, by their encoding, for a few
// indexes (an entry is taken by the next writer and put back after).
var statsCache struct {
	sync.Mutex
	entries []cachedStats
}

type cachedStats struct {
	enc []byte
	st  stats
}

// maxCachedStats bounds statsCache (one entry per index written lately).
const maxCachedStats = 8

// takeStats returns the stats stored in kv for a writer to modify:
// the cached copy when it is the stored version (the writer then owns it),
// else a decoded one.
func takeStats(kv plugin.KV) (stats, bool, error) {
	v := kv.Get(keyStats)
	if v == nil {
		return stats{}, false, nil
	}
	statsCache.Lock()
	for i, e := range statsCache.entries {
		if bytes.Equal(e.enc, v) {
			statsCache.entries = slices.Delete(statsCache.entries, i, i+1)
			statsCache.Unlock()
			return e.st, true, nil
		}
	}
	statsCache.Unlock()
	return readStats(kv)
}

// keepStats caches st, just stored as enc (which must not change).
func keepStats(enc []byte, st stats) {
	statsCache.Lock()
	defer statsCache.Unlock()
	if len(statsCache.entries) >= maxCachedStats {
		statsCache.entries = slices.Delete(statsCache.entries, 0, 1)
	}
	statsCache.entries = append(statsCache.entries, cachedStats{enc: enc, st: st})
}

// pending maps the sources written to a delta lately to their prepared
// records, so that flush need not decode them again; flush drops them.
var pending = pendingRecords{m: map[string]*prepared{}}

// maxPending bounds pending; past it, the oldest half is forgotten.
const maxPending = 4096

type pendingRecords struct {
	sync.Mutex
	m     map[string]*prepared
	order []string
}

func (p *pendingRecords) put(src string, prep *prepared) {
	p.Lock()
	defer p.Unlock()
	if _, ok := p.m[src]; !ok {
		if len(p.order) >= maxPending {
			for _, s := range p.order[:maxPending/2] {
				delete(p.m, s)
			}
			p.order = slices.Delete(p.order, 0, maxPending/2)
		}
		p.order = append(p.order, src)
	}
	p.m[src] = prep
}

// drop forgets srcs (flushed into a segment).
func (p *pendingRecords) drop(srcs []string) {
	p.Lock()
	defer p.Unlock()
	for _, s := range srcs {
		delete(p.m, s)
	}
	p.order = slices.DeleteFunc(p.order, func(s string) bool { _, ok := p.m[s]; return !ok })
}

// get returns the prepared record of src if its encoding is stored.
func (p *pendingRecords) get(src string, stored []byte) *prepared {
	p.Lock()
	prep := p.m[src]
	p.Unlock()
	if prep == nil || !bytes.Equal(prep.rec.enc, stored) {
		return nil
	}
	return prep
}

// flushScratch is the scratch space of flush, reused between flushes.
type flushScratch struct {
	posts  []termPost
	slots  []idSlot // analyzer term ID -> index in posts
	epoch  uint32
	byTerm map[string]int32 // term -> index in posts
	order  []int32
	keys   []uint64
	terms  []string
	lists  [][]byte
	recs   []*record
	ids    [][]uint32
}

// termPost accumulates the postings of one term in the segment.
type termPost struct {
	term string
	last uint64 // previous document
	seen bool
	buf  []byte
}

var flushPool = sync.Pool{New: func() any { return &flushScratch{byTerm: map[string]int32{}} }}

// post returns the index in fs.posts of term t, whose analyzer ID is gid
// (0: use the term).
func (fs *flushScratch) post(t string, gid uint32) int32 {
	if gid != 0 {
		e := slotOf(&fs.slots, gid)
		if e.epoch != fs.epoch {
			*e = idSlot{epoch: fs.epoch, local: fs.newPost(t)}
		}
		return e.local
	}
	i, ok := fs.byTerm[t]
	if !ok {
		i = fs.newPost(t)
		fs.byTerm[t] = i
	}
	return i
}

func (fs *flushScratch) newPost(t string) int32 {
	i := len(fs.posts)
	if i < cap(fs.posts) {
		fs.posts = fs.posts[:i+1]
		fs.posts[i] = termPost{term: t, buf: fs.posts[i].buf[:0]}
	} else {
		fs.posts = append(fs.posts, termPost{term: t})
	}
	return int32(i)
}

// flush turns the delta into a new segment.
func (x *Index) flush(kv plugin.KV, st *stats) error {
	srcs := st.delta
	if len(srcs) == 0 {
		return nil
	}
	fs := flushPool.Get().(*flushScratch)
	defer func() {
		clear(fs.recs[:cap(fs.recs)])
		clear(fs.ids[:cap(fs.ids)])
		clear(fs.terms[:cap(fs.terms)])
		clear(fs.lists[:cap(fs.lists)])
		for i := range fs.posts {
			fs.posts[i].term = ""
		}
		flushPool.Put(fs)
	}()
	fs.posts, fs.recs, fs.ids = fs.posts[:0], fs.recs[:0], fs.ids[:0]
	clear(fs.byTerm)
	fs.epoch++
	if fs.epoch == 0 {
		clear(fs.slots)
		fs.epoch = 1
	}
	// The records, from memory when all are there with their term IDs
	// from this index's analyzer (a term then has one ID in all of them),
	// else decoded, grouped by term alone.
	useIDs := true
	for _, s := range srcs {
		stored := kv.Get(recordKey(s))
		if stored == nil {
			return fmt.Errorf("%w: delta source %s has no record", ErrCorrupt, s)
		}
		if prep := pending.get(s, stored); prep != nil {
			fs.recs = append(fs.recs, prep.rec)
			fs.ids = append(fs.ids, prep.ids)
			useIDs = useIDs && prep.an == x.p.Analyzer && len(prep.ids) == len(prep.rec.terms)
			continue
		}
		rec, err := decodeRecord(stored)
		if err != nil {
			return fmt.Errorf("source %s: %w", s, err)
		}
		fs.recs = append(fs.recs, rec)
		fs.ids = append(fs.ids, nil)
		useIDs = false
	}

	id := st.allocSeg()
	meta := make([]segSource, 0, len(srcs))
	base := uint64(0)
	for k, s := range srcs {
		rec := fs.recs[k]
		meta = append(meta, segSource{id: s, units: rec.units})
		for i, t := range rec.terms {
			var gid uint32
			if useIDs {
				gid = fs.ids[k][i]
			}
			tp := &fs.posts[fs.post(t, gid)]
			for e := rec.entries[i]; len(e) > 0; {
				local, rest, tail, ok := nextEntry(e)
				if !ok {
					return fmt.Errorf("%w: record of %s", ErrCorrupt, s)
				}
				e = tail
				doc := base + local
				gap := doc
				if tp.seen {
					gap = doc - tp.last - 1
				}
				tp.last, tp.seen = doc, true
				tp.buf = append(binary.AppendUvarint(tp.buf, gap), rest...)
			}
		}
		base += uint64(len(rec.units))
	}
	order := resize(&fs.order, len(fs.posts))
	posts := fs.posts
	sortTermOrder(order, &fs.keys, func(i int32) string { return posts[i].term })
	fs.terms, fs.lists = fs.terms[:0], fs.lists[:0]
	for _, i := range order {
		fs.terms = append(fs.terms, posts[i].term)
		fs.lists = append(fs.lists, posts[i].buf)
	}
	if err := writeSegment(kv, id, meta, fs.terms, fs.lists); err != nil {
		return err
	}
	for _, s := range srcs {
		if err := kv.Put(locKey(s), binary.AppendUvarint(nil, uint64(id))); err != nil {
			return err
		}
	}
	pending.drop(srcs)
	st.segs = append(st.segs, segInfo{id: id, total: uint32(len(srcs)), live: uint32(len(srcs))})
	st.delta = st.delta[:0]
	return nil
}
