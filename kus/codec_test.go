package kus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/scifact"
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

// sharedDocs are documents whose units repeat text: the SciFact corpus
// when present, the golden files, and generated ones with Context Units,
// duplicate ids and sections that open with the same paragraph.
func sharedDocs(t *testing.T) []*Document {
	at := time.Date(2026, 11, 23, 9, 30, 1, 0, time.UTC)
	var srcs [][]byte
	var ids []string
	if _, err := os.Stat(scifact.CorpusPath()); err == nil {
		for i, d := range loadSciFactMarkdown(t) {
			srcs, ids = append(srcs, d), append(ids, fmt.Sprint("sf/", i, ".md"))
		}
	}
	files, err := filepath.Glob("testdata/golden/*.md")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		srcs, ids = append(srcs, b), append(ids, "docs/"+filepath.Base(f))
	}
	para := "The same opening paragraph is long enough to be shared between the summary, the section and the leaf. " +
		"It goes on for a while so that truncation applies. " + strings.Repeat("More words follow here. ", 60)
	srcs = append(srcs,
		[]byte("# Title that repeats\n\n"+para+"\n\n## Title that repeats\n\n"+para+"\n\n## Context Unit a.md::0::0\n\nclaim: "+para[:80]+"\n"),
		[]byte("# One\n\n"+para+"\n\n## Context Unit dup\n\nclaim: "+para[:90]+"\n\n## Context Unit dup\n\nclaim: "+para[:95]+"\n"),
		[]byte("no heading at all, only a paragraph that is quite long "+para))
	ids = append(ids, "a.md", "b.md", "c.md")
	var docs []*Document
	for i, src := range srcs {
		doc, err := Parse(src, SourceInfo{SourceID: ids[i], SourceName: filepath.Base(ids[i]), IngestedAt: at})
		require.NoError(t, err)
		docs = append(docs, doc)
	}
	return docs
}

// TestEncodeUnitsRoundTrip stores each document's units the way the
// knowledge base does (the last of a repeated id wins) and reads every
// stored unit back: each equals what the JSON form gives. Sharing must
// also make the stored form smaller than version 1.
func TestEncodeUnitsRoundTrip(t *testing.T) {
	var v1, v2 int
	for _, doc := range sharedDocs(t) {
		enc := EncodeUnits(doc.Units)
		require.Len(t, enc, len(doc.Units))
		store := map[string][]byte{}
		want := map[string]*KU{}
		for i, u := range doc.Units {
			store[u.ID] = enc[i]
			want[u.ID] = u
			v1 += len(u.appendV1(nil))
			v2 += len(enc[i])
		}
		get := func(id string) []byte { return store[id] }
		for id, v := range store {
			var got KU
			require.NoError(t, got.UnmarshalBinaryFrom(v, get), id)
			w := viaJSON(t, want[id])
			assert.True(t, w.IngestedAt.Equal(got.IngestedAt))
			w.IngestedAt, got.IngestedAt = time.Time{}, time.Time{}
			require.Equal(t, w, &got, id)
			// Without a way to read other KUs, only self-contained forms decode.
			var alone KU
			if err := alone.UnmarshalBinary(v); err != nil {
				require.ErrorIs(t, err, ErrUnresolved, id)
			}
		}
	}
	t.Logf("version 1: %d bytes, version 2: %d bytes (%.0f%%)", v1, v2, 100*float64(v2)/float64(v1))
	assert.Less(t, v2, v1*3/4, "shared text makes the stored KUs smaller")
}

// TestEncodeUnitsDetectsAReplacedSource reads a unit whose text lives in a
// unit since replaced by one of another source, or deleted: an error, not
// wrong text.
func TestEncodeUnitsDetectsAReplacedSource(t *testing.T) {
	docs := sharedDocs(t)
	doc := docs[len(docs)-3] // a.md
	enc := EncodeUnits(doc.Units)
	store := map[string][]byte{}
	for i, u := range doc.Units {
		store[u.ID] = enc[i]
	}
	failures := 0
	for ci, copier := range doc.Units {
		var alone KU
		if !errors.Is(alone.UnmarshalBinary(enc[ci]), ErrUnresolved) {
			continue // self-contained
		}
		want := viaJSON(t, copier)
		for id := range store {
			if id == copier.ID {
				continue
			}
			other := *doc.Units[0]
			other.SourceID = "elsewhere.md"
			saved := store[id]
			for _, replaced := range [][]byte{EncodeUnits([]*KU{&other})[0], nil} {
				store[id] = replaced
				var got KU
				err := got.UnmarshalBinaryFrom(store[copier.ID], func(id string) []byte { return store[id] })
				if err != nil {
					require.ErrorIs(t, err, ErrBadEncoding)
					failures++
					continue
				}
				got.IngestedAt = want.IngestedAt
				require.Equal(t, want, &got, "%s read with %s replaced", copier.ID, id)
			}
			store[id] = saved
		}
	}
	assert.Positive(t, failures, "a replaced or missing source of copied text is detected")
}

