package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// Key layout inside the plugin's KV namespace. Every key starts with "b." so
// other indexes can share the namespace.
//
//	b.s                   stats: format, nonce, generation, live units and sources, per-field
//	                      total lengths, the segment list (id, sources, live sources), delta size
//	b.d<src>              the source's forward record: its units (KU id, role, per-field
//	                      lengths) and, per distinct term, the units' (local index, field
//	                      mask, per-field frequencies)
//	b.o<src>              the segment holding the source's live version (0: the delta)
//	b.l<src>              present while the source's live version is in the delta
//	b.g<seg>m             segment meta: its sources in document order with their units
//	b.g<seg>p<term>       the term's postings in the segment: (document gap, field mask,
//	                      per-field frequencies)
//
// <seg> is a 4-byte big-endian number. Writing a source touches only its
// own b.d/b.o/b.l keys and b.s, a handful of pages per transaction. When the
// delta holds Params.FlushSources sources it is flushed into an immutable
// term-major segment; segments of the same size tier are merged
// Params.MergeFactor at a time (a log-structured merge, as Lucene and bleve
// do), dropping replaced versions. A source's old version in a segment is
// dead from the moment b.o stops pointing at that segment.
var (
	keyStats     = []byte("b.s")
	prefixRecord = []byte("b.d")
	prefixLoc    = []byte("b.o")
	prefixDelta  = []byte("b.l")
	prefixSeg    = []byte("b.g")
	prefixAll    = []byte("b.")
)

// ErrCorrupt marks an index whose stored records cannot be decoded. The
// caller should Clear the namespace and re-index from the stored KUs.
var ErrCorrupt = errors.New("bm25: corrupt index")

const formatVersion = 2

// segInfo describes one segment.
type segInfo struct {
	id    uint32
	total uint32 // sources written into it
	live  uint32 // sources whose live version it holds
}

// stats are the collection statistics and the segment list.
type stats struct {
	nonce    uint64 // identifies one index instance (guards caches)
	gen      uint64 // bumped on every write
	units    uint64 // live units
	sources  uint64 // live sources
	fieldLen [NumFields]uint64
	nextSeg  uint32 // counts down from MaxUint32; 0 is the delta
	delta    uint32 // sources in the delta
	segs     []segInfo
}

func (s *stats) encode() []byte {
	b := make([]byte, 0, 64+8*len(s.segs))
	b = append(b, formatVersion)
	b = binary.LittleEndian.AppendUint64(b, s.nonce)
	b = binary.LittleEndian.AppendUint64(b, s.gen)
	b = binary.AppendUvarint(b, s.units)
	b = binary.AppendUvarint(b, s.sources)
	for _, l := range s.fieldLen {
		b = binary.AppendUvarint(b, l)
	}
	b = binary.AppendUvarint(b, uint64(s.nextSeg))
	b = binary.AppendUvarint(b, uint64(s.delta))
	b = binary.AppendUvarint(b, uint64(len(s.segs)))
	for _, g := range s.segs {
		b = binary.AppendUvarint(b, uint64(g.id))
		b = binary.AppendUvarint(b, uint64(g.total))
		b = binary.AppendUvarint(b, uint64(g.live))
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
	s.nextSeg = uint32(d.uvarint())
	s.delta = uint32(d.uvarint())
	n := d.uvarint()
	if n > uint64(len(v)) {
		return s, false, fmt.Errorf("%w: stats record", ErrCorrupt)
	}
	s.segs = make([]segInfo, n)
	for i := range s.segs {
		s.segs[i] = segInfo{id: uint32(d.uvarint()), total: uint32(d.uvarint()), live: uint32(d.uvarint())}
	}
	if d.err || len(d.b) != 0 {
		return s, false, fmt.Errorf("%w: stats record", ErrCorrupt)
	}
	return s, true, nil
}

// allocSeg returns a new segment id. Ids count down, so a new segment's
// keys sort before every older segment's: deleting the merged segments then
// removes keys that follow the new ones in bbolt's in-memory nodes, which
// is cheap, instead of shifting all the new keys on every delete.
func (s *stats) allocSeg() uint32 {
	id := s.nextSeg
	s.nextSeg--
	return id
}

func (s *stats) seg(id uint32) *segInfo {
	for i := range s.segs {
		if s.segs[i].id == id {
			return &s.segs[i]
		}
	}
	return nil
}

// unitInfo is what the index keeps about one unit.
type unitInfo struct {
	id   string
	role uint8
	lens [NumFields]uint32
}

func appendUnits(b []byte, units []unitInfo) []byte {
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

func (d *decoder) units() []unitInfo {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = true
		return nil
	}
	units := make([]unitInfo, n)
	for i := range units {
		units[i].id = string(d.bytes(d.uvarint()))
		units[i].role = d.byte()
		for f := range units[i].lens {
			units[i].lens[f] = uint32(d.uvarint())
		}
	}
	return units
}

// record is the forward index of one source version.
type record struct {
	units   []unitInfo
	terms   []string // sorted
	entries [][]byte // per term: the units' entries (local, mask, frequencies)
}

func (r *record) encode() []byte {
	size := 16
	for i, t := range r.terms {
		size += len(t) + len(r.entries[i]) + 4
	}
	b := make([]byte, 0, size+len(r.units)*32)
	b = appendUnits(b, r.units)
	b = binary.AppendUvarint(b, uint64(len(r.terms)))
	for i, t := range r.terms {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
		b = binary.AppendUvarint(b, uint64(len(r.entries[i])))
		b = append(b, r.entries[i]...)
	}
	return b
}

// decodeRecord decodes a forward record; entries alias v.
func decodeRecord(v []byte) (*record, error) {
	d := decoder{b: v}
	r := &record{units: d.units()}
	n := d.uvarint()
	if n > uint64(len(v)) {
		return nil, fmt.Errorf("%w: source record", ErrCorrupt)
	}
	r.terms = make([]string, n)
	r.entries = make([][]byte, n)
	for i := range r.terms {
		r.terms[i] = string(d.bytes(d.uvarint()))
		r.entries[i] = d.bytes(d.uvarint())
	}
	if d.err || len(d.b) != 0 {
		return nil, fmt.Errorf("%w: source record", ErrCorrupt)
	}
	return r, nil
}

// readRecord returns the source's forward record, or nil.
func readRecord(kv sdk.KV, src string) (*record, error) {
	v := kv.Get(recordKey(src))
	if v == nil {
		return nil, nil
	}
	r, err := decodeRecord(v)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", src, err)
	}
	return r, nil
}

