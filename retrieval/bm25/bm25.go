package bm25

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// Params are the scoring parameters of an Index.
type Params struct {
	// K1 and B are the BM25 saturation and length-normalisation parameters.
	K1, B float64
	// Weights multiply each field's term frequencies and lengths.
	Weights [NumFields]float64
	// RoleBoost multiplies the score of a unit whose role suits the query's
	// act (Query.Act); 1 disables it.
	RoleBoost float64
	// Analyzer turns field text and queries into terms; text.English() when nil.
	// It must be the same at index and query time.
	Analyzer *text.Analyzer
	// MaxQueryTerms caps the distinct terms of a query (the first ones win).
	MaxQueryTerms int
	// FlushSources is the number of sources the delta collects before it
	// is flushed into a segment.
	FlushSources int
	// MergeFactor is the number of same-tier segments merged into one.
	MergeFactor int
}

// DefaultParams returns the design's parameters: k1=1.2, b=0.75, field
// weights topic 1.5, claim 1.0, procedure 1.0, role 0.5, utilityActs 0.8,
// utilityNote 0.6, condition 0.6 (title, body and tags 1.0), role boost 1.3;
// of the body's parts, the description block 3.0 and list items 2.5 (what
// a page is for and the examples it gives), a plain-prose lead paragraph
// 2.0 and command lines 0.5.
func DefaultParams() Params {
	var w [NumFields]float64
	w[FieldTitle] = 1.0
	w[FieldTopic] = 1.5
	w[FieldClaim] = 1.0
	w[FieldProcedure] = 1.0
	w[FieldBody] = 1.0
	w[FieldRole] = 0.5
	w[FieldActs] = 0.8
	w[FieldNote] = 0.6
	w[FieldCondition] = 0.6
	w[FieldTags] = 1.0
	w[FieldItem] = 2.5
	w[FieldDesc] = 3.0
	w[FieldCode] = 0.5
	w[FieldLead] = 2.0
	return Params{K1: 1.2, B: 0.75, Weights: w, RoleBoost: 1.3, MaxQueryTerms: 512, FlushSources: 256, MergeFactor: 8}
}

// Index scores queries against the index stored in a KV namespace and caches
// decoded postings between queries. It is safe for concurrent use.
type Index struct {
	p Params
	w [NumFields]float32

	mu sync.Mutex
	c  *cache

	vmu      sync.Mutex // guards voc, vocNonce and vocSegs
	voc      *spellVocab
	vocNonce uint64
	vocSegs  map[uint32]*vocabPart // the vocabulary of each segment, by id
	// The delta's vocabulary and a hash of the records it was built from.
	vocDelta    *vocabPart
	vocDeltaSum uint64
}

// New returns an Index with the given parameters.
func New(p Params) *Index {
	if p.Analyzer == nil {
		p.Analyzer = text.English()
	}
	if p.MaxQueryTerms <= 0 {
		p.MaxQueryTerms = 512
	}
	if p.RoleBoost <= 0 {
		p.RoleBoost = 1
	}
	if p.FlushSources <= 0 {
		p.FlushSources = 256
	}
	if p.MergeFactor < 2 {
		p.MergeFactor = 8
	}
	x := &Index{p: p}
	for f, v := range p.Weights {
		x.w[f] = float32(v)
	}
	return x
}

// Params returns the index's parameters.
func (x *Index) Params() Params { return x.p }

// Hit is one retrieved unit.
type Hit struct {
	ID       string  // KU id
	SourceID string  // the KU's source
	Score    float64 // BM25 score (with the role boost when it applied)
}

// OfBest is a BM25 score on the scale of the best score among the
// candidates (0 when best is not positive): BM25 scores are unbounded, so
// a ranking that fuses them with a score in [0, 1] weighs them this way.
func OfBest(score, best float64) float64 {
	if best > 0 {
		return score / best
	}
	return 0
}

