package thinkingdb

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/bm25"
)

// Params bound the closure and weigh the fusion. DefaultParams holds the
// design's figures.
type Params struct {
	// Analyzer normalises entities and queries; text.English() when nil.
	Analyzer *text.Analyzer

	MaxSeeds         int     // seed facts matched to the query (8)
	MinSeedMatch     float64 // share of the query's idf a seed must match (0.2)
	Depth            int     // breadth-first neighbourhood depth (3)
	MaxNeighbourhood int     // facts in the working set before chaining (256)
	MaxRounds        int     // forward-chaining rounds (3)
	MaxDerived       int     // derived facts (64)
	MaxProofs        int     // proofs scored (32)
	Keep             int     // proofs kept (12)

	StepPenalty    float64 // score x 1/(1 + StepPenalty*steps) (0.25)
	GoalBonus      float64 // x when the conclusion reaches the goal (1.15)
	SeedBonus      float64 // x when the chain starts at a seed (1.1)
	NeighbourDecay float64 // a neighbour fact at depth d weighs conf*decay^d (0.7)

	// Fusion: strategy weights (bm25 1.0, thinkingdb 0.85) and the bonus
	// when a unit is both in the BM25 top AgreeTop and cited by a proof.
	BM25Weight, TDBWeight, AgreeBonus float64
	AgreeTop                          int
}

// DefaultParams returns the closure's bounds and scoring (those the package
// documentation states). The fusion weights are tuned on the SciFact
// training queries: the units cited by proofs are often matched on a single
// query word, so with a large weight they displace better BM25 hits; 0.05
// and 0.02 keep the proofs as a tie-breaking signal.
func DefaultParams() Params {
	return Params{
		MaxSeeds: 8, MinSeedMatch: 0.2, Depth: 3, MaxNeighbourhood: 256, MaxRounds: 3, MaxDerived: 64,
		MaxProofs: 32, Keep: 12,
		StepPenalty: 0.25, GoalBonus: 1.15, SeedBonus: 1.1, NeighbourDecay: 0.7,
		BM25Weight: 1.0, TDBWeight: 0.05, AgreeBonus: 0.02, AgreeTop: 10,
	}
}

// rule is a two-premise Horn rule. With join "chain" it reads
// p1(X,Y) ∧ p2(Y,Z) → concl(X,Z); with join "object" it reads
// p1(X,Y) ∧ p2(Z,Y) → concl(X,Z).
type rule struct {
	name     string
	p1, p2   Relation
	concl    Relation
	byObject bool
	weight   float64
}

// rules: uses+provides -> has_capability,
// provides/supports/depends_on -> relevant_for, transitive depends_on,
// causal chains, and the transitive part/kind hierarchies.
var rules = func() []rule {
	rs := []rule{
		{"uses+provides->has_capability", Uses, Provides, HasCapability, false, 0.9},
		{"uses+has_capability->has_capability", Uses, HasCapability, HasCapability, false, 0.85},
		{"depends_on+depends_on->depends_on", DependsOn, DependsOn, DependsOn, false, 0.9},
		{"causes+causes->causes", Causes, Causes, Causes, false, 0.8},
		{"supports+causes->causes", Supports, Causes, Causes, false, 0.7},
		{"part_of+part_of->part_of", PartOf, PartOf, PartOf, false, 0.9},
		{"instance_of+instance_of->instance_of", InstanceOf, InstanceOf, InstanceOf, false, 0.9},
		{"provides+relevant_for->relevant_for", Provides, RelevantFor, RelevantFor, false, 0.8},
		{"supports+relevant_for->relevant_for", Supports, RelevantFor, RelevantFor, false, 0.8},
		{"depends_on+relevant_for->relevant_for", DependsOn, RelevantFor, RelevantFor, false, 0.75},
		{"causes+relevant_for->relevant_for", Causes, RelevantFor, RelevantFor, false, 0.7},
		{"provides+depended_on->relevant_for", Provides, DependsOn, RelevantFor, true, 0.85},
		{"supports+depended_on->relevant_for", Supports, DependsOn, RelevantFor, true, 0.8},
	}
	for _, r := range []Relation{Uses, Provides, HasCapability, DependsOn, Causes} {
		rs = append(rs, rule{"instance_of+" + r.String() + "->" + r.String(), InstanceOf, r, r, false, 0.8})
	}
	return rs
}()

