package hdc

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

func randomVector(r *rand.Rand) Vector {
	var v Vector
	for i := range v {
		v[i] = r.Uint64()
	}
	return v
}

// naiveMajority counts every bit one by one.
func naiveMajority(vs []Vector, weights []int, tie *Vector) Vector {
	var out Vector
	total := 0
	for _, w := range weights {
		total += w
	}
	for bit := 0; bit < Bits; bit++ {
		w, o := bit/64, uint(bit%64)
		c := 0
		for i, v := range vs {
			if v[w]>>o&1 == 1 {
				c += weights[i]
			}
		}
		set := 2*c > total || 2*c == total && tie != nil && tie[w]>>o&1 == 1
		if set {
			out[w] |= 1 << o
		}
	}
	return out
}

func TestMajorityMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name    string
		weights []int
	}{
		{"one", []int{1}},
		{"two (ties)", []int{1, 1}},
		{"three", []int{1, 1, 1}},
		{"four (ties)", []int{1, 1, 1, 1}},
		{"seventeen", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"weighted", []int{3, 1, 1}},
		{"weighted ties", []int{2, 1, 1}},
		{"heavy", []int{7, 5, 2, 9, 1}},
		{"one heavy", []int{12}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := make([]Vector, len(tc.weights))
			var b Bundle
			for i := range vs {
				vs[i] = randomVector(r)
				b.AddWeighted(&vs[i], tc.weights[i])
			}
			tie := randomVector(r)
			assert.Equal(t, naiveMajority(vs, tc.weights, &tie), b.Majority(&tie))
			assert.Equal(t, naiveMajority(vs, tc.weights, nil), b.Majority(nil))
		})
	}
}

func TestAddWeightedEqualsRepeatedAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	var a, b Bundle
	for i := 0; i < 20; i++ {
		v := randomVector(r)
		w := 1 + r.IntN(9)
		a.AddWeighted(&v, w)
		for j := 0; j < w; j++ {
			b.Add(&v)
		}
	}
	assert.Equal(t, b.Len(), a.Len())
	assert.Equal(t, b.Majority(&tieVector), a.Majority(&tieVector))
}

func TestSymbolsAreDeterministicAndIndependent(t *testing.T) {
	a, b := Symbol("cell"), Symbol("cell")
	assert.Equal(t, a, b)
	// Golden: the first word is fixed across runs and machines.
	assert.Equal(t, uint64(0x9bd039eddb166044), a[0])
	assert.Equal(t, uint64(0xc0e1370b37b72c16), a[Words-1])
	c := Symbol("protein")
	sim := Similarity(&a, &c)
	assert.InDelta(t, 0.5, sim, 0.04, "unrelated symbols")
	ones := 0
	for _, w := range a {
		ones += bits.OnesCount64(w)
	}
	assert.InDelta(t, Bits/2, ones, 200, "balanced bits")
}

func TestBindRotateSimilarity(t *testing.T) {
	a, b := Symbol("a"), Symbol("b")
	ab := Bind(&a, &b)
	back := Bind(&ab, &b)
	assert.Equal(t, a, back, "XOR binding is its own inverse")
	assert.InDelta(t, 0.5, Similarity(&ab, &a), 0.04)
	assert.Equal(t, 1.0, Similarity(&a, &a))
	var z, ones Vector
	for i := range ones {
		ones[i] = ^uint64(0)
	}
	assert.Equal(t, 0.0, Similarity(&z, &ones))
	assert.Equal(t, Bits, Hamming(&z, &ones))
	r := Rotate(&a, 3)
	assert.Equal(t, a[0], r[3])
	assert.Equal(t, a, Rotate(&r, -3))
	assert.Equal(t, a, Rotate(&a, Words))
	assert.Equal(t, 0.0, Score(0.4))
	assert.InDelta(t, 0.2, Score(0.6), 1e-12)

	var buf []byte
	buf = AppendBytes(buf, &a)
	require.Len(t, buf, Words*8)
	var d Vector
	FromBytes(buf, &d)
	assert.Equal(t, a, d)
}

func TestBundleIsSimilarToMembers(t *testing.T) {
	var b Bundle
	members := make([]Vector, 7)
	for i := range members {
		members[i] = Symbol(fmt.Sprint("m", i))
		b.Add(&members[i])
	}
	m := b.Majority(&tieVector)
	other := Symbol("outsider")
	for i := range members {
		assert.Greater(t, Similarity(&m, &members[i]), 0.6, "member %d", i)
	}
	assert.InDelta(t, 0.5, Similarity(&m, &other), 0.04)
	var empty Bundle
	assert.Equal(t, Vector{}, empty.Majority(&tieVector))
}