// Query is a search request.
type Query struct {
	Text string
	// K is the number of hits wanted.
	K int
	// Filter, when set, keeps only units whose id it accepts. It is called
	// at most once per unit and only for units that could enter the top K.
	Filter func(id string) bool
	// Act is the task's act (explain, compare, ...); units whose role suits
	// it are boosted by Params.RoleBoost.
	Act string
	// OnePerSource keeps only the best unit of each source (a source scores
	// as its best KU).
	OnePerSource bool
	// Extra are index terms searched besides the query's own (already
	// analysed, as Feedback returns them), with their weights in
	// ExtraWeights (a query term weighs 1).
	Extra        []string
	ExtraWeights []float64
}

// Result is the answer to a Query.
type Result struct {
	Hits []Hit
	// Terms are the distinct query terms that were searched.
	Terms []string
	// IDF holds each term's inverse document frequency (0 when absent).
	IDF []float64
	// Considered counts the units that matched at least one term scored
	// exhaustively (pruned terms do not add candidates).
	Considered int
	// Units is the number of indexed units.
	Units uint64
	// PrunedTerms counts the terms that only updated existing candidates.
	PrunedTerms int
	// PrunedBlocks counts the posting blocks of essential terms whose
	// block-max bound could not lift an unseen unit into the top k: they only
	// updated units already seen, or were skipped.
	PrunedBlocks int
	// Candidates counts the units the top K was chosen from: all that were
	// considered, or those still able to reach the top K once terms were
	// pruned.
	Candidates int
}

// Search returns the k best units for query, filtered by filter when set.
func (x *Index) Search(kv plugin.KV, query string, k int, filter func(id string) bool) ([]Hit, error) {
	r, err := x.SearchQuery(kv, Query{Text: query, K: k, Filter: filter})
	if err != nil {
		return nil, err
	}
	return r.Hits, nil
}

// QueryTerms returns the distinct terms of a query and the weight of each:
// how often it occurs times its QueryWeight. Question words (weight 0) and
// the words of a clause naming an action the user avoids (avoidedTerms)
// are left out unless the query has nothing else.
func (x *Index) QueryTerms(q string) (terms []string, qtf []float64) {
	terms, qtf = x.queryTerms(q, true)
	if len(terms) == 0 {
		terms, qtf = x.queryTerms(q, false)
	}
	return terms, qtf
}

func (x *Index) queryTerms(q string, weigh bool) (terms []string, qtf []float64) {
	seen := make(map[string]int, 16)
	qw := queryWeights(x.p.Analyzer)
	var aside map[string]bool
	if weigh {
		aside = x.avoidedTerms(q)
	}
	x.p.Analyzer.Each(q, func(t text.Token) {
		w := 1.0
		if weigh {
			if v, ok := qw[t.Term]; ok {
				w = v
			}
			if w == 0 || aside[t.Term] {
				return
			}
		}
		if i, ok := seen[t.Term]; ok {
			qtf[i] += w
			return
		}
		if len(terms) >= x.p.MaxQueryTerms {
			return
		}
		seen[t.Term] = len(terms)
		terms = append(terms, t.Term)
		qtf = append(qtf, w)
	})
	return terms, qtf
}

type qterm struct {
	list   *plist
	w      float64   // qtf * idf * (k1+1)
	ub     float64   // upper bound of the term's contribution
	blocks []float64 // block-max bounds of tf/(tf+c1+c2*dl), nil for short lists
	term   string
}