// Query is a reasoning request.
type Query struct {
	Text string
	// Terms and IDF (aligned) weigh the query terms, usually from BM25;
	// when Terms is empty the text is analysed and every term weighs 1.
	Terms []string
	IDF   []float64
}

// Proof is a derivation: a conclusion and the base facts it rests on, in
// chain order, each citing its KU. A seed fact that matched the query is a
// proof of zero steps.
type Proof struct {
	Conclusion  Fact
	Premises    []Fact
	Rules       []string
	Steps       int
	Score       float64
	FromSeed    bool
	ReachesGoal bool
}

// KUs returns the ids of the KUs the proof cites, in chain order, once each.
func (p *Proof) KUs() []string {
	var out []string
	for _, f := range p.Premises {
		if f.KU != "" && !slices.Contains(out, f.KU) {
			out = append(out, f.KU)
		}
	}
	return out
}

// String renders the proof as "premise; premise => conclusion".
func (p *Proof) String() string {
	parts := make([]string, len(p.Premises))
	for i, f := range p.Premises {
		parts[i] = fmt.Sprintf("%s %s %s [%s]", f.Subject, f.Relation, f.Object, f.KU)
	}
	if p.Steps == 0 {
		return strings.Join(parts, "; ")
	}
	c := p.Conclusion
	return fmt.Sprintf("%s => %s %s %s (%s)", strings.Join(parts, "; "), c.Subject, c.Relation, c.Object, strings.Join(p.Rules, ", "))
}

// Reasoning is the outcome of the closure.
type Reasoning struct {
	Seeds      []Fact
	Proofs     []Proof // best first, at most Keep
	Considered int     // facts in the working set
	Derived    int     // facts derived
	Facts      uint64  // facts in the store
}

// node is a fact of the working set.
type node struct {
	f      *Fact
	score  float64
	steps  int
	seed   bool   // the chain starts at a seed
	prem   [2]int // premises in the working set; -1 for a base fact
	rule   string
	isSeed bool
}

// Warm builds the in-memory fact graph of the index stored in kv, as the
// first Reason would.
func (x *Index) Warm(kv plugin.KV) error {
	st, ok, err := readStats(kv)
	if err != nil {
		return fmt.Errorf("thinkingdb: warm: %w", err)
	}
	if !ok {
		return nil
	}
	if _, err := x.snapshot(kv, st); err != nil {
		return fmt.Errorf("thinkingdb: warm: %w", err)
	}
	return nil
}