// TestSharedFormIsCompact checks one SciFact-like document: the summary and
// the section keep no copy of the leaf's opening.
func TestSharedFormIsCompact(t *testing.T) {
	text := strings.Repeat("Evidence sentence with enough words to matter. ", 40)
	doc, err := Parse([]byte("# A title of some length\n\n"+text+"\n"), SourceInfo{SourceID: "x.md"})
	require.NoError(t, err)
	require.Len(t, doc.Units, 3)
	enc := EncodeUnits(doc.Units)
	j, _ := json.Marshal(doc.Units)
	total := 0
	for _, v := range enc {
		total += len(v)
	}
	assert.Less(t, total, len(text)+900, "%d bytes stored for %d bytes of text (JSON %d)", total, len(text), len(j))
}

// appendV1 is the version 1 form, for comparing sizes.
func (k *KU) appendV1(b []byte) []byte {
	w := recordWriter{b: b}
	w.b = append(w.b, codecVersion)
	for _, s := range []string{k.ID, k.KUType, k.Level, k.Title, k.Role, k.Topic, k.Claim, k.Procedure, k.Condition, k.TextBody} {
		w.str(s)
	}
	w.list(k.Tags)
	w.str(k.SymbolicSubject)
	w.str(k.SymbolicRelation)
	w.str(k.SymbolicObject)
	w.b = append(w.b, 0)
	w.list(k.ParentUnitIDs)
	w.list(k.ChildUnitIDs)
	w.list(k.DerivedFromUnitIDs)
	for _, s := range []string{k.SourceID, k.SourceName, k.SourceType, k.ChunkID} {
		w.str(s)
	}
	for _, n := range []int{k.ChunkIndex, k.UnitIndex, k.CharStart, k.CharEnd} {
		w.num(n)
	}
	t, _ := k.IngestedAt.MarshalBinary()
	w.b = append(w.b, byte(len(t)))
	w.b = append(w.b, t...)
	for _, n := range []int{k.Range.StartLine, k.Range.StartCol, k.Range.EndLine, k.Range.EndCol} {
		w.num(n)
	}
	w.list(k.UtilityActs)
	w.list(k.PhaseScopes)
	w.str(k.UtilityNote)
	w.str(k.Hash)
	return w.b
}

// FuzzUnmarshalBinaryFrom decodes arbitrary bytes against a store holding
// a document's shared forms: errors, never panics, and what decodes
// encodes back to the same KU.
func FuzzUnmarshalBinaryFrom(f *testing.F) {
	para := strings.Repeat("A sentence that the summary, the section and the leaf all start with. ", 20)
	doc, err := Parse([]byte("# Heading\n\n"+para+"\n"), SourceInfo{SourceID: "f.md"})
	if err != nil {
		f.Fatal(err)
	}
	enc := EncodeUnits(doc.Units)
	store := map[string][]byte{}
	for i, u := range doc.Units {
		store[u.ID] = enc[i]
		f.Add(enc[i])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var k KU
		if err := k.UnmarshalBinaryFrom(data, func(id string) []byte { return store[id] }); err != nil {
			return
		}
		requireReencodes(t, k)
	})
}

// BenchmarkEncodeUnits measures the stored form of the SciFact corpus's KUs.
func BenchmarkEncodeUnits(b *testing.B) {
	var docs []*Document
	for i, d := range loadSciFactMarkdown(b) {
		doc, err := Parse(d, SourceInfo{SourceID: fmt.Sprint("doc-", i, ".md"), IngestedAt: time.Now()})
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, doc)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range docs {
			EncodeUnits(d.Units)
		}
	}
}
