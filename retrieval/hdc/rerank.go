package hdc

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/bm25"
	"github.com/mrpvm/mrpvm/retrieval/memo"
)

// Params configure encoding, the HDC score and the fusion.
type Params struct {
	// Encoder encodes KUs and queries.
	Encoder Encoder
	// Field weights of the HDC score: each field contributes
	// weight * max(0, (sim-0.5)*2).
	RoleWeight, TopicWeight, ContentWeight, ActsWeight float64
	// Fusion weights of the two strategies' normalised scores, and the
	// bonus when both rank a unit in their top AgreeTop.
	BM25Weight, HDCWeight, AgreeBonus float64
	AgreeTop                          int
	// MMRLambda trades relevance against novelty in the first MMRTop
	// results (1 disables MMR); novelty is the HDC content similarity to the
	// results already chosen.
	MMRLambda float64
	MMRTop    int
	// IDFScale turns a query term's idf into its integer bundle weight.
	IDFScale float64
}

// DefaultParams returns the field weights (role 0.20, topic 0.35, content
// 0.35, acts 0.10) and BM25 weight 1.0, with the HDC weight, the agreement
// bonus and the MMR trade-off tuned on the SciFact training queries: the
// HDC score of a matching unit is small next to the normalised BM25 score,
// so a large HDC weight lets it displace better BM25 hits.
func DefaultParams() Params {
	return Params{
		Encoder:    Encoder{Positions: true, Pairs: true},
		RoleWeight: 0.20, TopicWeight: 0.35, ContentWeight: 0.35, ActsWeight: 0.10,
		BM25Weight: 1.0, HDCWeight: 0.35, AgreeBonus: 0.05, AgreeTop: 10,
		MMRLambda: 0.95, MMRTop: 10,
		IDFScale: 2,
	}
}

// Index stores KU hypervectors and reranks candidates. It is safe for
// concurrent use.
type Index struct {
	p     Params
	roles []Vector // by role code

	mu   sync.RWMutex
	acts map[uint16]*Vector

	prepared *memo.Cache[[]byte] // encoded records by units hash
	vc       vecCache            // decoded records read by Rerank
}

// New returns an Index with the given parameters.
func New(p Params) *Index {
	x := &Index{p: p, acts: map[uint16]*Vector{}, roles: make([]Vector, len(kus.Roles)+1), prepared: memo.New[[]byte](1024)}
	for code := range x.roles {
		x.roles[code] = p.Encoder.RoleVector(uint8(code))
	}
	return x
}

// Params returns the index's parameters.
func (x *Index) Params() Params { return x.p }

// Candidate is a first-stage hit: the BM25 index's.
type Candidate = bm25.Hit

// Ranked is a reranked unit with its score parts.
type Ranked struct {
	ID       string
	SourceID string
	Score    float64 // fused
	BM25     float64 // the candidate's first-stage score
	HDC      float64 // the HDC field score in [0, 1]
	Agree    bool    // both strategies ranked it in their top AgreeTop
}

// Query is a rerank request.
type Query struct {
	Text string
	// Terms and IDF (aligned) weight the query's terms; terms not listed
	// weigh 1. They usually come from the first stage.
	Terms []string
	IDF   []float64
	// K is the number of results wanted.
	K int
	// OnePerSource keeps only the best unit of each source.
	OnePerSource bool
}

// QueryVector encodes a query, weighting terms by idf.
func (x *Index) QueryVector(q Query) Vector {
	idf := make(map[string]float64, len(q.Terms))
	for i, t := range q.Terms {
		if i < len(q.IDF) {
			idf[t] = q.IDF[i]
		}
	}
	var b Bundle
	e := &x.p.Encoder
	return e.Encode(e.Terms(q.Text), func(t string) int {
		w, ok := idf[t]
		if !ok {
			return 1
		}
		return max(1, int(math.Round(w*x.p.IDFScale)))
	}, &b)
}

