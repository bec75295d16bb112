package bm25

import (
	"encoding/binary"
	"slices"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/kvns"
)

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
	nextSeg  uint32   // counts down from MaxUint32; 0 is the delta
	delta    []string // sources in the delta, sorted
	segs     []segInfo
}

func (s *stats) encode() []byte {
	size := 64 + 12*len(s.segs) + 2*len(s.delta)
	for _, src := range s.delta {
		size += len(src)
	}
	b := make([]byte, 0, size+16*(int(NumFields)+4))
	b = kvns.AppendHeader(b, formatVersion, s.nonce, s.gen)
	b = binary.AppendUvarint(b, s.units)
	b = binary.AppendUvarint(b, s.sources)
	for _, l := range s.fieldLen {
		b = binary.AppendUvarint(b, l)
	}
	b = binary.AppendUvarint(b, uint64(s.nextSeg))
	b = binary.AppendUvarint(b, uint64(len(s.delta)))
	for _, src := range s.delta {
		b = binary.AppendUvarint(b, uint64(len(src)))
		b = append(b, src...)
	}
	b = binary.AppendUvarint(b, uint64(len(s.segs)))
	for _, g := range s.segs {
		b = binary.AppendUvarint(b, uint64(g.id))
		b = binary.AppendUvarint(b, uint64(g.total))
		b = binary.AppendUvarint(b, uint64(g.live))
	}
	return b
}

// readStats returns the stats, or ok=false when the index is empty.
func readStats(kv plugin.KV) (stats, bool, error) {
	return kvns.ReadStats(kv, keyStats, formatVersion, ErrCorrupt, decodeStats)
}

// decodeStats reads the stats record v after its header; ok is false when
// it does not decode.
func decodeStats(nonce, gen uint64, v []byte) (s stats, ok bool) {
	s.nonce, s.gen = nonce, gen
	d := decoder{bindec.Decoder{B: v}}
	s.units = d.Uvarint()
	s.sources = d.Uvarint()
	for f := range s.fieldLen {
		s.fieldLen[f] = d.Uvarint()
	}
	s.nextSeg = uint32(d.Uvarint())
	nd := d.Uvarint()
	if nd > uint64(len(v)) {
		return s, false
	}
	// The delta's names share one string: one allocation instead of one
	// per source (the stats are read by every write).
	s.delta = make([]string, nd)
	base := len(v) - len(d.B)
	spans := make([]int, 2*nd)
	for i := range s.delta {
		n := d.Uvarint()
		spans[2*i] = len(v) - len(d.B)
		spans[2*i+1] = len(d.Bytes(n))
	}
	if d.Bad {
		return s, false
	}
	all := string(v[base : len(v)-len(d.B)])
	for i := range s.delta {
		off := spans[2*i] - base
		s.delta[i] = all[off : off+spans[2*i+1]]
	}
	n := d.Uvarint()
	if n > uint64(len(v)) {
		return s, false
	}
	s.segs = make([]segInfo, n)
	for i := range s.segs {
		s.segs[i] = segInfo{id: uint32(d.Uvarint()), total: uint32(d.Uvarint()), live: uint32(d.Uvarint())}
	}
	return s, !d.Bad && len(d.B) == 0
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

// addDelta records src in the delta (kept sorted).
func (s *stats) addDelta(src string) {
	i, found := slices.BinarySearch(s.delta, src)
	if !found {
		s.delta = slices.Insert(s.delta, i, src)
	}
}

// removeDelta drops src from the delta.
func (s *stats) removeDelta(src string) {
	if i, found := slices.BinarySearch(s.delta, src); found {
		s.delta = slices.Delete(s.delta, i, i+1)
	}
}

func (s *stats) seg(id uint32) *segInfo {
	for i := range s.segs {
		if s.segs[i].id == id {
			return &s.segs[i]
		}
	}
	return nil
}
