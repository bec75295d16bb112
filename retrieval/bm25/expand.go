package bm25

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/mrpvm/mrpvm/plugin"
)

// Relative is a term related in meaning to a query term (a synonym, a
// derived form), with the share of the query term's weight it may carry,
// in (0, 1].
type Relative struct {
	Term   string
	Weight float64
}

// Expansion bounds and thresholds.
const (
	// expandCandidates is how many of a term's relatives that the index
	// holds are weighed (the first ones related returns).
	expandCandidates = 16
	// commonShare: a relative held by more than this share of the units
	// (and more than minCommon units) is too common to tell pages apart
	// and is not weighed.
	commonShare = 0.05
	minCommon   = 200
	// maxRelativesPerTerm and maxRelatives bound the relatives kept per
	// query term and in all.
	maxRelativesPerTerm = 3
	maxRelatives        = 12
	// minCooccur is the number of sources a relative must share with one
	// of the question's other words to count as used in the question's
	// sense.
	minCooccur = 2
	// fullLift is the lift at which a relative carries its whole share;
	// minLift the least it needs.
	fullLift = 16.0
	minLift  = 2.0
	// aloneShare scales the share of a relative of a question's only
	// word: with no other word to tell its sense, it counts for less.
	aloneShare = 0.5
)

// variantShare is the share of a query word's weight carried by another
// spelling of it that the index holds: the plural the stemmer leaves alone
// ("cpus" for "cpu") or the hyphenated compound of a word written as one
// ("upper-case" for "uppercase").
const variantShare = 0.9

// cand is a candidate relative of a query term.
type cand struct {
	term    string
	share   float64
	variant bool // another spelling of the query term itself
}

