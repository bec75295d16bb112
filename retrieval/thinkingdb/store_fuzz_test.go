package thinkingdb

import (
	"errors"
	"testing"
)

// FuzzDecodeFacts feeds damaged fact records to the decoder: it must fail
// with ErrCorrupt (or decode), never panic.
func FuzzDecodeFacts(f *testing.F) {
	f.Add(encodeFacts([]Fact{{Subject: "The Moon", Relation: 1, Object: "tides", SubjectKey: "moon", ObjectKey: "tide", Confidence: 0.5, KU: "a.md::0::0", Extracted: true}}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := decodeFacts("a.md", b); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("decodeFacts: %v", err)
		}
	})
}
