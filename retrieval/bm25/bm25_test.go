package bm25

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

func bodyOnly() Params {
	p := DefaultParams()
	p.Weights = [NumFields]float64{}
	p.Weights[FieldBody] = 1
	p.Weights[FieldDesc] = 1 // a one-paragraph body is its description block
	return p
}

func ku(src string, i int, body string) *kus.KU {
	return &kus.KU{ID: fmt.Sprintf("%s::0::%d", src, i), SourceID: src, Level: kus.LevelLeaf, TextBody: body}
}

// The three-document corpus of the hand computation: N=3, avgdl=3, k1=1.2, b=0.75.
//
//	A "apple banana apple"       appl:2 banana:1      dl 3
//	B "banana cherry"            banana:1 cherri:1    dl 2
//	C "cherry cherry cherry date" cherri:3 date:1      dl 4
func handCorpus(t *testing.T, x *Index) *kvtest.Mem {
	return pagesKB(t, x, [][2]string{
		{"a.md", "apple banana apple"},
		{"b.md", "banana cherry"},
		{"c.md", "cherry cherry cherry date"},
	})
}

// pagesKB indexes each page {source, body} as one leaf unit, in order,
// into a new store.
func pagesKB(t *testing.T, x *Index, pages [][2]string) *kvtest.Mem {
	t.Helper()
	kv := kvtest.New()
	for _, p := range pages {
		require.NoError(t, x.IndexSource(kv, p[0], []*kus.KU{ku(p[0], 0, p[1])}, nil))
	}
	return kv
}

// defaultKB is an index with the default parameters and a new store
// holding the pages as pagesKB indexes them.
func defaultKB(t *testing.T, pages [][2]string) (*Index, *kvtest.Mem) {
	t.Helper()
	x := New(DefaultParams())
	return x, pagesKB(t, x, pages)
}

func TestHandComputedScores(t *testing.T) {
	x := New(bodyOnly())
	kv := handCorpus(t, x)
	tests := []struct {
		query string
		want  []Hit
	}{
		// idf(df=1) = ln(1+2.5/1.5) = 0.98083; tf 2, dl 3: 2*2.2/(2+1.2) = 1.375.
		{"apple", []Hit{{"a.md::0::0", "a.md", 1.3486402228911236}}},
		// idf(df=2) = ln(1.6) = 0.47000; B: 2 terms * 2.2/1.9; C: 3*2.2/4.5; A: 2.2/2.2.
		{"banana cherry", []Hit{
			{"b.md::0::0", "b.md", 1.088429457200651},
			{"c.md::0::0", "c.md", 0.689338656227079},
			{"a.md::0::0", "a.md", 0.47000362924573563},
		}},
		{"Cherries!", []Hit{
			{"c.md::0::0", "c.md", 0.689338656227079},
			{"b.md::0::0", "b.md", 0.47000362924573563 * 2.2 / 1.9},
		}},
		{"unknown words", nil},
		{"", nil},
		{"the of and", nil},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			got, err := x.Search(kv, tc.query, 10, nil)
			require.NoError(t, err)
			require.Len(t, got, len(tc.want))
			for i := range got {
				assert.Equal(t, tc.want[i].ID, got[i].ID)
				assert.Equal(t, tc.want[i].SourceID, got[i].SourceID)
				assert.InDelta(t, tc.want[i].Score, got[i].Score, 1e-9)
			}
		})
	}
}