// readLoc returns the segment holding the source's live version (0: delta).
func readLoc(kv sdk.KV, src string) (uint32, error) {
	v := kv.Get(locKey(src))
	if v == nil {
		return 0, fmt.Errorf("%w: no location for source %s", ErrCorrupt, src)
	}
	seg, n := binary.Uvarint(v)
	if n <= 0 {
		return 0, fmt.Errorf("%w: location of source %s", ErrCorrupt, src)
	}
	return uint32(seg), nil
}

func key(prefix []byte, s string) []byte {
	k := make([]byte, 0, len(prefix)+len(s))
	return append(append(k, prefix...), s...)
}

func recordKey(src string) []byte { return key(prefixRecord, src) }
func locKey(src string) []byte    { return key(prefixLoc, src) }
func deltaKey(src string) []byte  { return key(prefixDelta, src) }

// segPrefix is the prefix of every key of segment id.
func segPrefix(id uint32) []byte {
	return binary.BigEndian.AppendUint32(slices.Clip(prefixSeg), id)
}

func segMetaKey(id uint32) []byte { return append(segPrefix(id), 'm') }

func segPostingPrefix(id uint32) []byte { return append(segPrefix(id), 'p') }

func segPostingKey(id uint32, term string) []byte {
	return append(segPostingPrefix(id), term...)
}

// segSource is one source of a segment.
type segSource struct {
	id    string
	units []unitInfo
}

func encodeMeta(srcs []segSource) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(srcs)))
	for _, s := range srcs {
		b = binary.AppendUvarint(b, uint64(len(s.id)))
		b = append(b, s.id...)
		b = appendUnits(b, s.units)
	}
	return b
}

func readMeta(kv sdk.KV, id uint32) ([]segSource, error) {
	v := kv.Get(segMetaKey(id))
	if v == nil {
		return nil, fmt.Errorf("%w: segment %d has no meta", ErrCorrupt, id)
	}
	d := decoder{b: v}
	n := d.uvarint()
	if n > uint64(len(v)) {
		return nil, fmt.Errorf("%w: segment %d meta", ErrCorrupt, id)
	}
	srcs := make([]segSource, n)
	for i := range srcs {
		srcs[i].id = string(d.bytes(d.uvarint()))
		srcs[i].units = d.units()
	}
	if d.err || len(d.b) != 0 {
		return nil, fmt.Errorf("%w: segment %d meta", ErrCorrupt, id)
	}
	return srcs, nil
}

// appendEntry appends one unit's entry: its number (local index in a record,
// gap to the previous document in a segment), the field mask and the
// frequency in each field of the mask.
func appendEntry(b []byte, num uint64, tf *[NumFields]uint32) []byte {
	var mask uint64
	for f, c := range tf {
		if c > 0 {
			mask |= 1 << f
		}
	}
	b = binary.AppendUvarint(b, num)
	b = binary.AppendUvarint(b, mask)
	for _, c := range tf {
		if c > 0 {
			b = binary.AppendUvarint(b, uint64(c))
		}
	}
	return b
}

// entry reads one entry; weights turn the frequencies into one weighted tf.
func (d *decoder) entry(w *[NumFields]float32) (num uint64, tf float32) {
	num = d.uvarint()
	mask := d.uvarint()
	for f := 0; mask != 0 && f < int(NumFields); f++ {
		if mask&(1<<f) != 0 {
			tf += w[f] * float32(d.uvarint())
			mask &^= 1 << f
		}
	}
	if mask != 0 {
		d.err = true
	}
	return num, tf
}

// rawEntry reads one entry and returns its number and the bytes after it.
func (d *decoder) rawEntry() (num uint64, rest []byte) {
	num = d.uvarint()
	start := d.b
	mask := d.uvarint()
	for f := 0; mask != 0 && f < int(NumFields); f++ {
		if mask&(1<<f) != 0 {
			d.uvarint()
			mask &^= 1 << f
		}
	}
	if mask != 0 {
		d.err = true
	}
	return num, start[:len(start)-len(d.b)]
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