func (x *Index) actsVector(mask uint16) *Vector {
	x.mu.RLock()
	v := x.acts[mask]
	x.mu.RUnlock()
	if v != nil {
		return v
	}
	a := x.p.Encoder.ActsVector(mask)
	x.mu.Lock()
	x.acts[mask] = &a
	x.mu.Unlock()
	return &a
}

func (x *Index) roleVector(code uint8) *Vector {
	if int(code) >= len(x.roles) {
		return &x.roles[0]
	}
	return &x.roles[code]
}

// Score returns the HDC field score of a unit for query vector q.
func (x *Index) Score(q *Vector, u *Unit) float64 {
	s := 0.0
	if u.Topic != (Vector{}) {
		s += x.p.TopicWeight * Score(Similarity(q, &u.Topic))
	}
	if u.Content != (Vector{}) {
		s += x.p.ContentWeight * Score(Similarity(q, &u.Content))
	}
	if u.Role != 0 && x.p.RoleWeight != 0 {
		s += x.p.RoleWeight * Score(Similarity(q, x.roleVector(u.Role)))
	}
	if u.Acts != 0 && x.p.ActsWeight != 0 {
		s += x.p.ActsWeight * Score(Similarity(q, x.actsVector(u.Acts)))
	}
	return s
}

// querySims memoises, for one query vector, the similarity scores that
// many candidates share: those of role and acts symbols, and those of each
// table entry of a source (a summary, its section and its leaf often share
// their topic vector).
type querySims struct {
	x     *Index
	q     *Vector
	roles []float64 // by role code, NaN until computed
	acts  map[uint16]float64
}

func (qs *querySims) role(code uint8) float64 {
	if qs.roles == nil {
		qs.roles = make([]float64, len(qs.x.roles))
		for i := range qs.roles {
			qs.roles[i] = math.NaN()
		}
	}
	if int(code) >= len(qs.roles) {
		code = 0
	}
	if s := qs.roles[code]; !math.IsNaN(s) {
		return s
	}
	s := Score(Similarity(qs.q, qs.x.roleVector(code)))
	qs.roles[code] = s
	return s
}

func (qs *querySims) actsScore(mask uint16) float64 {
	if s, ok := qs.acts[mask]; ok {
		return s
	}
	if qs.acts == nil {
		qs.acts = make(map[uint16]float64, 4)
	}
	s := Score(Similarity(qs.q, qs.x.actsVector(mask)))
	qs.acts[mask] = s
	return s
}

// scoreVec is Score for unit j of a decoded record; sims holds the
// source's table entries' scores (NaN until computed).
func (x *Index) scoreVec(qs *querySims, sv *srcVectors, j int, sims []float64) float64 {
	u := &sv.units[j]
	entry := func(i uint32) float64 {
		if s := sims[i-1]; !math.IsNaN(s) {
			return s
		}
		s := sv.score(qs.q, i)
		sims[i-1] = s
		return s
	}
	s := 0.0
	if u.topic != noVector {
		s += x.p.TopicWeight * entry(u.topic)
	}
	if u.content != noVector {
		s += x.p.ContentWeight * entry(u.content)
	}
	if u.role != 0 && x.p.RoleWeight != 0 {
		s += x.p.RoleWeight * qs.role(u.role)
	}
	if u.acts != 0 && x.p.ActsWeight != 0 {
		s += x.p.ActsWeight * qs.actsScore(u.acts)
	}
	return s
}

type scoredUnit struct {
	Ranked
	sv *srcVectors // the unit's source vectors, nil when it has none
	j  int         // its position in sv
}

// contentVec returns the unit's content vector (nil when it has none),
// decoded into buf when its record is read in place.
func (u *scoredUnit) contentVec(buf *Vector) *Vector {
	if u.sv == nil {
		return nil
	}
	c := u.sv.units[u.j].content
	if c == noVector {
		return &zeroVector
	}
	return u.sv.vector(c, buf)
}