func TestKLimitFilterAndBoost(t *testing.T) {
	x := New(bodyOnly())
	kv := handCorpus(t, x)

	got, err := x.Search(kv, "banana cherry", 1, nil)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "b.md::0::0", got[0].ID)

	got, err = x.Search(kv, "banana cherry", 2, func(id string) bool { return !strings.HasPrefix(id, "b.md") })
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []string{"c.md::0::0", "a.md::0::0"}, ids(got))

	// A's role suits "explain": 0.47000*1.3 = 0.611 stays below C's 0.689;
	// C's role suits "compare": it stays second but rises.
	kv2 := kvtest.New()
	for _, d := range []struct{ src, body, role string }{
		{"a.md", "apple banana apple", "Explanation"},
		{"b.md", "banana cherry", "Description"},
		{"c.md", "cherry cherry cherry date", "Comparison"},
	} {
		u := ku(d.src, 0, d.body)
		u.Role = d.role
		require.NoError(t, x.IndexSource(kv2, d.src, []*kus.KU{u}, nil))
	}
	r, err := x.SearchQuery(kv2, Query{Text: "banana cherry", K: 3, Act: "compare"})
	require.NoError(t, err)
	require.Len(t, r.Hits, 3)
	assert.Equal(t, []string{"b.md::0::0", "c.md::0::0", "a.md::0::0"}, ids(r.Hits))
	assert.InDelta(t, 0.689338656227079*1.3, r.Hits[1].Score, 1e-9)
	assert.Equal(t, 3, r.Considered)
	assert.EqualValues(t, 3, r.Units)
}

