package bm25

import (
	"errors"
	"testing"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// FuzzDecoders feeds damaged bytes to every decoder of stored index
// values: each must fail with ErrCorrupt (or decode), never panic.
func FuzzDecoders(f *testing.F) {
	r := &record{units: []unitInfo{{id: "a.md::0::0", role: 2}, {id: "a.md::1::0"}},
		terms: []string{"moon", "tide"}, entries: [][]byte{appendEntry(nil, 0, &[NumFields]uint32{1}), appendEntry(nil, 1, &[NumFields]uint32{0, 2})}}
	f.Add(r.encode())
	f.Add(encodeMeta([]segSource{{id: "a.md", units: r.units}}, []string{"moon"}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, v []byte) {
		if _, err := decodeRecord(v); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("decodeRecord: %v", err)
		}
		kv := kvtest.New()
		_ = kv.Put(segMetaKey(1), v)
		if _, _, err := readMeta(kv, 1); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("readMeta: %v", err)
		}
		br := newBlockReader(v)
		for n := 0; n < 1<<16; n++ {
			if _, _, ok := br.next(); !ok {
				break
			}
		}
		d := decoder{bindec.Decoder{B: v}}
		w := [NumFields]float32{1, 1, 1}
		for !d.Bad && len(d.B) > 0 {
			d.entry(&w)
		}
		d = decoder{bindec.Decoder{B: v}}
		for !d.Bad && len(d.B) > 0 {
			d.rawEntry()
		}
	})
}