func TestEncoderText(t *testing.T) {
	e := Encoder{Pairs: true, Positions: true}
	a := e.Text("microglia activation in the brain")
	b := e.Text("Microglia activation in the brain!")
	c := e.Text("stock market prices fell sharply")
	assert.Equal(t, a, b, "same terms, same vector")
	d := e.Text("activation of microglia in brain tissue")
	assert.Greater(t, Similarity(&a, &d), Similarity(&a, &c), "overlap is closer than no overlap")
	assert.Equal(t, Vector{}, e.Text(""))
	assert.Equal(t, Vector{}, e.Text("the of and"))
}

func sourceUnits(src string, texts ...string) []*kus.KU {
	sum := &kus.KU{ID: src + "::source-summary", KUType: kus.TypeAggregate, Level: kus.LevelSummary,
		Topic: "Summary of " + src, TextBody: "summary text that differs", Role: "Description"}
	var out []*kus.KU
	for i, tx := range texts {
		id := fmt.Sprintf("%s::0::%d", src, i)
		sum.ChildUnitIDs = append(sum.ChildUnitIDs, id)
		out = append(out, &kus.KU{ID: id, KUType: kus.TypeComposite, Level: kus.LevelLeaf, Topic: "Topic " + src,
			TextBody: tx, Role: "Explanation", UtilityActs: []string{"explain"}})
	}
	return append([]*kus.KU{sum}, out...)
}

func TestIndexStoreAndAggregates(t *testing.T) {
	x := New(DefaultParams())
	kv := kvtest.New()
	units := sourceUnits("a.md", "microglia activation in the brain", "microglia activation in the brain")
	require.NoError(t, x.IndexSource(kv, "a.md", units, nil))
	got, err := x.Units(kv, "a.md")
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "a.md::source-summary", got[0].ID)
	// The summary's content is the bundle of its children's, not its own text.
	assert.Equal(t, got[1].Content, got[0].Content, "majority of two equal vectors")
	assert.NotEqual(t, x.p.Encoder.Text("summary text that differs"), got[0].Content)
	assert.Equal(t, uint8(2), got[1].Role) // Explanation
	assert.Equal(t, uint16(1<<1), got[1].Acts)
	// Identical vectors are stored once: table of 3 (summary topic, leaf topic, content).
	rec, err := decodeRecord(kv.Get(vectorsKey("a.md")))
	require.NoError(t, err)
	assert.Len(t, rec.table, 3*Words*8)

	require.NoError(t, x.RemoveSource(kv, "a.md", nil))
	assert.Zero(t, kv.Len())
	got, err = x.Units(kv, "a.md")
	require.NoError(t, err)
	assert.Nil(t, got)

	require.NoError(t, kv.Put(vectorsKey("b.md"), []byte{1, 200}))
	_, err = x.Units(kv, "b.md")
	require.ErrorIs(t, err, ErrCorrupt)
	require.NoError(t, Clear(kv))
	assert.Zero(t, kv.Len())
}

