package bm25

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// Key layout inside the plugin's KV namespace (all keys start with "b." so
// other indexes can share the namespace):
//
//	b.s                     stats: format, nonce, generation, units, sources, per-field total lengths
//	b.u<sourceID>           the source's units: per unit its KU id, role code and per-field lengths
//	b.f<sourceID>           the source's distinct terms (to delete its postings on change)
//	b.p<term>\x00<sourceID> postings of term in that source: per unit (local index,
//	                        field mask, per-field term frequency), all uvarints
//
// Postings are keyed per term per source, so re-indexing a source touches only
// that source's keys plus the stats key, and the postings of one term are one
// contiguous key range read by a single cursor scan at query time.
var (
	keyStats      = []byte("b.s")
	prefixUnits   = []byte("b.u")
	prefixTerms   = []byte("b.f")
	prefixPosting = []byte("b.p")
)

// ErrCorrupt marks an index whose stored records cannot be decoded. The
// caller should clear the namespace and re-index from the stored KUs.
var ErrCorrupt = errors.New("bm25: corrupt index")

const formatVersion = 1

// stats are the collection statistics, kept consistent on every update.
type stats struct {
	nonce    uint64 // identifies one index instance (guards caches)
	gen      uint64 // bumped on every write
	units    uint64
	sources  uint64
	fieldLen [NumFields]uint64
}

func (s *stats) encode() []byte {
	b := make([]byte, 0, 17+10*(2+NumFields))
	b = append(b, formatVersion)
	b = binary.LittleEndian.AppendUint64(b, s.nonce)
	b = binary.LittleEndian.AppendUint64(b, s.gen)
	b = binary.AppendUvarint(b, s.units)
	b = binary.AppendUvarint(b, s.sources)
	for _, l := range s.fieldLen {
		b = binary.AppendUvarint(b, l)
	}
	return b
}

// readStats returns the stats, or ok=false when the index is empty.
func readStats(kv sdk.KV) (s stats, ok bool, err error) {
	v := kv.Get(keyStats)
	if v == nil {
		return s, false, nil
	}
	if len(v) < 17 || v[0] != formatVersion {
		return s, false, fmt.Errorf("%w: stats record", ErrCorrupt)
	}
	s.nonce = binary.LittleEndian.Uint64(v[1:])
	s.gen = binary.LittleEndian.Uint64(v[9:])
	d := decoder{b: v[17:]}
	s.units = d.uvarint()
	s.sources = d.uvarint()
	for f := range s.fieldLen {
		s.fieldLen[f] = d.uvarint()
	}
	if d.err {
		return s, false, fmt.Errorf("%w: stats record", ErrCorrupt)
	}
	return s, true, nil
}

// unitInfo is what the index keeps about one unit of a source.
type unitInfo struct {
	id   string
	role uint8
	lens [NumFields]uint32
}

func encodeUnits(units []unitInfo) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(units)))
	for _, u := range units {
		b = binary.AppendUvarint(b, uint64(len(u.id)))
		b = append(b, u.id...)
		b = append(b, u.role)
		for _, l := range u.lens {
			b = binary.AppendUvarint(b, uint64(l))
		}
	}
	return b
}

func decodeUnits(v []byte) ([]unitInfo, error) {
	d := decoder{b: v}
	n := d.uvarint()
	if n > uint64(len(v)) {
		return nil, fmt.Errorf("%w: unit record", ErrCorrupt)
	}
	units := make([]unitInfo, n)
	for i := range units {
		units[i].id = string(d.bytes(d.uvarint()))
		units[i].role = d.byte()
		for f := range units[i].lens {
			units[i].lens[f] = uint32(d.uvarint())
		}
	}
	if d.err {
		return nil, fmt.Errorf("%w: unit record", ErrCorrupt)
	}
	return units, nil
}

func encodeTerms(terms []string) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for _, t := range terms {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	return b
}

func decodeTerms(v []byte) ([]string, error) {
	d := decoder{b: v}
	n := d.uvarint()
	if n > uint64(len(v)) {
		return nil, fmt.Errorf("%w: term record", ErrCorrupt)
	}
	terms := make([]string, n)
	for i := range terms {
		terms[i] = string(d.bytes(d.uvarint()))
	}
	if d.err {
		return nil, fmt.Errorf("%w: term record", ErrCorrupt)
	}
	return terms, nil
}

func unitsKey(src string) []byte { return append(slices.Clip(prefixUnits), src...) }
func termsKey(src string) []byte { return append(slices.Clip(prefixTerms), src...) }

// termPrefix is the prefix of all posting keys of term.
func termPrefix(term string) []byte {
	k := make([]byte, 0, len(prefixPosting)+len(term)+1)
	k = append(k, prefixPosting...)
	k = append(k, term...)
	return append(k, 0)
}

func postingKey(term, src string) []byte {
	return append(termPrefix(term), src...)
}

// appendEntry appends one unit's posting entry: local index, field mask and
// the frequency in each field of the mask.
func appendEntry(b []byte, local int, tf *[NumFields]uint32) []byte {
	var mask uint64
	for f, c := range tf {
		if c > 0 {
			mask |= 1 << f
		}
	}
	b = binary.AppendUvarint(b, uint64(local))
	b = binary.AppendUvarint(b, mask)
	for _, c := range tf {
		if c > 0 {
			b = binary.AppendUvarint(b, uint64(c))
		}
	}
	return b
}

