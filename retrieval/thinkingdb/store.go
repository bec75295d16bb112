package thinkingdb

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/kvns"
	"github.com/mrpvm/mrpvm/retrieval/memo"
)

// Key layout inside the plugin's KV namespace (all keys start with "t."):
//
//	t.s        stats: format, nonce, generation, facts, sources
//	t.f<src>   the facts of one source: subject, relation, object (as written
//	           and normalised), confidence, KU id, extracted flag
//
// One key per source, so re-indexing a source rewrites only its record and
// the stats. The entity and term indexes the closure needs are derived in
// memory from the records (facts are small) and kept current by writes
// made through the same Index.
var (
	keyStats    = []byte("t.s")
	prefixFacts = []byte("t.f")
	prefixAll   = []byte("t.")
)

// ErrCorrupt marks a record that cannot be decoded. The caller should
// Clear the namespace and re-index from the stored KUs.
var ErrCorrupt = errors.New("thinkingdb: corrupt index")

const formatVersion = 1

type stats struct {
	nonce, gen     uint64
	facts, sources uint64
}

func (s *stats) encode() []byte {
	b := kvns.AppendHeader(nil, formatVersion, s.nonce, s.gen)
	b = binary.AppendUvarint(b, s.facts)
	return binary.AppendUvarint(b, s.sources)
}

// readStats returns the stats, or ok=false when the index is empty.
func readStats(kv plugin.KV) (stats, bool, error) {
	return kvns.ReadStats(kv, keyStats, formatVersion, ErrCorrupt, func(nonce, gen uint64, v []byte) (s stats, ok bool) {
		s.nonce, s.gen = nonce, gen
		var n int
		if s.facts, n = binary.Uvarint(v); n <= 0 {
			return s, false
		}
		s.sources, n = binary.Uvarint(v[n:])
		return s, n > 0
	})
}

func factsKey(src string) []byte {
	k := make([]byte, 0, len(prefixFacts)+len(src))
	return append(append(k, prefixFacts...), src...)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func encodeFacts(facts []Fact) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(facts)))
	for _, f := range facts {
		b = appendString(b, f.Subject)
		b = append(b, byte(f.Relation))
		b = appendString(b, f.Object)
		b = appendString(b, f.SubjectKey)
		b = appendString(b, f.ObjectKey)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f.Confidence)))
		b = appendString(b, f.KU)
		flag := byte(0)
		if f.Extracted {
			flag = 1
		}
		b = append(b, flag)
	}
	return b
}

func decodeFacts(src string, v []byte) ([]Fact, error) {
	bad := fmt.Errorf("%w: facts of %s", ErrCorrupt, src)
	d := bindec.Decoder{B: v}
	n := d.Uvarint()
	if d.Bad || n > uint64(len(v)) {
		return nil, bad
	}
	facts := make([]Fact, n)
	for i := range facts {
		f := &facts[i]
		f.Subject = d.Str()
		f.Relation = Relation(d.Byte())
		f.Object = d.Str()
		f.SubjectKey = d.Str()
		f.ObjectKey = d.Str()
		f.Confidence = float64(d.Float32())
		f.KU = d.Str()
		f.Extracted = d.Byte() == 1
		f.Source = src
		if d.Bad || f.Relation == RelNone || f.Relation >= numRelations {
			return nil, bad
		}
	}
	if !d.Done() {
		return nil, bad
	}
	return facts, nil
}

// Index stores facts and reasons over them. It is safe for concurrent use.
type Index struct {
	p  Params
	ex Extractor

	mu  sync.Mutex
	mem *memory

	prepared *memo.Cache[[]Fact] // extracted facts by source and units hash
}

// New returns an Index with the given parameters.
func New(p Params) *Index {
	return &Index{p: p, ex: Extractor{Analyzer: p.Analyzer}, prepared: memo.New[[]Fact](1024)}
}

// Params returns the index's parameters.
func (x *Index) Params() Params { return x.p }

// levelOrder puts leaves first, so that a fact repeated by a section or
// summary is attributed to the most specific KU.
func levelOrder(l string) int {
	switch l {
	case kus.LevelLeaf:
		return 0
	case kus.LevelSection:
		return 1
	case kus.LevelSummary:
		return 2
	}
	return 0
}

