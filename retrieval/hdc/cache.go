package hdc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/kvns"
)

// keyGen holds the index state: a nonce (new whenever the namespace starts
// empty) and a generation bumped by every write. Decoded records are cached
// per state, so a write by this process or another one empties the cache.
var keyGen = []byte("h.g")

// genState identifies one state of the index; ok is false when the
// namespace has no state key (written by an older version, or empty):
// nothing is cached then.
type genState struct {
	nonce, gen uint64
	ok         bool
}

func readGen(kv plugin.KV) genState {
	v := kv.Get(keyGen)
	if len(v) != 16 {
		return genState{}
	}
	return genState{nonce: binary.LittleEndian.Uint64(v), gen: binary.LittleEndian.Uint64(v[8:]), ok: true}
}

// bumpGen moves the stored state to its next generation (a new nonce when
// there is none). A namespace left without vector records loses its state
// key, so an emptied index is empty in the store.
func bumpGen(kv plugin.KV, removed bool) error {
	if removed {
		errFound := errors.New("found")
		err := kv.Scan(prefixVectors, nil, func(_, _ []byte) error { return errFound })
		if err == nil {
			if kv.Get(keyGen) == nil {
				return nil
			}
			return kv.Delete(keyGen)
		}
		if !errors.Is(err, errFound) {
			return err
		}
	}
	st := readGen(kv)
	if !st.ok {
		st.nonce = kvns.NewNonce()
	}
	v := make([]byte, 16)
	binary.LittleEndian.PutUint64(v, st.nonce)
	binary.LittleEndian.PutUint64(v[8:], st.gen+1)
	return kv.Put(keyGen, v)
}

// srcVectors is a source's decoded vector record: a cached one copied out
// of the transaction (vectors aligned for comparison), one read for a
// single query left in place (its table read where the transaction holds
// it), ids as strings either way.
type srcVectors struct {
	vecs  []Vector // table entry i is vecs[i-1]; nil when raw holds the table
	raw   []byte   // the table in place: valid only inside the reading transaction
	n     int      // table entries
	units []unitVec
}

// score returns Score(Similarity(q, e)) for table entry i (from 1).
func (sv *srcVectors) score(q *Vector, i uint32) float64 {
	if sv.vecs != nil {
		return Score(Similarity(q, &sv.vecs[i-1]))
	}
	return Score(1 - float64(HammingBytes(q, sv.raw[int(i-1)*Words*8:]))/Bits)
}

// vector returns table entry i (from 1), decoded into buf when the table
// is in place.
func (sv *srcVectors) vector(i uint32, buf *Vector) *Vector {
	if sv.vecs != nil {
		return &sv.vecs[i-1]
	}
	FromBytes(sv.raw[int(i-1)*Words*8:], buf)
	return buf
}

type unitVec struct {
	id             string
	n              int    // len(id)
	tail           uint64 // idTail(id)
	role           uint8
	acts           uint16
	topic, content uint32 // table entries, noVector for none
}

// detach copies a record out of its transaction, or, when keep is false
// (the record serves one query and is not cached), leaves its vector table
// where the transaction holds it: no copy of vectors most of which the
// query never compares.
func (r *record) detach(keep bool) *srcVectors {
	m := len(r.table) / (Words * 8)
	sv := &srcVectors{n: m, units: make([]unitVec, len(r.units))}
	if keep {
		sv.vecs = make([]Vector, m)
		for i := range sv.vecs {
			FromBytes(r.table[i*Words*8:], &sv.vecs[i])
		}
	} else {
		sv.raw = r.table
	}
	for i, u := range r.units {
		id := string(u.id)
		sv.units[i] = unitVec{id: id, n: len(id), tail: idTail(id), role: u.role, acts: u.acts,
			topic: uint32(u.topic), content: uint32(u.content)}
	}
	return sv
}

// size is what the record's srcVectors would hold once copied (size).
func (r *record) size() int {
	n := 64 + len(r.table)
	for _, u := range r.units {
		n += 48 + len(u.id)
	}
	return n
}