func TestOnePerSource(t *testing.T) {
	x := New(bodyOnly())
	kv := kvtest.New()
	require.NoError(t, x.IndexSource(kv, "a.md", []*kus.KU{ku("a.md", 0, "alpha beta"), ku("a.md", 1, "alpha alpha")}, nil))
	require.NoError(t, x.IndexSource(kv, "b.md", []*kus.KU{ku("b.md", 0, "alpha gamma")}, nil))
	r, err := x.SearchQuery(kv, Query{Text: "alpha", K: 5, OnePerSource: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.md::0::1", "b.md::0::0"}, ids(r.Hits))
	r, err = x.SearchQuery(kv, Query{Text: "alpha", K: 5})
	require.NoError(t, err)
	assert.Len(t, r.Hits, 3)
}

func ids(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}

// stripGen blanks the nonce and generation of the stats record.
func stripGen(d map[string][]byte) map[string][]byte {
	if v, ok := d[string(keyStats)]; ok {
		v = slices.Clone(v)
		for i := 1; i < 17; i++ {
			v[i] = 0
		}
		d[string(keyStats)] = v
	}
	return d
}

func TestIncrementalEqualsRebuild(t *testing.T) {
	a := []*kus.KU{ku("a.md", 0, "shared words about retrieval"), ku("a.md", 1, "apple orchard")}
	b := []*kus.KU{ku("b.md", 0, "banana split retrieval"), ku("b.md", 1, "old text only here")}
	b2 := []*kus.KU{ku("b.md", 0, "banana bread retrieval systems"), ku("b.md", 1, "new words"), ku("b.md", 2, "third unit apple")}

	x := New(DefaultParams())
	inc := kvtest.New()
	require.NoError(t, x.IndexSource(inc, "a.md", a, nil))
	require.NoError(t, x.IndexSource(inc, "b.md", b, nil))
	// Warm the cache so the update must keep it right.
	before, err := x.Search(inc, "retrieval apple old", 10, nil)
	require.NoError(t, err)
	require.NotEmpty(t, before)
	require.NoError(t, x.IndexSource(inc, "b.md", b2, []string{"b.md::0::0", "b.md::0::1"}))

	fresh := kvtest.New()
	y := New(DefaultParams())
	require.NoError(t, y.IndexSource(fresh, "a.md", a, nil))
	require.NoError(t, y.IndexSource(fresh, "b.md", b2, nil))

	assert.Equal(t, stripGen(fresh.Dump()), stripGen(inc.Dump()))
	for _, q := range []string{"retrieval apple old", "banana", "new words third", "old text"} {
		got, err := x.Search(inc, q, 10, nil)
		require.NoError(t, err)
		want, err := New(DefaultParams()).Search(fresh, q, 10, nil)
		require.NoError(t, err)
		assert.Equal(t, want, got, q)
	}
}

func TestRemovalLeavesNoKeys(t *testing.T) {
	x := New(DefaultParams())
	kv := kvtest.New()
	require.NoError(t, x.IndexSource(kv, "a.md", []*kus.KU{ku("a.md", 0, "alpha beta"), ku("a.md", 1, "gamma")}, nil))
	require.NoError(t, x.IndexSource(kv, "b.md", []*kus.KU{ku("b.md", 0, "alpha delta")}, nil))
	_, err := x.Search(kv, "alpha", 3, nil)
	require.NoError(t, err)

	require.NoError(t, x.RemoveSource(kv, "a.md", nil))
	for _, k := range kv.Keys() {
		assert.NotContains(t, k, "a.md", "orphan key")
	}
	got, err := x.Search(kv, "alpha gamma", 3, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"b.md::0::0"}, ids(got))

	require.NoError(t, x.RemoveSource(kv, "b.md", nil))
	assert.Zero(t, kv.Len(), kv.Keys())
	got, err = x.Search(kv, "alpha", 3, nil)
	require.NoError(t, err)
	assert.Empty(t, got)
	// Removing an unknown source is a no-op.
	require.NoError(t, x.RemoveSource(kv, "zzz.md", nil))
	assert.Zero(t, kv.Len())
}

func TestBadInput(t *testing.T) {
	x := New(DefaultParams())
	kv := handCorpus(t, x)
	huge := strings.Repeat("apple banana cherry date elderberry fig grape ", 1500)
	for _, q := range []string{"", "   ", "the and of", huge, "中文 текст عربى", "\xff\xfe"} {
		_, err := x.Search(kv, q, 10, nil)
		assert.NoError(t, err)
	}
	got, err := x.Search(kv, "banana", 0, nil)
	assert.NoError(t, err)
	assert.Empty(t, got)

	require.Error(t, x.IndexSource(kv, "", nil, nil))
	require.Error(t, x.IndexSource(kv, "a\x00b", nil, nil))
	ro := kvtest.New()
	ro.ReadOnly = true
	require.Error(t, x.IndexSource(ro, "a.md", nil, nil))

	// Empty index.
	got, err = x.Search(kvtest.New(), "banana", 10, nil)
	assert.NoError(t, err)
	assert.Empty(t, got)
}

func TestCorruptIndexIsReported(t *testing.T) {
	x := New(DefaultParams())
	kv := handCorpus(t, x)
	require.NoError(t, kv.Put(recordKey("a.md"), []byte{0xff}))
	_, err := New(DefaultParams()).Search(kv, "banana", 3, nil)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorIs(t, x.IndexSource(kv, "a.md", nil, nil), ErrCorrupt)

	require.NoError(t, kv.Put(keyStats, []byte("junk")))
	_, err = x.Search(kv, "banana", 3, nil)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorIs(t, x.IndexSource(kv, "d.md", nil, nil), ErrCorrupt)

	require.NoError(t, Clear(kv))
	assert.Zero(t, kv.Len())
}

// reference scores every unit exhaustively, independently of the index.
type reference struct {
	p     Params
	units []*kus.KU
}

// index indexes units as source src into x and kv and adds them to the
// reference.
func (r *reference) index(t *testing.T, x *Index, kv *kvtest.Mem, src string, units []*kus.KU) {
	t.Helper()
	require.NoError(t, x.IndexSource(kv, src, units, nil))
	r.units = append(r.units, units...)
}

// check searches x for q and requires the ranking of the reference.
func (r *reference) check(t *testing.T, x *Index, kv *kvtest.Mem, q Query) *Result {
	t.Helper()
	got, err := x.SearchQuery(kv, q)
	require.NoError(t, err)
	sameRanking(t, r.search(q), got.Hits, fmt.Sprintf("query %q k=%d", q.Text, q.K))
	return got
}

// checkRandom checks n queries of minWords to minWords+7 random words
// and at most 1 to maxK results, the i-th varied by vary[i%len(vary)], and
// returns the terms and the blocks the searches pruned.
func (r *reference) checkRandom(t *testing.T, x *Index, kv *kvtest.Mem, rnd *rand.Rand, n, minWords, maxK int, vary ...func(*Query)) (terms, blocks int) {
	t.Helper()
	for i := range n {
		q := Query{Text: randomText(rnd, minWords+rnd.IntN(8)), K: 1 + rnd.IntN(maxK)}
		vary[i%len(vary)](&q)
		res := r.check(t, x, kv, q)
		terms += res.PrunedTerms
		blocks += res.PrunedBlocks
	}
	return terms, blocks
}

// Variations of a random query for checkRandom.
func plain(*Query)          {}
func onePerSource(q *Query) { q.OnePerSource = true }
func randomAct(r *rand.Rand) func(*Query) {
	return func(q *Query) { q.Act = []string{"explain", "compare", "describe"}[r.IntN(3)] }
}

func (r *reference) search(q Query) []Hit {
	a := text.English()
	type doc struct {
		tf map[string]float64
		dl float64
	}
	docs := make([]doc, len(r.units))
	var total float64
	df := map[string]int{}
	for i, u := range r.units {
		docs[i].tf = map[string]float64{}
		for f, s := range FieldTexts(u) {
			w := float64(float32(r.p.Weights[f]))
			a.Each(s, func(t text.Token) {
				docs[i].tf[t.Term] += w
				docs[i].dl += w
			})
		}
		total += docs[i].dl
		for t, v := range docs[i].tf {
			if v > 0 {
				df[t]++
			}
		}
	}
	n := float64(len(docs))
	avgdl := total / n
	qt := map[string]int{}
	for _, t := range a.Append(nil, q.Text) {
		qt[t]++
	}
	var hits []Hit
	for i, d := range docs {
		s := 0.0
		for _, t := range slices.Sorted(maps.Keys(qt)) {
			c := qt[t]
			tf := d.tf[t]
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += float64(c) * idf * tf * (r.p.K1 + 1) / (tf + r.p.K1*(1-r.p.B+r.p.B*d.dl/avgdl))
		}
		if s == 0 {
			continue
		}
		if q.Act != "" && suitedRoles(q.Act)&(1<<roleCode(r.units[i].Role)) != 0 {
			s *= r.p.RoleBoost
		}
		if q.Filter != nil && !q.Filter(r.units[i].ID) {
			continue
		}
		hits = append(hits, Hit{ID: r.units[i].ID, SourceID: r.units[i].SourceID, Score: s})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	if q.OnePerSource {
		seen := map[string]bool{}
		out := hits[:0]
		for _, h := range hits {
			if !seen[h.SourceID] {
				seen[h.SourceID] = true
				out = append(out, h)
			}
		}
		hits = out
	}
	if len(hits) > q.K {
		hits = hits[:q.K]
	}
	return hits
}

// sameRanking checks that got ranks like want: equal scores (to 1e-9) rank
// by rank, and the same ids within every group of tied scores (floating
// point sums in another order may differ in the last bit, so ties are
// compared as sets; a tie group cut by k is not compared).
func sameRanking(t *testing.T, want, got []Hit, msg string) {
	t.Helper()
	require.Equal(t, len(want), len(got), msg)
	for i := 0; i < len(want); {
		j := i + 1
		for j < len(want) && math.Abs(want[j].Score-want[i].Score) < 1e-9 {
			j++
		}
		for r := i; r < j; r++ {
			require.InDelta(t, want[r].Score, got[r].Score, 1e-9, "%s rank %d", msg, r)
		}
		if j < len(want) {
			require.ElementsMatch(t, ids(want[i:j]), ids(got[i:j]), "%s ranks %d-%d", msg, i, j-1)
		}
		i = j
	}
}

var vocab = strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega " +
	"cell protein gene tumor patient dose risk brain blood cancer virus immune kb-fast x86-64")

func randomText(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		// Skewed: low indices are frequent.
		j := int(math.Floor(math.Pow(r.Float64(), 2) * float64(len(vocab))))
		w[i] = vocab[j]
	}
	return strings.Join(w, " ")
}

