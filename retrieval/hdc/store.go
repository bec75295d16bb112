package hdc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/kvns"
)

// Key layout inside the plugin's KV namespace (all keys start with "h."):
//
//	h.v<sourceID>  the source's unit vectors: a table of distinct vectors
//	               (512 bytes each; a summary and its leaf often share
//	               theirs) and, per unit, its KU id, role code, acts mask
//	               and the table indexes of its topic and content vectors
//	h.g            the index state: nonce and generation (16 bytes), bumped
//	               by every write; it guards the decoded records cached in
//	               memory (absent while no source is indexed)
//
// One key per source: re-indexing a source rewrites only that key.
var (
	prefixVectors = []byte("h.v")
	prefixAll     = []byte("h.")
)

// ErrCorrupt marks a vector record that cannot be decoded. The caller
// should Clear the namespace and re-index from the stored KUs.
var ErrCorrupt = errors.New("hdc: corrupt index")

const recordVersion = 1

// noVector is the table index of the zero vector (an empty field).
const noVector = 0

func vectorsKey(src string) []byte {
	k := make([]byte, 0, len(prefixVectors)+len(src))
	return append(append(k, prefixVectors...), src...)
}

// IndexSource encodes units and stores their vectors, replacing the
// source's previous ones (none removes the source). oldUnitIDs is accepted
// for the hook contract; the source's key is all there is to replace.
func (x *Index) IndexSource(kv plugin.KV, sourceID string, units []*kus.KU, oldUnitIDs []string) error {
	_ = oldUnitIDs
	if !kv.Writable() {
		return fmt.Errorf("hdc: index source %s: read-only transaction", sourceID)
	}
	if sourceID == "" {
		return errors.New("hdc: index source: empty source id")
	}
	k := vectorsKey(sourceID)
	x.vc.drop()
	if len(units) == 0 {
		if kv.Get(k) == nil {
			return nil
		}
		if err := kv.Delete(k); err != nil {
			return fmt.Errorf("hdc: remove source %s: %w", sourceID, err)
		}
		if err := bumpGen(kv, true); err != nil {
			return fmt.Errorf("hdc: remove source %s: %w", sourceID, err)
		}
		return nil
	}
	if err := kv.Put(k, x.encoded(units)); err != nil {
		return fmt.Errorf("hdc: index source %s: %w", sourceID, err)
	}
	if err := bumpGen(kv, false); err != nil {
		return fmt.Errorf("hdc: index source %s: %w", sourceID, err)
	}
	return nil
}

// encoded returns the stored form of units' vectors, from the cache when
// Prepare (or an earlier IndexSource) encoded them. The slice is fresh for
// every call: the KV may keep it.
func (x *Index) encoded(units []*kus.KU) []byte {
	key := unitsHash(units)
	v, ok := x.prepared.Get(key)
	if !ok {
		v = x.p.Encoder.record(units)
		x.prepared.Put(key, v)
	}
	return bytes.Clone(v)
}

// Prepare encodes a source's units ahead of IndexSource, which then only
// writes. It needs no transaction and may run on any goroutine; the result
// is kept for the last 1024 sources prepared or indexed.
func (x *Index) Prepare(units []*kus.KU) {
	if len(units) > 0 {
		key := unitsHash(units)
		if _, ok := x.prepared.Get(key); !ok {
			x.prepared.Put(key, x.p.Encoder.record(units))
		}
	}
}

var hashSeed = maphash.MakeSeed()

// unitsHash hashes everything the encoding reads from units.
func unitsHash(units []*kus.KU) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	str := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	for _, u := range units {
		if u == nil {
			continue
		}
		for _, s := range []string{u.ID, u.KUType, u.Role, u.Topic, u.Title, u.Claim, u.Procedure, u.TextBody} {
			str(s)
		}
		for _, s := range u.UtilityActs {
			str(s)
		}
		h.WriteByte(1)
		for _, s := range u.ChildUnitIDs {
			str(s)
		}
		h.WriteByte(2)
	}
	return h.Sum64()
}

// RemoveSource deletes the source's vectors.
func (x *Index) RemoveSource(kv plugin.KV, sourceID string, oldUnitIDs []string) error {
	return x.IndexSource(kv, sourceID, nil, oldUnitIDs)
}