func TestRerank(t *testing.T) {
	p := DefaultParams()
	p.MMRLambda, p.HDCWeight, p.AgreeBonus = 1, 1, 0
	x := New(p)
	kv := kvtest.New()
	require.NoError(t, x.IndexSource(kv, "a.md", sourceUnits("a.md", "microglia activation drives neuroinflammation in the brain"), nil))
	require.NoError(t, x.IndexSource(kv, "b.md", sourceUnits("b.md", "stock market prices fell sharply on monday"), nil))
	cands := []Candidate{
		{ID: "b.md::0::0", SourceID: "b.md", Score: 2.0},
		{ID: "a.md::0::0", SourceID: "a.md", Score: 1.9},
		{ID: "a.md::source-summary", SourceID: "a.md", Score: 1.0},
		{ID: "missing::0::0", SourceID: "missing", Score: 0.5},
	}
	q := Query{Text: "microglia activation neuroinflammation", K: 10}
	got, err := x.Rerank(kv, q, cands)
	require.NoError(t, err)
	require.Len(t, got, 4)
	assert.Equal(t, "a.md::0::0", got[0].ID, "HDC similarity lifts the matching unit: %+v", got)
	assert.Equal(t, "b.md::0::0", got[1].ID)
	assert.Greater(t, got[0].HDC, got[1].HDC)
	// Fused score: 1.0 * BM25/max + 1.0 * HDC.
	assert.InDelta(t, 1.9/2.0+got[0].HDC, got[0].Score, 1e-12)
	assert.Zero(t, got[3].HDC, "a candidate without vectors keeps HDC 0")

	q.OnePerSource = true
	got, err = x.Rerank(kv, q, cands)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.md", "b.md", "missing"}, sources(got))

	q.K = 1
	got, err = x.Rerank(kv, q, cands)
	require.NoError(t, err)
	assert.Len(t, got, 1)

	got, err = x.Rerank(kv, Query{Text: "", K: 3}, cands)
	require.NoError(t, err)
	assert.Equal(t, "b.md::0::0", got[0].ID, "no query terms: first-stage order")
	got, err = x.Rerank(kv, q, nil)
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestMMRDemotesNearDuplicates(t *testing.T) {
	p := DefaultParams()
	p.MMRLambda, p.HDCWeight, p.AgreeBonus = 0.5, 0, 0
	x := New(p)
	kv := kvtest.New()
	dup := "microglia activation drives neuroinflammation in the brain"
	require.NoError(t, x.IndexSource(kv, "a.md", sourceUnits("a.md", dup), nil))
	require.NoError(t, x.IndexSource(kv, "b.md", sourceUnits("b.md", dup), nil))
	require.NoError(t, x.IndexSource(kv, "c.md", sourceUnits("c.md", "astrocytes regulate synapse formation"), nil))
	cands := []Candidate{
		{ID: "a.md::0::0", SourceID: "a.md", Score: 1.0},
		{ID: "b.md::0::0", SourceID: "b.md", Score: 0.95},
		{ID: "c.md::0::0", SourceID: "c.md", Score: 0.9},
	}
	got, err := x.Rerank(kv, Query{Text: "microglia", K: 3}, cands)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.md", "c.md", "b.md"}, sources(got))
}

func sources(rs []Ranked) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.SourceID
	}
	return out
}

func BenchmarkBundleAdd(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	vs := make([]Vector, 256)
	for i := range vs {
		vs[i] = randomVector(r)
	}
	var bu Bundle
	b.SetBytes(Words * 8)
	for i := 0; b.Loop(); i++ {
		if i%256 == 0 {
			bu.Reset()
		}
		bu.Add(&vs[i%256])
	}
}

func BenchmarkEncodeText(b *testing.B) {
	e := Encoder{Pairs: true, Positions: true}
	s := "Alterations of the architecture of cerebral white matter in the developing human brain can affect cortical development and result in functional disabilities. A line scan diffusion-weighted magnetic resonance imaging (MRI) sequence with diffusion tensor analysis was applied to measure the apparent diffusion coefficient."
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		e.Text(s)
	}
}

func TestAddXorEqualsBindRotate(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, k := range []int{0, 1, 5, -1, Words + 2} {
		var a, b Bundle
		for i := 0; i < 11; i++ {
			x, y := randomVector(r), randomVector(r)
			a.AddXor(&x, &y, k)
			ry := Rotate(&y, k)
			v := Bind(&x, &ry)
			b.Add(&v)
		}
		assert.Equal(t, b.Majority(&tieVector), a.Majority(&tieVector), "k=%d", k)
	}
}

func TestRerankBadQueries(t *testing.T) {
	x := New(DefaultParams())
	kv := kvtest.New()
	require.NoError(t, x.IndexSource(kv, "a.md", sourceUnits("a.md", "microglia activation"), nil))
	cands := []Candidate{{ID: "a.md::0::0", SourceID: "a.md", Score: 1}}
	huge := strings.Repeat("microglia activation brain cells ", 3000)
	for _, q := range []string{"", "the of and", huge, "中文 текст عربى", "\xff\xfe"} {
		got, err := x.Rerank(kv, Query{Text: q, K: 5}, cands)
		require.NoError(t, err)
		assert.Len(t, got, 1)
	}
}