// SearchQuery runs a query.
func (x *Index) SearchQuery(kv plugin.KV, q Query) (*Result, error) {
	res := &Result{}
	if q.K <= 0 {
		return res, nil
	}
	// The terms first: an empty index still says what was searched.
	terms, qtf := x.QueryTerms(q.Text)
	res.Terms = terms
	if len(q.Extra) > 0 {
		terms, qtf = slices.Clone(terms), slices.Clone(qtf)
		for i, t := range q.Extra {
			if i < len(q.ExtraWeights) && q.ExtraWeights[i] > 0 && !slices.Contains(terms, t) {
				terms = append(terms, t)
				qtf = append(qtf, q.ExtraWeights[i])
			}
		}
	}
	st, ok, err := readStats(kv)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}
	if !ok || st.units == 0 {
		return res, nil
	}
	res.Units = st.units
	if len(terms) == 0 {
		return res, nil
	}
	v, err := x.snapshot(kv, st, terms)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}

	n := float64(st.units)
	var total float64
	for f, l := range st.fieldLen {
		total += float64(x.w[f]) * float64(l)
	}
	avgdl := total / n
	if avgdl <= 0 {
		avgdl = 1
	}
	k1, b := x.p.K1, x.p.B
	c1, c2 := k1*(1-b), k1*b/avgdl

	qts := make([]qterm, 0, len(terms))
	idfs := make([]float64, len(terms))
	res.IDF = idfs[:len(res.Terms)] // the query's own terms; Extra ones are not reported
	for i, pl := range v.lists {
		if pl == nil || len(pl.docs) == 0 {
			continue
		}
		df := float64(len(pl.docs))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		idfs[i] = idf
		w := qtf[i] * idf * (k1 + 1)
		tb := pl.bound(c1, c2, v.docDL)
		qts = append(qts, qterm{list: pl, w: w, ub: w * tb.max, blocks: tb.blocks, term: terms[i]})
	}
	if len(qts) == 0 {
		return res, nil
	}
	slices.SortFunc(qts, func(a, b qterm) int {
		if c := cmp.Compare(b.ub, a.ub); c != 0 {
			return c
		}
		return cmp.Compare(a.term, b.term)
	})
	rem := make([]float64, len(qts)+1)
	for i := len(qts) - 1; i >= 0; i-- {
		rem[i] = rem[i+1] + qts[i].ub
	}

	s := &searcher{x: x, v: v, q: &q, roles: suitedRoles(q.Act), boost: 1}
	if s.roles != 0 {
		s.boost = x.p.RoleBoost
	}
	sc := getScratch(len(v.docID), v.sources)
	defer putScratch(sc)
	s.sc = sc

	// theta is a lower bound of the final k-th best score, kept current
	// by s.live as scores accumulate (0 with a filter: no pruning then,
	// rather than calling the filter for every candidate).
	theta, maxAcc := 0.0, 0.0
	live := q.Filter == nil
	if live {
		keys := len(v.docID)
		if q.OnePerSource {
			keys = v.sources
		}
		sc.live.reset(q.K, keys)
	}
	sorted := false
	prunedAt := -1 // the term before which the pool was last cut
	acc := sc.acc
	for i, t := range qts {
		pl := t.list
		if rem[i]*s.boost >= theta {
			// Essential term: any unit may still reach the top k.
			if theta > 0 && t.blocks != nil {
				theta, maxAcc = s.essentialBlocks(t, rem[i+1], theta, maxAcc, c1, c2, &res.PrunedBlocks)
			} else {
				theta, maxAcc = s.addAll(t.w, pl.docs, pl.tf, theta, maxAcc, c1, c2)
			}
			continue
		}
		// Non-essential terms: no unit outside the candidates can reach
		// the top k. Keep only the candidates whose score plus the
		// remaining bounds can still reach the threshold, and look each up
		// in the remaining postings (a galloping search), instead of
		// walking the lists.
		if s.pool == nil {
			sc.cands = s.cutPool(sc.cands[:0], sc.touched, rem[i], theta)
			s.pool = sc.cands
		}
		res.PrunedTerms++
		if prunedAt >= 0 && prunedAt < i {
			// The threshold grew and the remaining bounds shrank since the
			// pool was last cut: drop the candidates that can no longer
			// reach the top k, so that later lists are searched for fewer
			// units.
			s.pool = s.cutPool(s.pool[:0], s.pool, rem[i], theta)
		}
		prunedAt = i
		lim := s.limit(theta, live)
		if len(s.pool)*16 < len(pl.docs) {
			// Few candidates, a long list: look them up.
			if !sorted {
				slices.Sort(s.pool)
				sorted = true
			}
			pos := 0
			for _, d := range s.pool {
				pos = gallop(pl.docs, pos, d)
				if pos == len(pl.docs) {
					break
				}
				if pl.docs[pos] == d {
					tf := float64(pl.tf[pos])
					a := acc[d] + t.w*tf/(tf+c1+c2*float64(v.docDL[d]))
					acc[d] = a
					if a > lim {
						theta = s.raise(d, a)
						lim = s.limit(theta, live)
					}
				}
			}
			continue
		}
		tfs, bits := pl.tf[:len(pl.docs)], sc.bits
		for j, d := range pl.docs {
			if bits[d/64]&(1<<(d%64)) != 0 {
				tf := float64(tfs[j])
				a := acc[d] + t.w*tf/(tf+c1+c2*float64(v.docDL[d]))
				acc[d] = a
				if a > lim {
					theta = s.raise(d, a)
					lim = s.limit(theta, live)
				}
			}
		}
	}
	s.theta = theta
	res.Considered = len(sc.touched)
	if s.pool == nil {
		s.pool = sc.touched
	}
	res.Candidates = len(s.pool)
	top := s.top()
	res.Hits = make([]Hit, len(top))
	for i, c := range top {
		res.Hits[i] = Hit{ID: v.docID[c.doc], SourceID: v.docSrc[c.doc], Score: c.score}
	}
	return res, nil
}