// IndexSource replaces the indexed units of one source with units (none
// removes the source). Only that source's postings and records and the stats
// key change. The index keeps its own record of each source's units and
// terms, which is authoritative; oldUnitIDs (the ids the knowledge base held
// before) is accepted for the hook contract and not needed.
func (x *Index) IndexSource(kv sdk.KV, sourceID string, units []*kus.KU, oldUnitIDs []string) error {
	_ = oldUnitIDs
	if !kv.Writable() {
		return errors.New("bm25: index source: read-only transaction")
	}
	if sourceID == "" || strings.IndexByte(sourceID, 0) >= 0 {
		return fmt.Errorf("bm25: index source: invalid source id %q", sourceID)
	}
	st, ok, err := readStats(kv)
	if err != nil {
		return fmt.Errorf("bm25: index source %s: %w", sourceID, err)
	}
	if !ok {
		st = stats{nonce: newNonce()}
	}
	oldGen := st.gen

	// Take the old version out of the statistics.
	var oldUnits []unitInfo
	if v := kv.Get(unitsKey(sourceID)); v != nil {
		if oldUnits, err = decodeUnits(v); err != nil {
			return fmt.Errorf("bm25: index source %s: %w", sourceID, err)
		}
	}
	var oldTerms []string
	if v := kv.Get(termsKey(sourceID)); v != nil {
		if oldTerms, err = decodeTerms(v); err != nil {
			return fmt.Errorf("bm25: index source %s: %w", sourceID, err)
		}
	}
	if len(oldUnits) > 0 {
		st.sources--
		st.units -= uint64(len(oldUnits))
		for _, u := range oldUnits {
			for f, l := range u.lens {
				st.fieldLen[f] -= uint64(l)
			}
		}
	}

	// Analyse the new version.
	post := make(map[string][]byte, 256)
	infos := make([]unitInfo, 0, len(units))
	ut := unitTerms{counts: make(map[string]*[NumFields]uint32, 256)}
	for _, u := range units {
		if u == nil {
			continue
		}
		analyzeUnit(x.p.Analyzer, u, &ut)
		local := len(infos)
		infos = append(infos, unitInfo{id: u.ID, role: roleCode(u.Role), lens: ut.lens})
		for term, c := range ut.counts {
			post[term] = appendEntry(post[term], local, c)
		}
	}
	terms := make([]string, 0, len(post))
	for t := range post {
		terms = append(terms, t)
	}
	slices.Sort(terms)

	// Write postings; unchanged ones are left alone.
	for _, t := range terms {
		key := postingKey(t, sourceID)
		if bytes.Equal(kv.Get(key), post[t]) {
			continue
		}
		if err := kv.Put(key, post[t]); err != nil {
			return fmt.Errorf("bm25: index source %s: put posting: %w", sourceID, err)
		}
	}
	for _, t := range oldTerms {
		if _, keep := post[t]; keep {
			continue
		}
		if err := kv.Delete(postingKey(t, sourceID)); err != nil {
			return fmt.Errorf("bm25: index source %s: delete posting: %w", sourceID, err)
		}
	}

	if len(infos) > 0 {
		st.sources++
		st.units += uint64(len(infos))
		for _, u := range infos {
			for f, l := range u.lens {
				st.fieldLen[f] += uint64(l)
			}
		}
		if err := kv.Put(unitsKey(sourceID), encodeUnits(infos)); err != nil {
			return fmt.Errorf("bm25: index source %s: put units: %w", sourceID, err)
		}
		if err := kv.Put(termsKey(sourceID), encodeTerms(terms)); err != nil {
			return fmt.Errorf("bm25: index source %s: put terms: %w", sourceID, err)
		}
	} else {
		if err := kv.Delete(unitsKey(sourceID)); err != nil {
			return fmt.Errorf("bm25: remove source %s: %w", sourceID, err)
		}
		if err := kv.Delete(termsKey(sourceID)); err != nil {
			return fmt.Errorf("bm25: remove source %s: %w", sourceID, err)
		}
	}
	st.gen++
	if st.sources == 0 {
		// The index is empty: leave no key behind.
		if err := kv.Delete(keyStats); err != nil {
			return fmt.Errorf("bm25: remove source %s: delete stats: %w", sourceID, err)
		}
		x.dropCache()
		return nil
	}
	if err := kv.Put(keyStats, st.encode()); err != nil {
		return fmt.Errorf("bm25: index source %s: put stats: %w", sourceID, err)
	}
	x.sourceChanged(st.nonce, oldGen, st.gen, sourceID, infos, oldTerms, terms)
	return nil
}

// RemoveSource deletes every posting and record of one source.
func (x *Index) RemoveSource(kv sdk.KV, sourceID string, oldUnitIDs []string) error {
	return x.IndexSource(kv, sourceID, nil, oldUnitIDs)
}

// Clear deletes every key of the index (for a rebuild after corruption).
func Clear(kv sdk.KV) error {
	var keys [][]byte
	err := kv.Scan([]byte("b."), nil, func(k, _ []byte) error {
		keys = append(keys, bytes.Clone(k))
		return nil
	})
	if err != nil {
		return fmt.Errorf("bm25: clear: %w", err)
	}
	for _, k := range keys {
		if err := kv.Delete(k); err != nil {
			return fmt.Errorf("bm25: clear: %w", err)
		}
	}
	return nil
}

func newNonce() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) | 1
}

// decoder reads uvarints and byte strings, remembering the first error.
type decoder struct {
	b   []byte
	err bool
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = true
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() uint8 {
	if len(d.b) == 0 {
		d.err = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) bytes(n uint64) []byte {
	if n > uint64(len(d.b)) {
		d.err = true
		d.b = nil
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}