// Expand returns index terms to search besides a query's own (for
// Query.Extra) and their weights: relatives (from related) of the query
// terms of full weight (question words and light verbs are not expanded)
// that the index holds and that it uses in the sense the question does,
// so the words a question uses reach the words the knowledge base uses for
// the same thing.
//
// A word has many senses and a general lexicon lists relatives of all of
// them ("capital": uppercase, asset, seat). The knowledge base tells which
// sense the question means: a relative is kept only when the sources that
// use it also use a word of the question (the word itself or another)
// far more often than
// sources do in general (its lift: the share of the relative's sources
// holding the other word over that word's share of all sources, at least
// minLift, in at least minCooccur sources, or in every source of a relative
// held by fewer); it carries its full share of
// the query term's weight from fullLift up, less below. A relative of a
// question's only content word has no such evidence and carries
// aloneShare of its share.
//
// A relative never weighs more than its share of the term it stands for
// in what it can add to a unit's score: its weight is capped so that its
// idf times its weight is at most the query term's own idf times the
// term's weight times the share. A rare relative of a common word
// therefore cannot outscore the word itself, and a unit that holds the
// word the question used outranks one that holds only its relative. A
// query term the index does not hold passes its share to its relatives
// uncapped (they are all the question has for it). A relative of several
// query terms takes the largest weight; at most maxRelativesPerTerm per
// term and maxRelatives in all are kept, the heaviest.
func (x *Index) Expand(kv plugin.KV, terms []string, qtf []float64, related func(term string) []Relative) ([]string, []float64, error) {
	if len(terms) == 0 {
		return nil, nil, nil
	}
	if related == nil {
		related = func(string) []Relative { return nil }
	}
	st, ok, err := readStats(kv)
	if err != nil {
		return nil, nil, fmt.Errorf("bm25: expand: %w", err)
	}
	if !ok || st.units == 0 {
		return nil, nil, nil
	}
	own := make(map[string]bool, len(terms))
	for _, t := range terms {
		own[t] = true
	}
	// The content words and the candidate relatives of each: first its
	// own variant spellings, then its relatives and theirs.
	var content []int // indexes into terms
	cands := map[int][]cand{}
	var all []string
	x.vmu.Lock()
	voc, err := x.vocabFor(kv, st)
	if err != nil {
		x.vmu.Unlock()
		return nil, nil, fmt.Errorf("bm25: expand: %w", err)
	}
	common := uint32(max(commonShare*float64(st.units), minCommon))
	usable := func(t string) bool {
		f := voc.freq(t)
		return !own[t] && x.QueryWeight(t) >= 1 && !isNumber(t) && f > 0 && f <= common
	}
	variants := func(t string) []string {
		out := voc.joinedTerms(x.p.Analyzer, t)
		if p := t + "s"; voc.freq(p) > 0 {
			out = append(out, p)
		}
		return out
	}
	for i, t := range terms {
		if x.QueryWeight(t) < 1 || qtf[i] <= 0 {
			continue
		}
		content = append(content, i)
		add := func(c cand) {
			if usable(c.term) && !slices.ContainsFunc(cands[i], func(o cand) bool { return o.term == c.term }) {
				cands[i] = append(cands[i], c)
				all = append(all, c.term)
			}
		}
		for _, v := range variants(t) {
			add(cand{term: v, share: variantShare, variant: true})
		}
		n := 0
		for _, r := range related(t) {
			if n >= expandCandidates {
				break
			}
			if r.Weight <= 0 {
				continue
			}
			if usable(r.Term) {
				n++
				add(cand{term: r.Term, share: min(r.Weight, 1)})
			}
			for _, v := range variants(r.Term) {
				add(cand{term: v, share: min(r.Weight, 1) * variantShare})
			}
		}
	}
	x.vmu.Unlock()
	if len(all) == 0 {
		return nil, nil, nil
	}
	lookup := make([]string, 0, len(content)+len(all))
	for _, i := range content {
		lookup = append(lookup, terms[i])
	}
	lookup = append(lookup, all...)
	v, err := x.snapshot(kv, st, lookup)
	if err != nil {
		return nil, nil, fmt.Errorf("bm25: expand: %w", err)
	}
	nsrc := float64(v.sources)
	words := (v.sources + 63) / 64
	srcSet := func(pl *plist) ([]uint64, int) {
		if pl == nil {
			return nil, 0
		}
		set := make([]uint64, words)
		n := 0
		for _, d := range pl.docs {
			s := v.docSrcN[d]
			if set[s/64]&(1<<(s%64)) == 0 {
				set[s/64] |= 1 << (s % 64)
				n++
			}
		}
		return set, n
	}
	type termSet struct {
		set []uint64
		n   int
	}
	ctx := make([]termSet, len(content))
	for j := range content {
		ctx[j].set, ctx[j].n = srcSet(v.lists[j])
	}
	n := float64(st.units)
	idf := func(pl *plist) float64 {
		if pl == nil || len(pl.docs) == 0 {
			return 0
		}
		d := float64(len(pl.docs))
		return math.Log(1 + (n-d+0.5)/(d+0.5))
	}
	got := map[string]float64{}
	at := len(content)
	for j, i := range content {
		w := qtf[i]
		tidf := idf(v.lists[j])
		type kept struct {
			t string
			w float64
		}
		var mine []kept
		for _, r := range cands[i] {
			pl := v.lists[at]
			at++
			rset, rn := srcSet(pl)
			if rn == 0 {
				continue
			}
			share := r.share
			if !r.variant && (len(content) > 1 || ctx[j].n > 0) {
				best := 0.0
				for _, o := range ctx {
					if o.n == 0 {
						continue
					}
					both := 0
					for b := range rset {
						both += bits.OnesCount64(rset[b] & o.set[b])
					}
					if both < min(minCooccur, rn) {
						continue
					}
					best = max(best, float64(both)/float64(rn)/(float64(o.n)/nsrc))
				}
				if best < minLift {
					continue
				}
				share *= min(1, math.Log(best)/math.Log(fullLift))
			} else if !r.variant {
				share *= aloneShare
			}
			rw := w * share
			if tidf > 0 {
				rw = min(rw, w*share*tidf/idf(pl))
			}
			mine = append(mine, kept{r.term, rw})
		}
		slices.SortStableFunc(mine, func(a, b kept) int { return cmp.Compare(b.w, a.w) })
		for k, m := range mine {
			if k >= maxRelativesPerTerm {
				break
			}
			got[m.t] = max(got[m.t], m.w)
		}
	}
	if len(got) == 0 {
		return nil, nil, nil
	}
	order := make([]string, 0, len(got))
	for t := range got {
		order = append(order, t)
	}
	slices.SortFunc(order, func(a, b string) int {
		if c := cmp.Compare(got[b], got[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(order) > maxRelatives {
		order = order[:maxRelatives]
	}
	ws := make([]float64, len(order))
	for i, t := range order {
		ws[i] = got[t]
	}
	return order, ws, nil
}