// Clear deletes every key of the HDC index.
func Clear(kv plugin.KV) error { return kvns.Clear(kv, "hdc", prefixAll) }

// encodeUnits writes: version, table size m, m vectors, unit count, then
// per unit: id, role, acts, topic index, content index (index 0 is the
// zero vector and is not stored).
func encodeUnits(units []Unit) []byte {
	var table []*Vector
	index := func(v *Vector) uint64 {
		if *v == (Vector{}) {
			return noVector
		}
		for i, t := range table {
			if *t == *v {
				return uint64(i + 1)
			}
		}
		table = append(table, v)
		return uint64(len(table))
	}
	type ref struct{ topic, content uint64 }
	refs := make([]ref, len(units))
	for i := range units {
		refs[i] = ref{index(&units[i].Topic), index(&units[i].Content)}
	}
	b := make([]byte, 0, 8+len(table)*Words*8+len(units)*48)
	b = append(b, recordVersion)
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, v := range table {
		b = AppendBytes(b, v)
	}
	b = binary.AppendUvarint(b, uint64(len(units)))
	for i, u := range units {
		b = binary.AppendUvarint(b, uint64(len(u.ID)))
		b = append(b, u.ID...)
		b = append(b, u.Role)
		b = binary.AppendUvarint(b, uint64(u.Acts))
		b = binary.AppendUvarint(b, refs[i].topic)
		b = binary.AppendUvarint(b, refs[i].content)
	}
	return b
}

// record is a decoded vector record; vectors are decoded on demand. Ids
// alias the stored value (valid for the transaction only).
type record struct {
	table []byte // m * 512 bytes
	units []unitRef
}

type unitRef struct {
	id             []byte
	role           uint8
	acts           uint16
	topic, content uint64
}

func decodeRecord(v []byte) (*record, error) {
	bad := func() (*record, error) { return nil, fmt.Errorf("%w: vector record", ErrCorrupt) }
	if len(v) == 0 || v[0] != recordVersion {
		return bad()
	}
	v = v[1:]
	m, n := binary.Uvarint(v)
	if n <= 0 || m > uint64(len(v)-n)/(Words*8) {
		return bad()
	}
	v = v[n:]
	r := &record{table: v[:m*Words*8]}
	v = v[m*Words*8:]
	cnt, n := binary.Uvarint(v)
	if n <= 0 || cnt > uint64(len(v)) {
		return bad()
	}
	v = v[n:]
	r.units = make([]unitRef, cnt)
	next := func() (uint64, bool) {
		x, n := binary.Uvarint(v)
		if n <= 0 {
			return 0, false
		}
		v = v[n:]
		return x, true
	}
	for i := range r.units {
		l, ok := next()
		if !ok || l >= uint64(len(v)) {
			return bad()
		}
		u := &r.units[i]
		u.id = v[:l:l]
		u.role = v[l]
		v = v[l+1:]
		acts, ok1 := next()
		topic, ok2 := next()
		content, ok3 := next()
		if !ok1 || !ok2 || !ok3 || topic > m || content > m {
			return bad()
		}
		u.acts, u.topic, u.content = uint16(acts), topic, content
	}
	if len(v) != 0 {
		return bad()
	}
	return r, nil
}

// vector decodes table entry i (0 is the zero vector) into out.
func (r *record) vector(i uint64, out *Vector) {
	if i == noVector {
		*out = Vector{}
		return
	}
	FromBytes(r.table[(i-1)*Words*8:], out)
}

// unit returns the decoded Unit at position i.
func (r *record) unit(i int) Unit {
	u := Unit{ID: string(r.units[i].id), Role: r.units[i].role, Acts: r.units[i].acts}
	r.vector(r.units[i].topic, &u.Topic)
	r.vector(r.units[i].content, &u.Content)
	return u
}

// Units returns the stored vectors of a source's units (nil when the source
// is not indexed).
func (x *Index) Units(kv plugin.KV, sourceID string) ([]Unit, error) {
	v := kv.Get(vectorsKey(sourceID))
	if v == nil {
		return nil, nil
	}
	r, err := decodeRecord(v)
	if err != nil {
		return nil, fmt.Errorf("hdc: source %s: %w", sourceID, err)
	}
	out := make([]Unit, len(r.units))
	for i := range out {
		out[i] = r.unit(i)
	}
	return out, nil
}