// Reason runs the bounded closure for a query.
func (x *Index) Reason(kv plugin.KV, q Query) (*Reasoning, error) {
	res := &Reasoning{}
	st, ok, err := readStats(kv)
	if err != nil {
		return nil, fmt.Errorf("thinkingdb: reason: %w", err)
	}
	if !ok {
		return res, nil
	}
	res.Facts = st.facts
	g, err := x.snapshot(kv, st)
	if err != nil {
		return nil, fmt.Errorf("thinkingdb: reason: %w", err)
	}
	idf := x.queryWeights(q)
	if len(idf) == 0 || len(g.facts) == 0 {
		return res, nil
	}
	total := 0.0
	for _, w := range idf {
		total += w
	}

	// Seeds: the facts whose entities share the most query weight.
	cands := g.seeds(idf, total, x.p.MinSeedMatch, x.p.MaxSeeds)
	if len(cands) == 0 {
		return res, nil
	}

	var work []node
	inWork := make(map[int32]bool, x.p.MaxNeighbourhood)
	for _, c := range cands {
		f := g.facts[c.id]
		res.Seeds = append(res.Seeds, *f)
		work = append(work, node{f: f, score: f.Confidence * (0.5 + 0.5*c.m), seed: true, isSeed: true, prem: [2]int{-1, -1}})
		inWork[c.id] = true
	}

	// Breadth-first neighbourhood over shared entities.
	frontier := map[string]bool{}
	for _, n := range work {
		frontier[n.f.SubjectKey], frontier[n.f.ObjectKey] = true, true
	}
	seenEntity := maps(frontier)
	decay := 1.0
	for depth := 1; depth <= x.p.Depth && len(frontier) > 0 && len(work) < x.p.MaxNeighbourhood; depth++ {
		decay *= x.p.NeighbourDecay
		next := map[string]bool{}
	entities:
		for _, e := range sortedKeys(frontier) {
			ent, ok := g.entityOf[e]
			if !ok {
				continue
			}
			for _, id := range g.byEntity[ent] {
				if len(work) >= x.p.MaxNeighbourhood {
					break entities // nothing more is added
				}
				if inWork[id] {
					continue
				}
				inWork[id] = true
				f := g.facts[id]
				work = append(work, node{f: f, score: f.Confidence * decay, prem: [2]int{-1, -1}})
				for _, o := range []string{f.SubjectKey, f.ObjectKey} {
					if !seenEntity[o] {
						seenEntity[o] = true
						next[o] = true
					}
				}
			}
		}
		frontier = next
	}
	res.Considered = len(work)

	// Forward chaining.
	present := make(map[[3]string]bool, len(work))
	for _, n := range work {
		present[tripleKey(n.f)] = true
	}
	goal := func(f *Fact) bool { return overlaps(f.SubjectKey, idf) && overlaps(f.ObjectKey, idf) }
	derived := 0
	for round := 0; round < x.p.MaxRounds && derived < x.p.MaxDerived; round++ {
		bySubj := make(map[string][]int, len(work))
		byObj := make(map[string][]int, len(work))
		for i, n := range work {
			bySubj[n.f.SubjectKey] = append(bySubj[n.f.SubjectKey], i)
			byObj[n.f.ObjectKey] = append(byObj[n.f.ObjectKey], i)
		}
		limit := len(work)
		added := false
		for _, r := range rules {
			for i := 0; i < limit && derived < x.p.MaxDerived; i++ {
				a := work[i]
				if a.f.Relation != r.p1 {
					continue
				}
				partners := bySubj[a.f.ObjectKey]
				if r.byObject {
					partners = byObj[a.f.ObjectKey]
				}
				for _, j := range partners {
					if j == i || j >= limit || derived >= x.p.MaxDerived {
						continue
					}
					b := work[j]
					if b.f.Relation != r.p2 {
						continue
					}
					c := &Fact{Relation: r.concl, Subject: a.f.Subject, SubjectKey: a.f.SubjectKey}
					if r.byObject {
						c.Object, c.ObjectKey = b.f.Subject, b.f.SubjectKey
					} else {
						c.Object, c.ObjectKey = b.f.Object, b.f.ObjectKey
					}
					if c.SubjectKey == c.ObjectKey || present[tripleKey(c)] {
						continue
					}
					present[tripleKey(c)] = true
					steps := a.steps + b.steps + 1
					s := a.score * b.score * r.weight / (1 + x.p.StepPenalty*float64(steps))
					c.Confidence = s
					n := node{f: c, steps: steps, seed: a.seed, prem: [2]int{i, j}, rule: r.name}
					if goal(c) {
						s *= x.p.GoalBonus
					}
					if n.seed {
						s *= x.p.SeedBonus
					}
					n.score = s
					work = append(work, n)
					derived++
					added = true
				}
			}
		}
		if !added {
			break
		}
	}
	res.Derived = derived

	// Proofs: the derived facts and the seeds, best first.
	var proofs []Proof
	for i := range work {
		n := &work[i]
		if n.prem[0] < 0 && !n.isSeed {
			continue
		}
		p := Proof{Conclusion: *n.f, Steps: n.steps, Score: n.score, FromSeed: n.seed}
		if n.prem[0] >= 0 {
			p.ReachesGoal = goal(n.f)
		}
		collect(work, i, &p)
		proofs = append(proofs, p)
	}
	slices.SortStableFunc(proofs, func(a, b Proof) int { return cmp.Compare(b.Score, a.Score) })
	if len(proofs) > x.p.MaxProofs {
		proofs = proofs[:x.p.MaxProofs]
	}
	if len(proofs) > x.p.Keep {
		proofs = proofs[:x.p.Keep]
	}
	res.Proofs = proofs
	return res, nil
}

// collect gathers the base premises and rules of node i, depth first.
func collect(work []node, i int, p *Proof) {
	n := &work[i]
	if n.prem[0] < 0 {
		p.Premises = append(p.Premises, *n.f)
		return
	}
	collect(work, n.prem[0], p)
	collect(work, n.prem[1], p)
	p.Rules = append(p.Rules, n.rule)
}

// maxQueryTerms caps the distinct terms taken from a query's text.
const maxQueryTerms = 512

// queryWeights returns the query's terms with their weights.
func (x *Index) queryWeights(q Query) map[string]float64 {
	w := map[string]float64{}
	if len(q.Terms) > 0 {
		for i, t := range q.Terms {
			v := 1.0
			if i < len(q.IDF) {
				v = q.IDF[i]
			}
			if v > 0 {
				w[t] = v
			}
		}
		return w
	}
	x.ex.analyzer().Each(q.Text, func(t text.Token) {
		if len(w) < maxQueryTerms {
			w[t.Term] = 1
		}
	})
	return w
}