// searcher selects the best candidates of one query.
type searcher struct {
	x     *Index
	v     *view
	q     *Query
	sc    *scratch
	roles uint32
	boost float64
	memo  map[uint32]bool
	pool  []uint32 // the units the top k is chosen from (nil: all touched)
	theta float64  // the final threshold: a lower bound of the k-th score
}

// cutPool appends to kept the units of from whose accumulated score plus
// the remaining bound r, boosted where the unit's role suits the question,
// can still reach theta, and leaves the candidate bits marking the kept
// units and none of the others of from. kept may share from's array (a cut
// in place). The candidate bits are cleared through sc.cands, so the first
// cut, of the touched units, must keep into sc.cands. (boostOf and the
// marking are inlined by hand: the first cut walks every touched unit.)
func (s *searcher) cutPool(kept, from []uint32, r, theta float64) []uint32 {
	acc, bits := s.sc.acc, s.sc.bits
	roles, boost, docRole := s.roles, s.boost, s.v.docRole
	for _, d := range from {
		bo := 1.0
		if roles != 0 && roles&(1<<docRole[d]) != 0 {
			bo = boost
		}
		if (acc[d]+r)*bo*boundSlack >= theta {
			kept = append(kept, d)
			bits[d/64] |= 1 << (d % 64)
		} else {
			bits[d/64] &^= 1 << (d % 64)
		}
	}
	return kept
}

// boundSlack widens bounds compared with a threshold, so that rounding
// (bounds and scores add the same terms in different orders) never prunes a
// unit whose score equals the threshold.
const boundSlack = 1 + 1e-9

// essentialBlocks adds essential term t block by block (block-max pruning):
// a block whose bound plus the remaining terms' bounds (rest) cannot reach
// threshold theta adds only to the units already touched, or is skipped when
// even the best accumulated score so far (maxAcc) cannot reach it. A unit left
// out can never reach theta, a lower bound of the final k-th score, so a
// partial score it may collect later stays below the threshold and out of
// the top k. It returns the threshold (raised as scores grow) and the new
// maxAcc, and counts the pruned blocks in pruned.
func (s *searcher) essentialBlocks(t qterm, rest, theta, maxAcc, c1, c2 float64, pruned *int) (float64, float64) {
	pl := t.list
	for b, bm := range t.blocks {
		lo := b * blockSize
		hi := min(lo+blockSize, len(pl.docs))
		bb := t.w*bm + rest
		switch {
		case bb*s.boost*boundSlack >= theta:
			// Any unit of the block may still reach the top k.
			theta, maxAcc = s.addAll(t.w, pl.docs[lo:hi], pl.tf[lo:hi], theta, maxAcc, c1, c2)
		case (maxAcc+bb)*s.boost*boundSlack < theta:
			*pruned++
		default:
			// Only units already touched may still reach the top k.
			*pruned++
			theta, maxAcc = s.add(t.w, pl.docs[lo:hi], pl.tf[lo:hi], theta, maxAcc, c1, c2, true)
		}
	}
	return theta, maxAcc
}

// addAll adds a term of weight w to every unit of the postings docs, tfs
// (equal lengths), recording the units touched for the first time (see add).
func (s *searcher) addAll(w float64, docs []uint32, tfs []float32, theta, maxAcc, c1, c2 float64) (float64, float64) {
	return s.add(w, docs, tfs, theta, maxAcc, c1, c2, false)
}

