package bm25

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/kus"
)

// TestAppendEntryFormat checks appendEntry (and the fast paths of
// appendEntryMask) against the format written out uvarint by uvarint,
// with numbers, masks and counts on both sides of one byte, and that
// decoding gives the entry back.
func TestAppendEntryFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	small := func() uint32 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return uint32(r.IntN(300))
		default:
			return uint32(1 + r.IntN(5))
		}
	}
	for range 20000 {
		var tf [NumFields]uint32
		var mask uint64
		for f := range tf {
			tf[f] = small()
			if tf[f] > 0 {
				mask |= 1 << f
			}
		}
		num := uint64(r.IntN(300))
		if r.IntN(10) == 0 {
			num = r.Uint64() >> r.IntN(64)
		}
		want := binary.AppendUvarint([]byte{9}, num)
		want = binary.AppendUvarint(want, mask)
		for _, c := range tf {
			if c > 0 {
				want = binary.AppendUvarint(want, uint64(c))
			}
		}
		got := appendEntry([]byte{9}, num, &tf)
		if !bytes.Equal(got, want) {
			t.Fatalf("appendEntry(%d, %v) = %x, want %x", num, tf, got, want)
		}
		d := decoder{bindec.Decoder{B: got[1:]}}
		var w [NumFields]float32
		for f := range w {
			w[f] = float32(int(1) << f)
		}
		n, wtf := d.entry(&w)
		var wantTF float32
		for f, c := range tf {
			wantTF += w[f] * float32(c)
		}
		if d.Bad || len(d.B) != 0 || n != num || wtf != wantTF {
			t.Fatalf("decode %x: num %d tf %v err %v rest %d; want %d %v", got, n, wtf, d.Bad, len(d.B), num, wantTF)
		}
	}
}

// TestBuildRecordKeyCollision gives buildRecord units whose cache keys are
// equal (same IDs and lengths) but whose texts differ: the
// second must not get the first one's record.
func TestBuildRecordKeyCollision(t *testing.T) {
	x := New(DefaultParams())
	mk := func(body string) []*kus.KU {
		return []*kus.KU{nil, {ID: "collide::0::0", Title: "T", Topic: "T", TextBody: body}}
	}
	a := mk("the same lengths, then alpha")
	b := mk("the same lengths, then gamma")
	require.Equal(t, unitsKey(a), unitsKey(b))
	pa := x.buildRecord(a)
	assert.Same(t, pa, x.buildRecord(a), "cached")
	assert.Same(t, pa, x.buildRecord(mk(strings.Clone(a[1].TextBody))), "cached for equal texts")
	pb := x.buildRecord(b)
	assert.NotSame(t, pa, pb)
	assert.Contains(t, pb.rec.terms, "gamma")
	assert.NotContains(t, pb.rec.terms, "alpha")
	assert.Same(t, pb, x.buildRecord(b))
	// A unit more or less is another source.
	assert.NotSame(t, pb, x.buildRecord(append(b, b[1])))
}

// appendEntry appends one unit's entry: its number (local index in a record,
// gap to the previous document in a segment), the field mask and the
// frequency in each field of the mask.
func appendEntry(b []byte, num uint64, tf *[NumFields]uint32) []byte {
	var mask uint16
	for f, c := range tf {
		if c > 0 {
			mask |= 1 << f
		}
	}
	return appendEntryMask(b, num, mask, tf)
}