// referenceKB is an index with the default parameters, a new store and the
// exhaustive reference, all holding the sources numbered 0 to n-1, named by
// the format name, each of the units that units makes for it.
func referenceKB(t *testing.T, n int, name string, units func(s int, src string) []*kus.KU) (*Index, *kvtest.Mem, *reference) {
	t.Helper()
	p := DefaultParams()
	x, kv, ref := New(p), kvtest.New(), &reference{p: p}
	for s := range n {
		src := fmt.Sprintf(name, s)
		ref.index(t, x, kv, src, units(s, src))
	}
	return x, kv, ref
}

func TestPrunedSearchMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x, kv, ref := referenceKB(t, 60, "doc%03d.md", func(s int, src string) (units []*kus.KU) {
		for u := 0; u < 1+r.IntN(4); u++ {
			k := ku(src, u, randomText(r, 3+r.IntN(40)))
			k.Topic = randomText(r, 2)
			k.Role = kus.Roles[r.IntN(len(kus.Roles))]
			units = append(units, k)
		}
		return units
	})
	filtered := func(q *Query) { q.Filter = func(id string) bool { return !strings.HasSuffix(id, "::1") } }
	pruned, _ := ref.checkRandom(t, x, kv, r, 200, 1, 12, plain, filtered, randomAct(r), onePerSource)
	assert.Positive(t, pruned, "pruning never engaged")
}