// add adds a term of weight w to the units of the postings docs, tfs
// (equal lengths): with onlyTouched to the units already touched alone,
// else to every unit, recording those touched for the first time. It
// returns threshold theta and maxAcc, the best accumulated score, as raised
// by the units whose partial score can enter the live top k. The postings
// are resliced so that their reads need no bounds checks, and touched is
// kept in a local with room made for every unit first.
func (s *searcher) add(w float64, docs []uint32, tfs []float32, theta, maxAcc, c1, c2 float64, onlyTouched bool) (float64, float64) {
	acc, docDL, sc := s.sc.acc, s.v.docDL, s.sc
	live := s.q.Filter == nil
	lim := s.limit(theta, live)
	tfs = tfs[:len(docs)]
	touched := sc.touched
	if !onlyTouched {
		touched = slices.Grow(touched, len(docs))
	}
	for j, d := range docs {
		a := acc[d]
		if a == 0 {
			if onlyTouched {
				continue
			}
			touched = append(touched, d)
		}
		tf := float64(tfs[j])
		a += w * tf / (tf + c1 + c2*float64(docDL[d]))
		acc[d] = a
		if a > maxAcc {
			maxAcc = a
		}
		if a > lim {
			theta = s.raise(d, a)
			lim = s.limit(theta, live)
		}
	}
	sc.touched = touched
	return theta, maxAcc
}

// limit returns the partial score above which a unit may raise threshold
// theta: theta divided by the largest role boost, or +Inf when the
// threshold is not kept (a filtered query).
func (s *searcher) limit(theta float64, live bool) float64 {
	if !live {
		return math.Inf(1)
	}
	return theta / s.boost
}

// raise records unit d's partial score a in the live top k and returns the
// threshold.
func (s *searcher) raise(d uint32, a float64) float64 {
	v := a
	if s.roles != 0 && s.roles&(1<<s.v.docRole[d]) != 0 {
		v *= s.boost
	}
	key := int32(d)
	if s.q.OnePerSource {
		key = s.v.docSrcN[d]
	}
	return s.sc.live.raise(key, v)
}

// gallop returns the first index >= from whose doc is >= d (len(docs) when
// none), probing exponentially then bisecting.
func gallop(docs []uint32, from int, d uint32) int {
	if from >= len(docs) || docs[from] >= d {
		return from
	}
	step := 1
	lo, hi := from, from+1
	for hi < len(docs) && docs[hi] < d {
		lo = hi
		step *= 2
		hi = from + step
	}
	if hi > len(docs) {
		hi = len(docs)
	}
	// docs[lo] < d; answer in (lo, hi].
	return lo + 1 + sort.Search(hi-lo-1, func(i int) bool { return docs[lo+1+i] >= d })
}

type scored struct {
	doc   uint32
	score float64
}

func (s *searcher) final(d uint32) float64 {
	a := s.sc.acc[d]
	if s.roles != 0 && s.roles&(1<<s.v.docRole[d]) != 0 {
		a *= s.boost
	}
	return a
}

func (s *searcher) pass(d uint32) bool {
	if s.q.Filter == nil {
		return true
	}
	if ok, seen := s.memo[d]; seen {
		return ok
	}
	if s.memo == nil {
		s.memo = make(map[uint32]bool)
	}
	ok := s.q.Filter(s.v.id(d))
	s.memo[d] = ok
	return ok
}

// worse orders candidates: lower score first; ties keep document order
// within a source and rank by id across sources, so the order does not
// depend on how documents happen to be numbered.
func (s *searcher) worse(a, b scored) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	if s.v.docSrcN[a.doc] == s.v.docSrcN[b.doc] {
		return a.doc > b.doc
	}
	return s.v.id(a.doc) > s.v.id(b.doc)
}

// top returns the best k candidates, best first.
func (s *searcher) top() []scored {
	h := s.heap()
	slices.SortFunc(h, func(a, b scored) int {
		if s.worse(a, b) {
			return 1
		}
		if s.worse(b, a) {
			return -1
		}
		return 0
	})
	return h
}