func overlaps(key string, terms map[string]float64) bool {
	for _, t := range strings.Fields(key) {
		if _, ok := terms[t]; ok {
			return true
		}
	}
	return false
}

func maps(m map[string]bool) map[string]bool {
	c := make(map[string]bool, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func sortedKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// sortFacts orders facts by source, KU and triple.
func sortFacts(fs []*Fact) {
	slices.SortFunc(fs, func(a, b *Fact) int {
		if c := strings.Compare(a.Source, b.Source); c != 0 {
			return c
		}
		if c := strings.Compare(a.KU, b.KU); c != 0 {
			return c
		}
		ka, kb := tripleKey(a), tripleKey(b)
		for i := range ka {
			if c := strings.Compare(ka[i], kb[i]); c != 0 {
				return c
			}
		}
		return 0
	})
}

// Candidate is a first-stage hit: the BM25 index's.
type Candidate = bm25.Hit

// Ranked is a fused result with its score parts and the proofs citing it.
type Ranked struct {
	ID       string
	SourceID string
	Score    float64 // fused
	BM25     float64 // first-stage score (0 when only a proof found it)
	TDB      float64 // best proof score citing the unit, normalised to [0, 1]
	Agree    bool
	Proofs   []int // indexes into Reasoning.Proofs
}

// Fuse merges the first-stage ranking with the units the proofs cite:
// BM25Weight*bm25/max + TDBWeight*proof/max (+AgreeBonus when both
// strategies rank the unit), keeping the best k (one per source when asked).
func (x *Index) Fuse(cands []Candidate, r *Reasoning, k int, onePerSource bool) []Ranked {
	if k <= 0 {
		return nil
	}
	byID := make(map[string]int, len(cands)+16)
	out := make([]Ranked, 0, len(cands)+16)
	maxBM := 0.0
	for _, c := range cands {
		if _, dup := byID[c.ID]; dup {
			continue
		}
		byID[c.ID] = len(out)
		out = append(out, Ranked{ID: c.ID, SourceID: c.SourceID, BM25: c.Score})
		maxBM = max(maxBM, c.Score)
	}
	// bmRank[i] is the first-stage rank of out[i] (units added by proofs
	// alone have none).
	bmRank := make([]int, len(out))
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(out[b].BM25, out[a].BM25) })
	for rank, i := range order {
		bmRank[i] = rank
	}
	maxProof := 0.0
	if r != nil {
		for _, p := range r.Proofs {
			maxProof = max(maxProof, p.Score)
		}
		for pi, p := range r.Proofs {
			for _, f := range p.Premises {
				if f.KU == "" {
					continue
				}
				i, ok := byID[f.KU]
				if !ok {
					i = len(out)
					byID[f.KU] = i
					out = append(out, Ranked{ID: f.KU, SourceID: f.Source})
				}
				if !slices.Contains(out[i].Proofs, pi) {
					out[i].Proofs = append(out[i].Proofs, pi)
				}
				if maxProof > 0 {
					out[i].TDB = max(out[i].TDB, p.Score/maxProof)
				}
			}
		}
	}
	for i := range out {
		u := &out[i]
		u.Score = x.p.BM25Weight*bm25.OfBest(u.BM25, maxBM) + x.p.TDBWeight*u.TDB
		if i < len(bmRank) && bmRank[i] < x.p.AgreeTop && u.TDB > 0 {
			u.Score += x.p.AgreeBonus
			u.Agree = true
		}
		if math.IsNaN(u.Score) {
			u.Score = 0
		}
	}
	// Sort positions rather than the units themselves (large structs).
	order = order[:0]
	for i := range out {
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(out[b].Score, out[a].Score); c != 0 {
			return c
		}
		return strings.Compare(out[a].ID, out[b].ID)
	})
	if onePerSource {
		// The best unit of each source, until k are kept.
		seen := make(map[string]bool, min(k, len(order)))
		kept := order[:0]
		for _, i := range order {
			if len(kept) == k {
				break
			}
			if !seen[out[i].SourceID] {
				seen[out[i].SourceID] = true
				kept = append(kept, i)
			}
		}
		order = kept
	}
	if len(order) > k {
		order = order[:k]
	}
	ranked := make([]Ranked, len(order))
	for j, i := range order {
		ranked[j] = out[i]
	}
	return ranked
}
