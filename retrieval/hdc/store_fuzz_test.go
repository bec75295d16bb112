package hdc

import (
	"errors"
	"testing"
)

// FuzzDecodeRecord feeds damaged vector records to the decoder: it must
// fail with ErrCorrupt (or decode), never panic.
func FuzzDecodeRecord(f *testing.F) {
	var v Vector
	v[0], v[Words-1] = 0xdeadbeef, 1
	f.Add(encodeUnits([]Unit{{ID: "a.md::0::0", Role: 1, Acts: 3, Topic: v, Content: v}, {ID: "a.md::1::0"}}))
	f.Add([]byte{recordVersion, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := decodeRecord(b); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("decodeRecord: %v", err)
		}
	})
}