// TestRandomUpdatesMatchReference drives flushes, tier merges, vacuums and
// segment deletions with tiny thresholds and checks every state against the
// exhaustive reference, through a cached and a fresh Index.
func TestRandomUpdatesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	p := DefaultParams()
	p.FlushSources, p.MergeFactor = 3, 2
	defer func(a, b int) { blockBytes, blockTerms = a, b }(blockBytes, blockTerms)
	blockBytes, blockTerms = 64, 3 // many blocks per segment
	x := New(p)
	kv := kvtest.New()
	current := map[string][]*kus.KU{}
	for step := 0; step < 400; step++ {
		src := fmt.Sprintf("s%02d.md", r.IntN(25))
		if r.IntN(5) == 0 {
			require.NoError(t, x.RemoveSource(kv, src, nil))
			delete(current, src)
		} else {
			var units []*kus.KU
			for u := 0; u < 1+r.IntN(3); u++ {
				units = append(units, ku(src, u, randomText(r, 2+r.IntN(20))))
			}
			require.NoError(t, x.IndexSource(kv, src, units, nil))
			current[src] = units
		}
		if step%7 != 0 {
			continue
		}
		ref := &reference{p: p}
		for _, s := range slices.Sorted(maps.Keys(current)) {
			ref.units = append(ref.units, current[s]...)
		}
		for i := 0; i < 3; i++ {
			q := Query{Text: randomText(r, 1+r.IntN(5)), K: 1 + r.IntN(8), OnePerSource: i == 2}
			want := ref.search(q)
			for _, idx := range []*Index{x, New(p)} {
				got, err := idx.SearchQuery(kv, q)
				require.NoError(t, err)
				sameRanking(t, want, got.Hits, fmt.Sprintf("step %d query %q cached=%v", step, q.Text, idx == x))
			}
		}
	}
	st, ok, err := readStats(kv)
	require.NoError(t, err)
	require.True(t, ok)
	assert.NotEmpty(t, st.segs, "no segment was ever flushed")

	require.NoError(t, x.Compact(kv))
	st, _, err = readStats(kv)
	require.NoError(t, err)
	assert.Len(t, st.segs, 1)
	assert.Empty(t, st.delta)
	for src := range current {
		require.NoError(t, x.RemoveSource(kv, src, nil))
	}
	assert.Zero(t, kv.Len(), kv.Keys())
}

