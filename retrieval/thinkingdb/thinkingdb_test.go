package thinkingdb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

func TestExtract(t *testing.T) {
	type triple struct{ s, r, o string }
	tests := []struct {
		name string
		in   string
		want []triple
	}{
		{"uses", "The kb-fast plugin uses a BM25 index.", []triple{{"kb-fast plugin", "uses", "BM25 index"}}},
		{"is a", "TNF-α is a cytokine.", []triple{{"TNF-α", "instance_of", "cytokine"}}},
		{"depends on", "Ranking depends on term statistics.", []triple{{"Ranking", "depends_on", "term statistics"}}},
		{"passive cause", "Lung cancer is caused by smoking.", []triple{{"smoking", "causes", "Lung cancer"}}},
		{"part of", "The hippocampus is part of the limbic system.", []triple{{"hippocampus", "part_of", "limbic system"}}},
		{"provides", "The cache provides fast lookup.", []triple{{"cache", "provides", "fast lookup"}}},
		{"supports", "Exercise supports bone health.", []triple{{"Exercise", "supports", "bone health"}}},
		{"two sentences", "Alice uses Bob. Carl causes Dave!", []triple{{"Alice", "uses", "Bob"}, {"Carl", "causes", "Dave"}}},
		{"stopword entity dropped", "A uses B.", nil},
		{"clause boundary", "Cells that express IL-6 cause inflammation in mice.", []triple{{"express IL-6", "causes", "inflammation"}}},
		{"no cue", "Nothing to see here.", nil},
		{"cue without subject", "Uses the index.", nil},
		{"same entity", "Cells use cells.", nil},
		{"empty", "", nil},
	}
	e := Extractor{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []triple
			for _, f := range e.Sentences(tc.in) {
				got = append(got, triple{f.Subject, f.Relation.String(), f.Object})
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSymbolicFieldsWin(t *testing.T) {
	conf := 0.9
	u := &kus.KU{ID: "a::0::0", SymbolicSubject: "kb-fast", SymbolicRelation: "uses", SymbolicObject: "BM25",
		Confidence: &conf, TextBody: "Smoking causes cancer."}
	fs := (&Extractor{}).Facts(u)
	require.Len(t, fs, 1)
	assert.Equal(t, Fact{Subject: "kb-fast", Relation: Uses, Object: "BM25", SubjectKey: "kb-fast", ObjectKey: "bm25",
		Confidence: 0.9, KU: "a::0::0"}, fs[0])
	// An unknown relation falls back to extraction.
	u.SymbolicRelation = "likes"
	fs = (&Extractor{}).Facts(u)
	require.Len(t, fs, 1)
	assert.Equal(t, Causes, fs[0].Relation)
	assert.True(t, fs[0].Extracted)
}

func fact(id, s, r, o string) *kus.KU {
	return &kus.KU{ID: id, Level: kus.LevelLeaf, KUType: kus.TypeAtomic, SymbolicSubject: s, SymbolicRelation: r, SymbolicObject: o}
}

// handStore is an index with parameters p and a new store holding: a.md
// kb-fast uses BM25 index; b.md BM25 index provides fast lookup; c.md
// ranking depends_on term statistics.
func handStore(t *testing.T, p Params) (*Index, *kvtest.Mem) {
	t.Helper()
	x, kv := New(p), kvtest.New()
	require.NoError(t, x.IndexSource(kv, "a.md", []*kus.KU{fact("a.md::0::0", "kb-fast", "uses", "BM25 index")}, nil))
	require.NoError(t, x.IndexSource(kv, "b.md", []*kus.KU{fact("b.md::0::0", "BM25 index", "provides", "fast lookup")}, nil))
	require.NoError(t, x.IndexSource(kv, "c.md", []*kus.KU{fact("c.md::0::0", "ranking", "depends_on", "term statistics")}, nil))
	return x, kv
}

func TestClosureHandComputed(t *testing.T) {
	x, kv := handStore(t, DefaultParams())
	// Query terms {kb-fast, kb, fast, lookup}, each weighing 1 (total 4).
	// Seeds: b (fast, lookup: 2/4) scores 1*(0.5+0.25) = 0.75;
	//        a (kb-fast: 1/4) scores 1*(0.5+0.125) = 0.625.
	// uses+provides: 0.625*0.75*0.9/(1+0.25*1) = 0.3375, reaches the goal
	// (x1.15) and starts at a seed (x1.1): 0.4269375.
	r, err := x.Reason(kv, Query{Text: "kb-fast fast lookup"})
	require.NoError(t, err)
	assert.EqualValues(t, 3, r.Facts)
	require.Len(t, r.Seeds, 2)
	assert.Equal(t, "b.md::0::0", r.Seeds[0].KU)
	assert.Equal(t, 2, r.Considered)
	assert.Equal(t, 1, r.Derived)
	require.Len(t, r.Proofs, 3)
	assert.InDelta(t, 0.75, r.Proofs[0].Score, 1e-12)
	assert.InDelta(t, 0.625, r.Proofs[1].Score, 1e-12)
	p := r.Proofs[2]
	assert.InDelta(t, 0.4269375, p.Score, 1e-12)
	assert.Equal(t, HasCapability, p.Conclusion.Relation)
	assert.Equal(t, "kb-fast", p.Conclusion.Subject)
	assert.Equal(t, "fast lookup", p.Conclusion.Object)
	assert.Equal(t, []string{"uses+provides->has_capability"}, p.Rules)
	assert.Equal(t, []string{"a.md::0::0", "b.md::0::0"}, p.KUs())
	assert.True(t, p.FromSeed)
	assert.True(t, p.ReachesGoal)
	assert.Equal(t, 1, p.Steps)
	assert.Equal(t, "kb-fast uses BM25 index [a.md::0::0]; BM25 index provides fast lookup [b.md::0::0] => kb-fast has_capability fast lookup (uses+provides->has_capability)", p.String())

	// Nothing matches.
	r, err = x.Reason(kv, Query{Text: "unrelated words"})
	require.NoError(t, err)
	assert.Empty(t, r.Proofs)
	r, err = x.Reason(kvtest.New(), Query{Text: "kb-fast"})
	require.NoError(t, err)
	assert.Empty(t, r.Proofs)
}

// chainStore holds depends_on facts n0 -> n1 -> ... -> n9.
func chainStore(t *testing.T, x *Index) *kvtest.Mem {
	kv := kvtest.New()
	for i := 0; i < 9; i++ {
		src := fmt.Sprintf("n%d.md", i)
		require.NoError(t, x.IndexSource(kv, src, []*kus.KU{fact(src+"::0::0", fmt.Sprintf("node%d", i), "depends_on", fmt.Sprintf("node%d", i+1))}, nil))
	}
	return kv
}

func TestClosureBounds(t *testing.T) {
	tests := []struct {
		name                        string
		depth, rounds, maxDerived   int
		keep                        int
		considered, derived, proofs int
	}{
		// The seed node0->node1 reaches node4 in 3 hops: 4 facts.
		// Round 1 derives 3 two-step facts, round 2 uses them for 3 more, round 3 finds nothing new beyond node4.
		{"design bounds", 3, 3, 64, 12, 4, 6, 7},
		{"one round", 3, 1, 64, 12, 4, 3, 4},
		{"derived cap", 3, 3, 2, 12, 4, 2, 3},
		{"depth 1", 1, 3, 64, 12, 2, 1, 2},
		{"keep 2", 3, 3, 64, 2, 4, 6, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultParams()
			p.Depth, p.MaxRounds, p.MaxDerived, p.Keep = tc.depth, tc.rounds, tc.maxDerived, tc.keep
			x := New(p)
			kv := chainStore(t, x)
			r, err := x.Reason(kv, Query{Text: "node0"})
			require.NoError(t, err)
			assert.Equal(t, tc.considered, r.Considered)
			assert.Equal(t, tc.derived, r.Derived)
			assert.Len(t, r.Proofs, tc.proofs)
			for i := 1; i < len(r.Proofs); i++ {
				assert.GreaterOrEqual(t, r.Proofs[i-1].Score, r.Proofs[i].Score)
			}
		})
	}
}

func TestIncrementalAndRemoval(t *testing.T) {
	x, kv := handStore(t, DefaultParams())
	r, err := x.Reason(kv, Query{Text: "kb-fast fast lookup"})
	require.NoError(t, err)
	require.Equal(t, 1, r.Derived)

	// b.md changes: the index no longer provides fast lookup.
	require.NoError(t, x.IndexSource(kv, "b.md", []*kus.KU{fact("b.md::0::0", "BM25 index", "uses", "postings")}, nil))
	for _, idx := range []*Index{x, New(DefaultParams())} {
		r, err = idx.Reason(kv, Query{Text: "kb-fast fast lookup"})
		require.NoError(t, err)
		assert.Zero(t, r.Derived)
		assert.EqualValues(t, 3, r.Facts)
	}
	// A source without facts is recorded but adds none.
	require.NoError(t, x.IndexSource(kv, "d.md", []*kus.KU{{ID: "d.md::0::0", TextBody: "No relations here."}}, nil))
	st, _, err := readStats(kv)
	require.NoError(t, err)
	assert.EqualValues(t, 4, st.sources)
	assert.EqualValues(t, 3, st.facts)

	for _, src := range []string{"a.md", "b.md", "c.md", "d.md"} {
		require.NoError(t, x.RemoveSource(kv, src, nil))
	}
	assert.Zero(t, kv.Len(), kv.Keys())
	require.NoError(t, x.RemoveSource(kv, "zzz.md", nil))
	assert.Zero(t, kv.Len())
}

func TestCorrupt(t *testing.T) {
	x, kv := handStore(t, DefaultParams())
	require.NoError(t, kv.Put(factsKey("a.md"), []byte{5, 1}))
	_, err := New(DefaultParams()).Reason(kv, Query{Text: "kb-fast"})
	require.ErrorIs(t, err, ErrCorrupt)
	require.NoError(t, kv.Put(keyStats, []byte{9}))
	_, err = x.Reason(kv, Query{Text: "kb-fast"})
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorIs(t, x.IndexSource(kv, "e.md", nil, nil), ErrCorrupt)
	require.NoError(t, Clear(kv))
	assert.Zero(t, kv.Len())
}

func TestFuse(t *testing.T) {
	p := DefaultParams()
	p.TDBWeight, p.AgreeBonus, p.AgreeTop = 0.5, 0.1, 1
	x, kv := handStore(t, p)
	r, err := x.Reason(kv, Query{Text: "kb-fast fast lookup"})
	require.NoError(t, err)
	cands := []Candidate{
		{ID: "c.md::0::0", SourceID: "c.md", Score: 4},
		{ID: "a.md::0::0", SourceID: "a.md", Score: 2},
	}
	got := x.Fuse(cands, r, 10, true)
	require.Len(t, got, 3)
	// a: 0.5*2/4 + 0.5*(0.625/0.75) = 0.6667; b (proof only): 0.5*1 = 0.5;
	// c: 1.0 (no proof, so no agreement bonus).
	assert.Equal(t, "c.md::0::0", got[0].ID)
	assert.InDelta(t, 1.0, got[0].Score, 1e-12)
	assert.Equal(t, "a.md::0::0", got[1].ID)
	assert.InDelta(t, 0.5+0.5*0.625/0.75, got[1].Score, 1e-12)
	assert.Equal(t, "b.md::0::0", got[2].ID)
	assert.Equal(t, "b.md", got[2].SourceID)
	assert.InDelta(t, 0.5, got[2].Score, 1e-12)
	assert.Equal(t, []int{0, 2}, got[2].Proofs)
	assert.Empty(t, x.Fuse(cands, r, 0, false))
	assert.Len(t, x.Fuse(cands, nil, 5, false), 2)
}

func TestBadQueries(t *testing.T) {
	x, kv := handStore(t, DefaultParams())
	huge := strings.Repeat("kb-fast fast lookup ranking statistics index ", 2000)
	for _, q := range []string{"", "the of and", huge, "中文 текст عربى", "\xff\xfe"} {
		r, err := x.Reason(kv, Query{Text: q})
		require.NoError(t, err)
		assert.LessOrEqual(t, len(r.Proofs), x.Params().Keep)
	}
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string // words, punctuation marks as themselves
	}{
		{"IL-6 causes x_y. Done!", []string{"il-6", "causes", "x_y", ".", "done", "!"}},
		{"a- b. 1.5 e.g. it's", []string{"a", "b", ".", "1.5", "e.g", ".", "it's"}},
		{"TNF-α (NF-κB), café-au-lait;\nnext", []string{"tnf-α", "(", "nf-κb", ")", ",", "café-au-lait", ";", "\n", "next"}},
		{"x\u0301y -z ÉTÉ.Ü", []string{"x\u0301y", "z", "été.ü"}},
		{"a\xffb c'\u00e9", []string{"a", "b", "c'\u00e9"}},
		{"", nil},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			var got []string
			for _, w := range splitWords(tc.in) {
				if w.punct {
					got = append(got, w.raw)
					assert.Zero(t, w.code, "marks have no vocabulary code")
				} else {
					got = append(got, strings.ToLower(w.raw))
					assert.Equal(t, vocab[strings.ToLower(w.raw)], w.code, w.raw)
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestWarm(t *testing.T) {
	y := New(DefaultParams())
	require.NoError(t, y.Warm(kvtest.New()))
	assert.Nil(t, y.mem)

	x, kv := handStore(t, DefaultParams())
	want, err := x.Reason(kv, Query{Text: "kb-fast fast lookup"})
	require.NoError(t, err)
	require.NoError(t, y.Warm(kv))
	require.NotNil(t, y.mem, "Warm builds the fact graph")
	got, err := y.Reason(kv, Query{Text: "kb-fast fast lookup"})
	require.NoError(t, err)
	assert.Equal(t, want.Proofs, got.Proofs)

	require.NoError(t, kv.Put(factsKey("a.md"), []byte{5, 1}))
	require.ErrorIs(t, New(DefaultParams()).Warm(kv), ErrCorrupt)
	require.NoError(t, kv.Put(keyStats, []byte{9}))
	require.ErrorIs(t, y.Warm(kv), ErrCorrupt)
}
