package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/plugin"
)

// Key layout inside the plugin's KV namespace. Every key starts with "b." so
// other indexes can share the namespace.
//
//	b.s                   stats: format, nonce, generation, live units and sources, per-field
//	                      total lengths, the segment list (id, sources, live sources), the
//	                      ids of the sources in the delta
//	b.d<src>              the source's forward record: its units (KU id, role, per-field
//	                      lengths) and, per distinct term, the units' (local index, field
//	                      mask, per-field frequencies)
//	b.o<src>              the segment holding the source's live version (0: the delta)
//	b.g<seg>m             segment meta: its sources in document order with their units,
//	                      and the first term of each block
//	b.g<seg>b<n>          block n of the segment's postings: consecutive terms (about
//	                      16 KB), each with its postings (document gap, field mask,
//	                      per-field frequencies)
//
// <seg> and <n> are 4-byte big-endian numbers. Writing a source touches only its
// own b.d and b.o keys and b.s, a handful of pages per transaction. When the
// delta holds Params.FlushSources sources it is flushed into an immutable
// term-major segment; segments of the same size tier are merged
// Params.MergeFactor at a time (a log-structured merge, as Lucene and bleve
// do), dropping replaced versions. A source's old version in a segment is
// dead from the moment b.o stops pointing at that segment.
var (
	keyStats     = []byte("b.s")
	prefixRecord = []byte("b.d")
	prefixLoc    = []byte("b.o")
	prefixSeg    = []byte("b.g")
	prefixAll    = []byte("b.")
)

// ErrCorrupt marks an index whose stored records cannot be decoded. The
// caller should Clear the namespace and re-index from the stored KUs.
var ErrCorrupt = errors.New("bm25: corrupt index")

const formatVersion = 5

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

func (d *decoder) units() []unitInfo { return d.unitsIn("") }

// unitsIn decodes a unit table like units. When whole is the string form of
// the bytes d started from (d.B a suffix of them), the unit ids are cut
// from it instead of copied one by one: a table's ids then share one
// allocation, which keeps them together in memory and gives the garbage
// collector one object to mark instead of one per unit.
func (d *decoder) unitsIn(whole string) []unitInfo {
	n := d.Uvarint()
	if n > uint64(len(d.B)) {
		d.Bad = true
		return nil
	}
	units := make([]unitInfo, n)
	for i := range units {
		if whole != "" {
			k := d.Uvarint()
			at := len(whole) - len(d.B)
			units[i].id = whole[at : at+len(d.Bytes(k))]
		} else {
			units[i].id = string(d.Bytes(d.Uvarint()))
		}
		units[i].role = d.Byte()
		for f := range units[i].lens {
			units[i].lens[f] = uint32(d.Uvarint())
		}
	}
	return units
}

// record is the forward index of one source version.
type record struct {
	units   []unitInfo
	terms   []string // sorted
	entries [][]byte // per term: the units' entries (local, mask, frequencies)
	enc     []byte   // encode()'s result, set by analyse (records it builds are shared, read-only)
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
	d := decoder{bindec.Decoder{B: v}}
	r := &record{units: d.units()}
	n := d.Uvarint()
	if n > uint64(len(v)) {
		return nil, fmt.Errorf("%w: source record", ErrCorrupt)
	}
	r.terms = make([]string, n)
	r.entries = make([][]byte, n)
	for i := range r.terms {
		r.terms[i] = string(d.Bytes(d.Uvarint()))
		r.entries[i] = d.Bytes(d.Uvarint())
	}
	if d.Bad || len(d.B) != 0 {
		return nil, fmt.Errorf("%w: source record", ErrCorrupt)
	}
	return r, nil
}

// readRecord returns the source's forward record, or nil.
func readRecord(kv plugin.KV, src string) (*record, error) {
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
func readLoc(kv plugin.KV, src string) (uint32, error) {
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

// segPrefix is the prefix of every key of segment id.
func segPrefix(id uint32) []byte {
	return binary.BigEndian.AppendUint32(slices.Clip(prefixSeg), id)
}

func segMetaKey(id uint32) []byte { return append(segPrefix(id), 'm') }

// segBlockKey is the key of block n of segment id.
func segBlockKey(id, n uint32) []byte {
	return binary.BigEndian.AppendUint32(append(segPrefix(id), 'b'), n)
}

// segSource is one source of a segment.
type segSource struct {
	id    string
	units []unitInfo
}

// encodeMeta writes a segment's sources and the first term of each block.
func encodeMeta(srcs []segSource, blocks []string) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(srcs)))
	for _, s := range srcs {
		b = binary.AppendUvarint(b, uint64(len(s.id)))
		b = append(b, s.id...)
		b = appendUnits(b, s.units)
	}
	b = binary.AppendUvarint(b, uint64(len(blocks)))
	for _, t := range blocks {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	return b
}

// readMeta returns a segment's sources and its blocks' first terms.
func readMeta(kv plugin.KV, id uint32) ([]segSource, []string, error) {
	v := kv.Get(segMetaKey(id))
	if v == nil {
		return nil, nil, fmt.Errorf("%w: segment %d has no meta", ErrCorrupt, id)
	}
	// The ids are cut from one copy of the table (decoder.unitsIn).
	whole := string(v)
	d := decoder{bindec.Decoder{B: v}}
	n := d.Uvarint()
	if n > uint64(len(v)) {
		return nil, nil, fmt.Errorf("%w: segment %d meta", ErrCorrupt, id)
	}
	srcs := make([]segSource, n)
	for i := range srcs {
		srcs[i].id = string(d.Bytes(d.Uvarint()))
		srcs[i].units = d.unitsIn(whole)
	}
	nb := d.Uvarint()
	if nb > uint64(len(v)) {
		return nil, nil, fmt.Errorf("%w: segment %d meta", ErrCorrupt, id)
	}
	blocks := make([]string, nb)
	for i := range blocks {
		blocks[i] = string(d.Bytes(d.Uvarint()))
	}
	if d.Bad || len(d.B) != 0 {
		return nil, nil, fmt.Errorf("%w: segment %d meta", ErrCorrupt, id)
	}
	return srcs, blocks, nil
}