var zeroVector Vector

// rerankScratch is the working memory of one Rerank call, pooled.
type rerankScratch struct {
	srcOf  []int32 // candidate -> index in srcIDs
	bySrc  map[string]int32
	srcIDs []string
	simOff []int32
	sims   []float64
	units  []scoredUnit
	agree  []uint8
	order  []int
	seen   []bool
	maxSim []float64
}

var rerankPool = sync.Pool{New: func() any { return &rerankScratch{bySrc: make(map[string]int32)} }}

// release clears what holds pointers and returns the scratch to the pool.
func (r *rerankScratch) release() {
	clear(r.bySrc)
	clear(r.srcIDs)
	clear(r.units)
	r.srcIDs = r.srcIDs[:0]
	rerankPool.Put(r)
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// Rerank fuses the candidates' first-stage scores with their HDC scores,
// keeps the best unit per source when asked, diversifies the head with MMR
// and returns the best q.K. Candidates without stored vectors keep an HDC
// score of 0.
func (x *Index) Rerank(kv plugin.KV, q Query, cands []Candidate) ([]Ranked, error) {
	if q.K <= 0 || len(cands) == 0 {
		return nil, nil
	}
	qv := x.QueryVector(q)
	qs := &querySims{x: x, q: &qv}
	sc := rerankPool.Get().(*rerankScratch)
	defer sc.release()

	// The candidates' sources, each read once (from the cache when it can).
	srcOf := grow(sc.srcOf, len(cands))
	sc.srcOf = srcOf
	bySrc := sc.bySrc
	srcIDs := sc.srcIDs[:0]
	for i, c := range cands {
		k, ok := bySrc[c.SourceID]
		if !ok {
			k = int32(len(srcIDs))
			bySrc[c.SourceID] = k
			srcIDs = append(srcIDs, c.SourceID)
		}
		srcOf[i] = k
	}
	sc.srcIDs = srcIDs
	svs, err := x.sourcesVectors(kv, readGen(kv), srcIDs)
	if err != nil {
		return nil, fmt.Errorf("hdc: rerank: %w", err)
	}
	simOff := grow(sc.simOff, len(svs)) // a source's table entries' scores start here in sims
	sc.simOff = simOff
	n := 0
	for k, sv := range svs {
		simOff[k] = int32(n)
		if sv != nil {
			n += sv.n
		}
	}
	sims := grow(sc.sims, n)
	sc.sims = sims
	for k := range sims {
		sims[k] = math.NaN()
	}

	units := grow(sc.units, len(cands))
	sc.units = units
	maxBM := 0.0
	for i, c := range cands {
		su := &units[i]
		*su = scoredUnit{Ranked: Ranked{ID: c.ID, SourceID: c.SourceID, BM25: c.Score}}
		maxBM = max(maxBM, c.Score)
		sv := svs[srcOf[i]]
		if sv == nil {
			continue
		}
		if j := sv.find(c.ID); j >= 0 {
			off := simOff[srcOf[i]]
			su.HDC = x.scoreVec(qs, sv, j, sims[off:off+int32(sv.n)])
			su.sv, su.j = sv, j
		}
	}

	// The top AgreeTop of both strategies, for the agreement bonus: the
	// first ones of a stable sort by score (ties keep candidate order).
	agree := grow(sc.agree, len(units)) // bit 0: BM25 top, bit 1: HDC top
	sc.agree = agree
	clear(agree)
	top := min(x.p.AgreeTop, len(units))
	for _, i := range topIndexes(len(units), top, func(i int) float64 { return units[i].BM25 }) {
		agree[i] |= 1
	}
	for _, i := range topIndexes(len(units), top, func(i int) float64 { return units[i].HDC }) {
		if units[i].HDC > 0 {
			agree[i] |= 2
		}
	}
	for i := range units {
		su := &units[i]
		su.Score = x.p.BM25Weight*bm25.OfBest(su.BM25, maxBM) + x.p.HDCWeight*su.HDC
		if agree[i] == 3 {
			su.Score += x.p.AgreeBonus
			su.Agree = true
		}
	}
	// Sort positions, not the units themselves (large structs).
	order := grow(sc.order, len(units))
	sc.order = order
	for i := range order {
		order[i] = i
	}
	byScore := func(a, b int) int {
		if c := cmp.Compare(units[b].Score, units[a].Score); c != 0 {
			return c
		}
		return cmp.Compare(units[a].ID, units[b].ID)
	}
	slices.SortStableFunc(order, byScore)
	if q.OnePerSource {
		seen := grow(sc.seen, len(srcIDs))
		sc.seen = seen
		clear(seen)
		order = slices.DeleteFunc(order, func(i int) bool {
			if seen[srcOf[i]] {
				return true
			}
			seen[srcOf[i]] = true
			return false
		})
	}
	sc.maxSim = x.mmr(units, order, min(x.p.MMRTop, q.K), byScore, sc.maxSim)
	out := make([]Ranked, min(q.K, len(order)))
	for i := range out {
		out[i] = units[order[i]].Ranked
	}
	return out, nil
}

// topIndexes returns the positions of the k largest of score(0..n-1), best
// first, ties by position: the first k of a stable sort by descending
// score, without sorting everything.
func topIndexes(n, k int, score func(int) float64) []int {
	if k <= 0 {
		return nil
	}
	out := make([]int, 0, k)
	for i := 0; i < n; i++ {
		s := score(i)
		if len(out) == k && cmp.Compare(s, score(out[k-1])) <= 0 {
			continue // not above the k-th (a tie loses to the earlier one)
		}
		// Insert after every kept one scoring at least s.
		at := len(out)
		for at > 0 && cmp.Compare(score(out[at-1]), s) < 0 {
			at--
		}
		if len(out) < k {
			out = append(out, 0)
		}
		copy(out[at+1:], out[at:len(out)-1])
		out[at] = i
	}
	return out
}

// mmr reorders the first top of the units at positions order greedily by
// maximal marginal relevance: lambda * score/maxScore - (1-lambda) * max
// similarity to the units already placed. The rest keep their order
// (byScore). maxSim is scratch memory, returned for reuse.
func (x *Index) mmr(units []scoredUnit, order []int, top int, byScore func(a, b int) int, maxSim []float64) []float64 {
	lambda := x.p.MMRLambda
	if lambda >= 1 || top < 2 || len(order) < 2 {
		return maxSim
	}
	maxScore := units[order[0]].Score
	if maxScore <= 0 {
		return maxSim
	}
	// Consider a window a little deeper than what is placed.
	window := min(len(order), 2*top)
	var pcBuf, cBuf Vector // content vectors of records read in place
	maxSim = grow(maxSim, window)
	clear(maxSim)
	for placed := 0; placed < top && placed < window; placed++ {
		best, bestVal := -1, math.Inf(-1)
		for i := placed; i < window; i++ {
			v := lambda*units[order[i]].Score/maxScore - (1-lambda)*maxSim[i]
			if v > bestVal {
				best, bestVal = i, v
			}
		}
		order[placed], order[best] = order[best], order[placed]
		maxSim[placed], maxSim[best] = maxSim[best], maxSim[placed]
		pc := units[order[placed]].contentVec(&pcBuf)
		if pc == nil {
			continue
		}
		for i := placed + 1; i < window; i++ {
			if c := units[order[i]].contentVec(&cBuf); c != nil {
				maxSim[i] = max(maxSim[i], Score(Similarity(pc, c)))
			}
		}
	}
	// The window was reordered by swaps; restore score order after the
	// placed prefix so the tail stays ranked.
	slices.SortStableFunc(order[min(top, window):window], byScore)
	return maxSim
}