// size is the memory a cached record holds, roughly.
func (sv *srcVectors) size() int {
	n := 64 + sv.n*Words*8
	for _, u := range sv.units {
		n += 48 + len(u.id)
	}
	return n
}

// find returns the position of the unit with the given id, or -1. The
// ids of a source's units share their beginning (the source id) and live
// elsewhere in memory, so each unit keeps its id's length and last bytes
// inline and only a unit matching both has its id compared.
func (sv *srcVectors) find(id string) int {
	n, tail := len(id), idTail(id)
	for i := range sv.units {
		u := &sv.units[i]
		if u.n == n && u.tail == tail && u.id == id {
			return i
		}
	}
	return -1
}

// idTail packs the last (up to) 8 bytes of id.
func idTail(id string) uint64 {
	var t uint64
	for i := max(0, len(id)-8); i < len(id); i++ {
		t = t<<8 | uint64(id[i])
	}
	return t
}

// maxCachedVectors bounds the bytes of decoded records kept in memory
// (SciFact's 5,183 sources take about 9 MB). Past it, records are decoded
// per query and not kept: ten copies of SciFact would take 90 MB.
var maxCachedVectors = 16 << 20

// vecCache keeps decoded records of one index state.
type vecCache struct {
	mu    sync.Mutex
	st    genState
	m     map[string]*srcVectors // nil: the source has no record
	bytes int
}

// getMany sets out[i], found[i] to the cached record of srcs[i] for state
// st. A state newer than the cache's resets the cache; an older one (a
// reader of an older snapshot) is not served.
func (c *vecCache) getMany(st genState, srcs []string, out []*srcVectors, found []bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.sync(st) {
		return
	}
	for i, src := range srcs {
		out[i], found[i] = c.m[src]
	}
}

// putMany caches the records of srcs at the positions which.
func (c *vecCache) putMany(st genState, srcs []string, svs []*srcVectors, which []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.sync(st) {
		return
	}
	for _, i := range which {
		n := 32 + len(srcs[i])
		if svs[i] != nil {
			n += svs[i].size()
		}
		if c.bytes+n > maxCachedVectors {
			return
		}
		c.m[srcs[i]] = svs[i]
		c.bytes += n
	}
}

// room reports whether a record of n bytes would still be cached for
// state st (putMany decides again when it adds it).
func (c *vecCache) room(st genState, n int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sync(st) && c.bytes+32+n <= maxCachedVectors
}

// sync makes the cache hold state st when st is not older than the
// cache's, and reports whether it does.
func (c *vecCache) sync(st genState) bool {
	if !st.ok {
		return false
	}
	if c.m != nil && c.st.nonce == st.nonce {
		if c.st.gen == st.gen {
			return true
		}
		if c.st.gen > st.gen {
			return false
		}
	}
	c.st, c.m, c.bytes = st, make(map[string]*srcVectors), 0
	return true
}

// drop empties the cache (after a write by this process).
func (c *vecCache) drop() {
	c.mu.Lock()
	c.m, c.bytes = nil, 0
	c.mu.Unlock()
}

// sourcesVectors returns the decoded records of srcs (nil for a source
// without one), from the cache when state st allows it.
func (x *Index) sourcesVectors(kv plugin.KV, st genState, srcs []string) ([]*srcVectors, error) {
	out := make([]*srcVectors, len(srcs))
	found := make([]bool, len(srcs))
	x.vc.getMany(st, srcs, out, found)
	var missed []int
	for i, src := range srcs {
		if found[i] {
			continue
		}
		if v := kv.Get(vectorsKey(src)); v != nil {
			r, err := decodeRecord(v)
			if err != nil {
				return nil, fmt.Errorf("source %s: %w", src, err)
			}
			keep := x.vc.room(st, len(src)+r.size())
			out[i] = r.detach(keep)
			if !keep {
				continue // read in place for this query only
			}
		}
		missed = append(missed, i)
	}
	if len(missed) > 0 {
		x.vc.putMany(st, srcs, out, missed)
	}
	return out, nil
}