func TestConcurrentSearchAndUpdate(t *testing.T) {
	x := New(DefaultParams())
	kv := handCorpus(t, x)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				hits, err := x.Search(kv, "banana cherry apple", 3, nil)
				if err != nil || len(hits) != 3 {
					t.Errorf("search: %v %v", hits, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestGallop(t *testing.T) {
	docs := []uint32{2, 4, 6, 8, 10, 12, 14, 16, 18, 20}
	tests := []struct {
		from int
		d    uint32
		want int
	}{
		{0, 1, 0}, {0, 2, 0}, {0, 3, 1}, {0, 20, 9}, {0, 21, 10}, {3, 8, 3}, {3, 9, 4},
		{5, 2, 5}, {9, 19, 9}, {10, 1, 10}, {0, 15, 7}, {1, 17, 8},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, gallop(docs, tc.from, tc.d), "from %d d %d", tc.from, tc.d)
	}
	assert.Equal(t, 0, gallop(nil, 0, 5))
}

// TestConcurrentSearchOverSegments has fresh indexes decode segment
// postings from several goroutines at once (the decoding runs without the
// index lock) and checks every answer against a sequential one.
func TestConcurrentSearchOverSegments(t *testing.T) {
	p := DefaultParams()
	p.FlushSources, p.MergeFactor = 3, 2
	x := New(p)
	kv := kvtest.New()
	words := []string{"apple", "banana", "cherry", "date", "elder", "fig", "grape", "kiwi"}
	for i := range 40 {
		body := fmt.Sprintf("%s %s %s %s", words[i%8], words[(i*3)%8], words[(i*5+1)%8], words[(i/5)%8])
		src := fmt.Sprintf("s%02d.md", i)
		require.NoError(t, x.IndexSource(kv, src, []*kus.KU{ku(src, 0, body), ku(src, 1, words[i%8])}, nil))
	}
	st, _, err := readStats(kv)
	require.NoError(t, err)
	require.NotEmpty(t, st.segs)
	queries := []string{"apple banana", "cherry date fig", "kiwi", "grape elder apple", "banana kiwi date"}
	want := map[string][]Hit{}
	for _, q := range queries {
		want[q], err = New(p).Search(kv, q, 10, nil)
		require.NoError(t, err)
		require.NotEmpty(t, want[q])
	}
	for range 20 {
		y := New(p) // empty cache: every goroutine decodes
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range len(queries) {
					q := queries[(g+i)%len(queries)]
					got, err := y.Search(kv, q, 10, nil)
					if err != nil || !assert.Equal(t, want[q], got, q) {
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// TestBlockMaxSearchMatchesExhaustive indexes enough units for the frequent
// terms' lists to span many blocks, with repeated copies of the same texts
// (ties, as with a duplicated corpus), and checks that block-max pruning
// engages and never changes the ranking.
func TestBlockMaxSearchMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	texts := make([]string, 150)
	for i := range texts {
		texts[i] = randomText(r, 3+r.IntN(60))
	}
	x, kv, ref := referenceKB(t, 400, "doc%04d.md", func(s int, src string) (units []*kus.KU) {
		for u := 0; u < 1+r.IntN(3); u++ {
			k := ku(src, u, texts[(s*3+u)%len(texts)])
			k.Role = kus.Roles[r.IntN(len(kus.Roles))]
			units = append(units, k)
		}
		return units
	})
	_, pruned := ref.checkRandom(t, x, kv, r, 100, 2, 20, plain, randomAct(r), onePerSource)
	assert.Positive(t, pruned, "block-max pruning never engaged")
}

// TestDecodePostingsMatchesDecoder checks the unrolled segment decoder
// against decoder.entry on random postings (multi-byte numbers, empty
// masks, zero weights), appending after existing postings, and that every
// truncation is either reported or decodes a prefix of the postings.
func TestDecodePostingsMatchesDecoder(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 11))
	w := DefaultParams().Weights
	var wf [NumFields]float32
	for f, v := range w {
		wf[f] = float32(v)
	}
	wf[FieldRole] = 0 // a field that never adds to tf
	for round := 0; round < 200; round++ {
		var enc []byte
		var wantDocs []uint32
		var wantTFs []float32
		doc := int64(-1)
		n := r.IntN(300)
		for range n {
			gap := uint64(r.IntN(4))
			if r.IntN(10) == 0 {
				gap = uint64(r.IntN(100000))
			}
			var tf [NumFields]uint32
			for f := range tf {
				if r.IntN(4) == 0 {
					tf[f] = uint32(r.IntN(3))
					if r.IntN(20) == 0 {
						tf[f] = uint32(r.IntN(1 << 20))
					}
				}
			}
			enc = appendEntry(enc, gap, &tf)
			doc += int64(gap) + 1
			d := decoder{bindec.Decoder{B: enc[len(enc)-len(appendEntry(nil, gap, &tf)):]}}
			_, want := d.entry(&wf)
			if want > 0 {
				wantDocs = append(wantDocs, 7+uint32(doc))
				wantTFs = append(wantTFs, want)
			}
		}
		limit := uint32(doc + 1)
		docs, tfs, ok := decodePostings(enc, 7, limit, &wf, []uint32{1, 2}, []float32{3, 4})
		require.True(t, ok)
		require.Equal(t, append([]uint32{1, 2}, wantDocs...), docs)
		require.Equal(t, append([]float32{3, 4}, wantTFs...), tfs)
		if doc >= 0 {
			_, _, ok = decodePostings(enc, 7, limit-1, &wf, nil, nil)
			require.False(t, ok, "a document past the segment's end is corrupt")
		}
		cut := r.IntN(len(enc) + 1)
		docs, tfs, ok = decodePostings(enc[:cut], 7, limit, &wf, nil, nil)
		if ok && len(docs) > 0 {
			require.Equal(t, wantDocs[:len(docs)], docs)
			require.Equal(t, wantTFs[:len(tfs)], tfs)
		}
	}
	_, _, ok := decodePostings([]byte{0, 1 << 7}, 0, 10, &wf, nil, nil)
	require.False(t, ok, "a truncated mask is corrupt")
	_, _, ok = decodePostings([]byte{0, 1}, 0, 10, &wf, nil, nil)
	require.False(t, ok, "a missing frequency is corrupt")
}

func TestWarm(t *testing.T) {
	// Nothing indexed: nothing to load.
	y := New(DefaultParams())
	require.NoError(t, y.Warm(kvtest.New()))
	assert.Nil(t, y.c)

	x := New(DefaultParams())
	kv := handCorpus(t, x)
	want, err := x.Search(kv, "banana cherry", 3, nil)
	require.NoError(t, err)

	// Warm loads the unit table a search would; searches and writes
	// through the warmed index then answer as the writer's index does.
	require.NoError(t, y.Warm(kv))
	require.NotNil(t, y.c)
	assert.Len(t, y.c.docID, 3)
	assert.Empty(t, y.c.terms, "postings are decoded on demand, not by Warm")
	got, err := y.Search(kv, "banana cherry", 3, nil)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	require.NoError(t, y.Warm(kv)) // current: nothing reloaded
	require.NoError(t, y.IndexSource(kv, "d.md", []*kus.KU{ku("d.md", 0, "banana banana split")}, nil))
	require.NoError(t, y.Warm(kv))
	got, err = y.Search(kv, "banana", 4, nil)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "d.md", got[0].SourceID)

	// A corrupt index is reported, as a search reports it.
	require.NoError(t, kv.Put(recordKey("a.md"), []byte{0xff}))
	require.ErrorIs(t, New(DefaultParams()).Warm(kv), ErrCorrupt)
	require.NoError(t, kv.Put(keyStats, []byte("junk")))
	require.ErrorIs(t, y.Warm(kv), ErrCorrupt)
}

func TestEmptyIndexStillReportsTheTerms(t *testing.T) {
	r, err := New(DefaultParams()).SearchQuery(kvtest.New(), Query{Text: "banana splits", K: 3})
	require.NoError(t, err)
	assert.Empty(t, r.Hits)
	assert.Equal(t, []string{"banana", "split"}, r.Terms, "what was searched, though nothing is indexed")
}