// heap builds a min-heap (worst on top) of the k best candidates.
func (s *searcher) heap() []scored {
	k := s.q.K
	h := make([]scored, 0, min(k, len(s.pool)))
	push := func(c scored) {
		if len(h) < k {
			h = append(h, c)
			for i := len(h) - 1; i > 0; {
				p := (i - 1) / 2
				if !s.worse(h[i], h[p]) {
					break
				}
				h[i], h[p] = h[p], h[i]
				i = p
			}
			return
		}
		if !s.worse(h[0], c) {
			return
		}
		h[0] = c
		for i := 0; ; {
			l, r, m := 2*i+1, 2*i+2, i
			if l < len(h) && s.worse(h[l], h[m]) {
				m = l
			}
			if r < len(h) && s.worse(h[r], h[m]) {
				m = r
			}
			if m == i {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	full := func(sc float64) bool { return sc < s.theta || len(h) == k && sc < h[0].score }
	if !s.q.OnePerSource {
		for _, d := range s.pool {
			sc := s.final(d)
			if full(sc) || !s.pass(d) {
				continue
			}
			push(scored{d, sc})
		}
		return h
	}
	// Best unit per source first (ties: the earlier unit).
	best, bestDoc := s.sc.best, s.sc.bestDoc
	srcs := s.sc.srcTouched[:0]
	for _, d := range s.pool {
		sc := s.final(d)
		if sc < s.theta {
			continue
		}
		si := s.v.docSrcN[d]
		cur := best[si]
		if cur != 0 && (sc < cur || sc == cur && d > bestDoc[si]) {
			continue
		}
		if !s.pass(d) {
			continue
		}
		if cur == 0 {
			srcs = append(srcs, si)
		}
		best[si], bestDoc[si] = sc, d
	}
	for _, si := range srcs {
		if sc := best[si]; !full(sc) {
			push(scored{bestDoc[si], sc})
		}
		best[si] = 0
	}
	s.sc.srcTouched = srcs
	return h
}

// scratch is the per-query working memory, pooled.
type scratch struct {
	cands      []uint32
	bits       []uint64 // candidate set, cleared through cands
	acc        []float64
	touched    []uint32
	best       []float64
	bestDoc    []uint32
	srcTouched []int32
	live       liveTop
}

var scratchPool sync.Pool

func getScratch(docs, srcs int) *scratch {
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	if cap(sc.acc) < docs {
		sc.acc = make([]float64, docs, docs+docs/4)
	}
	sc.acc = sc.acc[:docs]
	if words := (docs + 63) / 64; cap(sc.bits) < words {
		sc.bits = make([]uint64, words, words+words/4)
	} else {
		sc.bits = sc.bits[:words]
	}
	if cap(sc.best) < srcs {
		sc.best = make([]float64, srcs, srcs+srcs/4)
		sc.bestDoc = make([]uint32, srcs, srcs+srcs/4)
	}
	sc.best, sc.bestDoc = sc.best[:srcs], sc.bestDoc[:srcs]
	return sc
}

func putScratch(sc *scratch) {
	// Clear what was touched, or everything when that is most of it (one
	// sequential clear instead of scattered stores).
	if len(sc.touched) > len(sc.acc)/8 {
		clear(sc.acc)
	} else {
		for _, d := range sc.touched {
			sc.acc[d] = 0
		}
	}
	if len(sc.cands) > len(sc.bits)/2 {
		clear(sc.bits)
	} else {
		for _, d := range sc.cands {
			sc.bits[d/64] = 0
		}
	}
	sc.touched = sc.touched[:0]
	sc.cands = sc.cands[:0]
	sc.live.clear()
	scratchPool.Put(sc)
}

// Confidence is how strongly the best hit matched: its score over the
// largest score the query's own terms could give a unit (each term's
// idf*(k1+1), the limit of its contribution as its frequency grows), for
// the index's k1. It is near 1 when the best unit holds every query term
// many times, lower when it matched few or only common ones, and 0 when
// nothing matched. A role boost can lift it above 1.
func (r *Result) Confidence(k1 float64) float64 {
	if len(r.Hits) == 0 {
		return 0
	}
	var most float64
	for _, idf := range r.IDF {
		most += idf * (k1 + 1)
	}
	if most <= 0 {
		return 0
	}
	return r.Hits[0].Score / most
}
