package bm25

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
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
		d := decoder{b: got[1:]}
		var w [NumFields]float32
		for f := range w {
			w[f] = float32(int(1) << f)
		}
		n, wtf := d.entry(&w)
		var wantTF float32
		for f, c := range tf {
			wantTF += w[f] * float32(c)
		}
		if d.err || len(d.b) != 0 || n != num || wtf != wantTF {
			t.Fatalf("decode %x: num %d tf %v err %v rest %d; want %d %v", got, n, wtf, d.err, len(d.b), num, wantTF)
		}
	}
}
