package ireval

import (
	"cmp"
	"math"
	"slices"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/bm25"
)

// Exhaustive is the naive baseline of the query-speed comparison: it keeps
// every unit's weighted term frequencies in memory and scores every unit
// for every query, as the original JavaScript MRP-VM's BM25 did. Scores
// follow the same formula as bm25.Index.
type Exhaustive struct {
	p     bm25.Params
	units []exUnit
	df    map[string]int
	avgdl float64
}

type exUnit struct {
	src string
	tf  map[string]float64
	dl  float64
}

// NewExhaustive analyses every unit of docs.
func NewExhaustive(p bm25.Params, docs [][]*kus.KU) *Exhaustive {
	a := p.Analyzer
	if a == nil {
		a = text.English()
	}
	e := &Exhaustive{p: p, df: map[string]int{}}
	var total float64
	for _, units := range docs {
		for _, u := range units {
			x := exUnit{src: u.SourceID, tf: map[string]float64{}}
			for f, s := range bm25.FieldTexts(u) {
				w := float64(float32(p.Weights[f]))
				if s == "" || w == 0 {
					continue
				}
				a.Each(s, func(t text.Token) {
					x.tf[t.Term] += w
					x.dl += w
				})
			}
			for t := range x.tf {
				e.df[t]++
			}
			total += x.dl
			e.units = append(e.units, x)
		}
	}
	if len(e.units) > 0 {
		e.avgdl = total / float64(len(e.units))
	}
	return e
}

// Search returns the k best sources (a source scores as its best unit).
func (e *Exhaustive) Search(query string, k int) []string {
	a := e.p.Analyzer
	if a == nil {
		a = text.English()
	}
	qt := map[string]int{}
	for _, t := range a.Append(nil, query) {
		qt[t]++
	}
	terms := make([]string, 0, len(qt))
	for t := range qt {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	n := float64(len(e.units))
	idf := make([]float64, len(terms))
	for i, t := range terms {
		df := float64(e.df[t])
		idf[i] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	k1, b := e.p.K1, e.p.B
	best := map[string]float64{}
	for _, u := range e.units {
		s := 0.0
		for i, t := range terms {
			tf := u.tf[t]
			if tf == 0 {
				continue
			}
			s += float64(qt[t]) * idf[i] * tf * (k1 + 1) / (tf + k1*(1-b+b*u.dl/e.avgdl))
		}
		if s > best[u.src] {
			best[u.src] = s
		}
	}
	type hit struct {
		src string
		s   float64
	}
	hits := make([]hit, 0, len(best))
	for src, s := range best {
		hits = append(hits, hit{src, s})
	}
	slices.SortFunc(hits, func(x, y hit) int {
		if c := cmp.Compare(y.s, x.s); c != 0 {
			return c
		}
		return cmp.Compare(x.src, y.src)
	})
	out := make([]string, 0, min(k, len(hits)))
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, h.src)
	}
	return out
}