// TestRerankCacheFollowsWrites reranks through the decoded-record cache
// while another index (as another process would) rewrites a source: the
// stored generation makes the cache drop the stale record.
func TestRerankCacheFollowsWrites(t *testing.T) {
	p := DefaultParams()
	p.MMRLambda, p.HDCWeight, p.AgreeBonus = 1, 1, 0
	reader, writer := New(p), New(p)
	kv := kvtest.New()
	require.NoError(t, writer.IndexSource(kv, "a.md", sourceUnits("a.md", "stock market prices fell sharply"), nil))
	require.NoError(t, writer.IndexSource(kv, "b.md", sourceUnits("b.md", "interest rates rose again"), nil))
	cands := []Candidate{{ID: "a.md::0::0", SourceID: "a.md", Score: 1}, {ID: "b.md::0::0", SourceID: "b.md", Score: 1}}
	q := Query{Text: "microglia activation neuroinflammation", K: 2}

	before, err := reader.Rerank(kv, q, cands)
	require.NoError(t, err)
	again, err := reader.Rerank(kv, q, cands)
	require.NoError(t, err)
	assert.Equal(t, before, again, "served from the cache")
	st := readGen(kv)
	require.True(t, st.ok)
	reader.vc.mu.Lock()
	assert.Len(t, reader.vc.m, 2)
	reader.vc.mu.Unlock()

	require.NoError(t, writer.IndexSource(kv, "a.md", sourceUnits("a.md", "microglia activation drives neuroinflammation"), nil))
	assert.Equal(t, st.gen+1, readGen(kv).gen)
	after, err := reader.Rerank(kv, q, cands)
	require.NoError(t, err)
	require.Len(t, after, 2)
	assert.Equal(t, "a.md::0::0", after[0].ID)
	assert.Greater(t, after[0].HDC, before[0].HDC+0.01, "the new vectors are read, not the cached ones")

	// Removing every source removes the state key too.
	require.NoError(t, writer.RemoveSource(kv, "a.md", nil))
	require.NoError(t, writer.RemoveSource(kv, "b.md", nil))
	require.NoError(t, writer.RemoveSource(kv, "b.md", nil), "removing an absent source is a no-op")
	assert.Zero(t, kv.Len())
}

// TestTopIndexesIsTheHeadOfAStableSort checks the agreement ranks against
// a stable sort on scores with many ties.
func TestTopIndexesIsTheHeadOfAStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := rng.IntN(40)
		scores := make([]float64, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(5)) / 4 // ties
		}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
		for _, k := range []int{0, 1, 3, 10, n} {
			want := order[:min(k, n)]
			got := topIndexes(n, k, func(i int) float64 { return scores[i] })
			if len(want) == 0 {
				assert.Empty(t, got)
				continue
			}
			assert.Equal(t, want, got, "trial %d, k %d, scores %v", trial, k, scores)
		}
	}
}

// TestRerankInPlaceMatchesCached ranks the same candidates with every
// record cached (copied out) and with none cached (read in place, as ten
// copies of SciFact are past the cache's bound): scores, order and the MMR
// head must not differ.
func TestRerankInPlaceMatchesCached(t *testing.T) {
	p := DefaultParams()
	p.MMRLambda = 0.6
	texts := []string{
		"microglia activation drives neuroinflammation in the brain",
		"microglia activation drives neuroinflammation in the brain",
		"astrocytes regulate synapse formation and microglia",
		"interest rates rose again as inflation stayed high",
		"neuroinflammation and microglia in ageing mice",
	}
	kv := kvtest.New()
	writer := New(p)
	var cands []Candidate
	for i, s := range texts {
		src := fmt.Sprintf("s%d.md", i)
		require.NoError(t, writer.IndexSource(kv, src, sourceUnits(src, s), nil))
		cands = append(cands, Candidate{ID: src + "::0::0", SourceID: src, Score: 1 - 0.05*float64(i)})
	}
	q := Query{Text: "microglia neuroinflammation", K: 4}

	cached := New(p)
	want, err := cached.Rerank(kv, q, cands)
	require.NoError(t, err)
	cached.vc.mu.Lock()
	assert.Len(t, cached.vc.m, len(texts), "every record is cached")
	cached.vc.mu.Unlock()

	defer func(old int) { maxCachedVectors = old }(maxCachedVectors)
	maxCachedVectors = 0
	inPlace := New(p)
	got, err := inPlace.Rerank(kv, q, cands)
	require.NoError(t, err)
	inPlace.vc.mu.Lock()
	assert.Empty(t, inPlace.vc.m, "no record is cached")
	inPlace.vc.mu.Unlock()
	assert.Equal(t, want, got)
	require.NotEmpty(t, got)
	assert.Greater(t, got[0].HDC, 0.0)
}

func TestHammingBytesMatchesHamming(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		a, b := randomVector(r), randomVector(r)
		enc := AppendBytes([]byte{7}, &b) // misaligned on purpose
		assert.Equal(t, Hamming(&a, &b), HammingBytes(&a, enc[1:]))
	}
}

// Rotate returns v cyclically rotated by k words: the permutation AddXor
// applies to its second operand, written out for the tests.
func Rotate(v *Vector, k int) Vector {
	var r Vector
	k %= Words
	if k < 0 {
		k += Words
	}
	copy(r[k:], v[:Words-k])
	copy(r[:k], v[Words-k:])
	return r
}
