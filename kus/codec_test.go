package kus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// full is a KU with every field set.
func full() *KU {
	c := 0.75
	return &KU{
		ID: "docs/a.md::0::1", KUType: TypeAtomic, Level: LevelLeaf, Title: "Título", Role: "Definition",
		Topic: "Topic", Claim: "A claim.", Procedure: "1. step", Condition: "if x", TextBody: "Body \"quoted\" <b>\n\ttab",
		Tags: []string{"a", "b"}, SymbolicSubject: "s", SymbolicRelation: "uses", SymbolicObject: "o", Confidence: &c,
		ParentUnitIDs: []string{"p"}, ChildUnitIDs: []string{"c1", "c2"}, DerivedFromUnitIDs: []string{"d"},
		SourceID: "docs/a.md", SourceName: "a.md", SourceType: SourceMarkdown, ChunkID: "docs/a.md::0",
		ChunkIndex: 3, UnitIndex: -1, CharStart: 10, CharEnd: 1 << 40,
		IngestedAt:  time.Date(2026, 11, 23, 9, 30, 1, 123456789, time.FixedZone("", 3600)),
		Range:       Range{StartLine: 1, StartCol: 2, EndLine: 3, EndCol: 4},
		UtilityActs: []string{"define"}, PhaseScopes: []string{"kb-plugin"}, UtilityNote: "note", Hash: "abc",
	}
}

// viaJSON is what the JSON form gives back for k.
func viaJSON(t *testing.T, k *KU) *KU {
	t.Helper()
	v, err := json.Marshal(k)
	require.NoError(t, err)
	var out KU
	require.NoError(t, json.Unmarshal(v, &out))
	return &out
}

func TestBinaryRoundTripEqualsJSON(t *testing.T) {
	tests := []struct {
		name string
		ku   *KU
	}{
		{"every field", full()},
		{"empty", &KU{}},
		{"utc time, empty lists", &KU{ID: "x", IngestedAt: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Tags: []string{}}},
		{"zero confidence", &KU{ID: "y", Confidence: new(float64)}},
	}
	files, err := filepath.Glob("testdata/golden/*.md")
	require.NoError(t, err)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		doc, err := Parse(src, SourceInfo{SourceID: "docs/" + filepath.Base(f), SourceName: filepath.Base(f), IngestedAt: time.Now()})
		require.NoError(t, err)
		for _, u := range doc.Units {
			tests = append(tests, struct {
				name string
				ku   *KU
			}{u.ID, u})
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.ku.MarshalBinary()
			require.NoError(t, err)
			var got KU
			require.NoError(t, got.UnmarshalBinary(v))
			want := viaJSON(t, tc.ku)
			assert.True(t, want.IngestedAt.Equal(got.IngestedAt), "%v vs %v", want.IngestedAt, got.IngestedAt)
			_, wantOff := want.IngestedAt.Zone()
			_, gotOff := got.IngestedAt.Zone()
			assert.Equal(t, wantOff, gotOff)
			want.IngestedAt, got.IngestedAt = time.Time{}, time.Time{}
			assert.Equal(t, want, &got)
			j, err := json.Marshal(tc.ku)
			require.NoError(t, err)
			assert.Less(t, len(v), len(j), "the binary form is smaller")
		})
	}
}

func TestUnmarshalBinaryReadsJSONAndRejectsGarbage(t *testing.T) {
	j, err := json.Marshal(full())
	require.NoError(t, err)
	var got KU
	require.NoError(t, got.UnmarshalBinary(j))
	assert.Equal(t, "docs/a.md::0::1", got.ID)

	v, err := full().MarshalBinary()
	require.NoError(t, err)
	for _, bad := range [][]byte{nil, {}, {9}, {'{'}, v[:len(v)-1], append(append([]byte(nil), v...), 0), v[:1], v[:5]} {
		var k KU
		assert.ErrorIs(t, k.UnmarshalBinary(bad), ErrBadEncoding, "%x", bad)
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	v, _ := full().MarshalBinary()
	f.Add(v)
	e, _ := (&KU{ID: "x"}).MarshalBinary()
	f.Add(e)
	f.Add([]byte(`{"id":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var k KU
		if err := k.UnmarshalBinary(data); err != nil {
			return
		}
		// What decodes encodes back to the same KU.
		requireReencodes(t, k)
	})
}

// requireReencodes requires that k, encoded and decoded again, is k except
// for IngestedAt (a decoded time may differ in location or monotonic reading).
func requireReencodes(t *testing.T, k KU) {
	t.Helper()
	w, err := k.MarshalBinary()
	require.NoError(t, err)
	var again KU
	require.NoError(t, again.UnmarshalBinary(w))
	k.IngestedAt, again.IngestedAt = time.Time{}, time.Time{}
	assert.Equal(t, k, again)
}