// SourceFacts returns the facts of a source's units, deduplicated by
// (subject, relation, object).
func (x *Index) SourceFacts(sourceID string, units []*kus.KU) []Fact {
	var out []Fact
	seen := map[[3]string]bool{}
	memo := memoPool.Get().(*textMemo)
	defer memo.release()
	for lvl := 0; lvl <= 2; lvl++ {
		for _, u := range units {
			if u == nil || levelOrder(u.Level) != lvl {
				continue
			}
			for _, f := range x.ex.facts(u, memo) {
				k := [3]string{f.SubjectKey, f.Relation.String(), f.ObjectKey}
				if seen[k] {
					continue
				}
				seen[k] = true
				f.Source = sourceID
				out = append(out, f)
			}
		}
	}
	return out
}

// facts returns SourceFacts(src, units), from the cache when Prepare (or an
// earlier IndexSource) extracted them. The slice must not be modified.
func (x *Index) facts(src string, units []*kus.KU) []Fact {
	if len(units) == 0 {
		return nil
	}
	key := unitsHash(src, units)
	if fs, ok := x.prepared.Get(key); ok {
		return fs
	}
	fs := x.SourceFacts(src, units)
	x.prepared.Put(key, fs)
	return fs
}

// Prepare extracts a source's facts ahead of IndexSource, which then only
// writes. It needs no transaction and may run on any goroutine; the result
// is kept for the last 1024 sources prepared or indexed.
func (x *Index) Prepare(sourceID string, units []*kus.KU) {
	x.facts(sourceID, units)
}

var hashSeed = maphash.MakeSeed()

// unitsHash hashes the source id and everything extraction reads.
func unitsHash(src string, units []*kus.KU) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	str := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	str(src)
	for _, u := range units {
		if u == nil {
			continue
		}
		for _, s := range []string{u.ID, u.Level, u.SymbolicSubject, u.SymbolicRelation, u.SymbolicObject,
			u.Claim, u.Procedure, u.TextBody} {
			str(s)
		}
		if u.Confidence != nil {
			str(strconv.FormatFloat(*u.Confidence, 'g', -1, 64))
		}
		h.WriteByte(1)
	}
	return h.Sum64()
}

// IndexSource replaces the facts of one source with those of units (none
// removes the source). oldUnitIDs is accepted for the hook contract; the
// source's record is all there is to replace.
func (x *Index) IndexSource(kv plugin.KV, sourceID string, units []*kus.KU, oldUnitIDs []string) error {
	_ = oldUnitIDs
	return kvns.WriteSource(kv, "thinkingdb", sourceID, func() error { return x.indexSource(kv, sourceID, units) }, x.drop)
}

// RemoveSource deletes the facts of one source.
func (x *Index) RemoveSource(kv plugin.KV, sourceID string, oldUnitIDs []string) error {
	return x.IndexSource(kv, sourceID, nil, oldUnitIDs)
}

func (x *Index) indexSource(kv plugin.KV, src string, units []*kus.KU) error {
	if src == "" {
		return errors.New("empty source id")
	}
	st, ok, err := readStats(kv)
	if err != nil {
		return err
	}
	if !ok {
		st = stats{nonce: kvns.NewNonce()}
	}
	oldGen := st.gen
	key := factsKey(src)
	if v := kv.Get(key); v != nil {
		n, k := binary.Uvarint(v)
		if k <= 0 {
			return fmt.Errorf("%w: facts of %s", ErrCorrupt, src)
		}
		st.facts -= n
		st.sources--
	}
	facts := x.facts(src, units)
	if len(units) == 0 {
		if err := kv.Delete(key); err != nil {
			return err
		}
	} else {
		// A source without facts still gets a record, so that the record
		// says "indexed" and sources with and without facts count alike.
		if err := kv.Put(key, encodeFacts(facts)); err != nil {
			return err
		}
		st.facts += uint64(len(facts))
		st.sources++
	}
	st.gen++
	if st.sources == 0 {
		x.drop()
		return Clear(kv)
	}
	if err := kv.Put(keyStats, st.encode()); err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	m := x.mem
	if m == nil {
		return nil
	}
	if m.nonce != st.nonce || m.gen != oldGen {
		x.mem = nil
		return nil
	}
	if len(units) == 0 {
		delete(m.bySource, src)
	} else {
		m.bySource[src] = facts
	}
	m.derived = nil
	m.gen = st.gen
	return nil
}

// Clear deletes every key of the fact store.
func Clear(kv plugin.KV) error { return kvns.Clear(kv, "thinkingdb", prefixAll) }

func (x *Index) drop() {
	x.mu.Lock()
	x.mem = nil
	x.mu.Unlock()
}

// memory holds the facts of one index state (nonce, gen) and, once built,
// the indexes derived from them.
type memory struct {
	nonce, gen uint64
	bySource   map[string][]Fact
	derived    *graph
}