// Segment postings are stored in blocks of consecutive terms (about
// blockBytes each): a segment is a few hundred keys however many terms it
// has, so writing, merging and deleting one costs few B-tree operations.
// A block is: term count, then per term its length, bytes, postings length
// and postings.
var blockBytes, blockTerms = 16 << 10, 512

// blockWriter fills a segment's blocks in term order.
type blockWriter struct {
	kv    plugin.KV
	id    uint32
	first []string
	cur   []byte
	terms int
}

func (w *blockWriter) add(term string, post []byte) error {
	if w.terms == 0 {
		w.first = append(w.first, term)
	}
	w.cur = binary.AppendUvarint(w.cur, uint64(len(term)))
	w.cur = append(w.cur, term...)
	w.cur = binary.AppendUvarint(w.cur, uint64(len(post)))
	w.cur = append(w.cur, post...)
	w.terms++
	if len(w.cur) >= blockBytes || w.terms >= blockTerms {
		return w.flush()
	}
	return nil
}

func (w *blockWriter) flush() error {
	if w.terms == 0 {
		return nil
	}
	v := make([]byte, 0, len(w.cur)+binary.MaxVarintLen32)
	v = binary.AppendUvarint(v, uint64(w.terms))
	v = append(v, w.cur...)
	if err := w.kv.Put(segBlockKey(w.id, uint32(len(w.first)-1)), v); err != nil {
		return err
	}
	w.cur, w.terms = w.cur[:0], 0
	return nil
}

// blockReader walks the terms of one block.
type blockReader struct {
	d    decoder
	left uint64
}

func newBlockReader(v []byte) blockReader {
	r := blockReader{d: decoder{bindec.Decoder{B: v}}}
	r.left = r.d.Uvarint()
	return r
}

// next returns the next term and its postings; ok is false at the end or
// on a decoding error (r.d.Bad).
func (r *blockReader) next() (term, post []byte, ok bool) {
	if r.left == 0 || r.d.Bad {
		return nil, nil, false
	}
	r.left--
	term = r.d.Bytes(r.d.Uvarint())
	post = r.d.Bytes(r.d.Uvarint())
	return term, post, !r.d.Bad
}

// findBlock returns the index of the block that would hold term, or -1.
func findBlock(first []string, term string) int {
	return sort.Search(len(first), func(i int) bool { return first[i] > term }) - 1
}

// segPostings returns the postings of term in segment id (nil when absent).
func segPostings(kv plugin.KV, id uint32, first []string, term string) ([]byte, error) {
	i := findBlock(first, term)
	if i < 0 {
		return nil, nil
	}
	v := kv.Get(segBlockKey(id, uint32(i)))
	if v == nil {
		return nil, fmt.Errorf("%w: segment %d lacks block %d", ErrCorrupt, id, i)
	}
	post, ok := blockTerm(v, term)
	if !ok {
		return nil, fmt.Errorf("%w: segment %d block %d", ErrCorrupt, id, i)
	}
	return post, nil
}

// appendEntryMask is appendEntry for a mask already known: bit f is set
// exactly when tf[f] is not 0.
func appendEntryMask(b []byte, num uint64, mask uint16, tf *[NumFields]uint32) []byte {
	if num < 0x80 && mask < 0x80 {
		b = append(b, byte(num), byte(mask))
	} else {
		b = binary.AppendUvarint(b, num)
		b = binary.AppendUvarint(b, uint64(mask))
	}
	for m := mask; m != 0; m &= m - 1 {
		c := tf[bits.TrailingZeros16(m)]
		if c < 0x80 {
			b = append(b, byte(c))
		} else {
			b = binary.AppendUvarint(b, uint64(c))
		}
	}
	return b
}

// entry reads one entry; weights turn the frequencies into one weighted tf.
func (d *decoder) entry(w *[NumFields]float32) (num uint64, tf float32) {
	num = d.Uvarint()
	mask := d.Uvarint()
	for f := 0; mask != 0 && f < int(NumFields); f++ {
		if mask&(1<<f) != 0 {
			tf += w[f] * float32(d.Uvarint())
			mask &^= 1 << f
		}
	}
	if mask != 0 {
		d.Bad = true
	}
	return num, tf
}

// rawEntry reads one entry and returns its number and the bytes after it.
func (d *decoder) rawEntry() (num uint64, rest []byte) {
	num = d.Uvarint()
	start := d.B
	mask := d.Uvarint()
	for f := 0; mask != 0 && f < int(NumFields); f++ {
		if mask&(1<<f) != 0 {
			d.Uvarint()
			mask &^= 1 << f
		}
	}
	if mask != 0 {
		d.Bad = true
	}
	return num, start[:len(start)-len(d.B)]
}

// decoder reads the index records: bindec's numbers and strings, and the
// entries and unit tables of this package.
type decoder struct{ bindec.Decoder }