// graph indexes the facts for the closure. It is immutable once built.
//
// Facts naming the same (subject, object) pair share their terms, hence
// their seed match: the term index lists such pairs (classes) rather than
// facts, so that a fact repeated by many sources costs the seed match one
// entry, not one per copy.
type graph struct {
	facts    []*Fact
	entityOf map[string]int32   // entity key -> entity id
	byEntity [][]int32          // entity id -> facts naming it
	byTerm   map[string][]int32 // term -> classes whose subject or object has it
	// classes[c] are the facts of class c, by confidence (highest first)
	// then id, the order in which seeds of equal match are taken.
	classes [][]int32
	scratch sync.Pool // *matchScratch sized to classes
}

// matchScratch accumulates the seed match of the classes a query touches.
type matchScratch struct {
	m       []float64 // by class; 0 when untouched (query weights are > 0)
	touched []int32
}

func buildGraph(bySource map[string][]Fact) *graph {
	g := &graph{entityOf: map[string]int32{}, byTerm: map[string][]int32{}}
	n := 0
	for _, fs := range bySource {
		n += len(fs)
	}
	// A deterministic order, whatever the map order: sortFacts's, which
	// orders by source first, so each source's facts are sorted apart.
	srcs := make([]string, 0, len(bySource))
	for src := range bySource {
		srcs = append(srcs, src)
	}
	slices.Sort(srcs)
	g.facts = make([]*Fact, 0, n)
	for _, src := range srcs {
		fs := bySource[src]
		from := len(g.facts)
		for i := range fs {
			g.facts = append(g.facts, &fs[i])
		}
		sortFacts(g.facts[from:])
	}
	entity := func(key string) int32 {
		e, ok := g.entityOf[key]
		if !ok {
			e = int32(len(g.byEntity))
			g.entityOf[key] = e
			g.byEntity = append(g.byEntity, nil)
		}
		return e
	}
	classOf := map[uint64]int32{} // subject and object entity ids -> class
	var terms []string
	for i, f := range g.facts {
		id := int32(i)
		se, oe := entity(f.SubjectKey), entity(f.ObjectKey)
		g.byEntity[se] = append(g.byEntity[se], id)
		if oe != se {
			g.byEntity[oe] = append(g.byEntity[oe], id)
		}
		pair := uint64(uint32(se))<<32 | uint64(uint32(oe))
		c, ok := classOf[pair]
		if ok {
			g.classes[c] = append(g.classes[c], id)
			continue
		}
		c = int32(len(g.classes))
		classOf[pair] = c
		g.classes = append(g.classes, []int32{id})
		terms = terms[:0]
		for _, t := range strings.Fields(f.SubjectKey + " " + f.ObjectKey) {
			if !slices.Contains(terms, t) {
				terms = append(terms, t)
				g.byTerm[t] = append(g.byTerm[t], c)
			}
		}
	}
	for _, ids := range g.classes {
		if len(ids) > 1 {
			slices.SortFunc(ids, func(a, b int32) int {
				if c := cmp.Compare(g.facts[b].Confidence, g.facts[a].Confidence); c != 0 {
					return c
				}
				return cmp.Compare(a, b)
			})
		}
	}
	nc := len(g.classes)
	g.scratch.New = func() any { return &matchScratch{m: make([]float64, nc)} }
	return g
}

func tripleKey(f *Fact) [3]string { return [3]string{f.SubjectKey, f.Relation.String(), f.ObjectKey} }

// snapshot returns the graph of index state st.
func (x *Index) snapshot(kv plugin.KV, st stats) (*graph, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	m := x.mem
	shared := true
	if m == nil || m.nonce != st.nonce || m.gen != st.gen {
		loaded, err := loadMemory(kv, st)
		if err != nil {
			return nil, err
		}
		if m != nil && m.nonce == st.nonce && m.gen > st.gen {
			shared = false // an older snapshot: answer privately
		}
		m = loaded
		if shared {
			x.mem = m
		}
	}
	if m.derived == nil {
		m.derived = buildGraph(m.bySource)
	}
	return m.derived, nil
}

func loadMemory(kv plugin.KV, st stats) (*memory, error) {
	m := &memory{nonce: st.nonce, gen: st.gen, bySource: map[string][]Fact{}}
	err := kv.Scan(prefixFacts, nil, func(k, v []byte) error {
		src := string(k[len(prefixFacts):])
		fs, err := decodeFacts(src, v)
		if err != nil {
			return err
		}
		if len(fs) > 0 {
			m.bySource[src] = fs
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}
