package bm25

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mrpvm/mrpvm/internal/bindec"
	"github.com/mrpvm/mrpvm/plugin"
)

// Feedback parameters: how many of the best sources are read, how many
// terms are added, the weight of the added terms relative to the query's
// when a ranking of pages is expanded (FeedbackWeight) and when a question
// whose own words matched weakly is (WeakFeedbackWeight: there the
// question alone is a poor guide, so what its best pages share counts for
// more), and the fields whose terms speak for what a page is about (the prose
// and the commands are left out: they mention much that the page is not
// about).
const (
	feedbackDocs       = 5
	feedbackTerms      = 4
	FeedbackWeight     = 0.3
	WeakFeedbackWeight = 0.5
	feedbackMinDocs    = 2
)

var feedbackFields = [NumFields]bool{FieldTitle: true, FieldTopic: true, FieldClaim: true, FieldDesc: true, FieldLead: true, FieldItem: true}

// Feedback returns expansion terms for a query whose first search gave
// hits (best first): the terms that the title, description and example
// fields of the best matching units share (pseudo-relevance feedback in
// the manner of RM3, with the relevance model estimated from the units'
// stored forward records). A term must occur in at least two of the units,
// so a word one page happens to use is not added. Each term's weight is
// weight (FeedbackWeight or WeakFeedbackWeight) times the square root of
// its share relative to the best term's, so the added terms reorder the
// pages the query found and can reach pages that say the same thing with
// other words, without outweighing the query.
// The query's own terms (have) are never returned.
func (x *Index) Feedback(kv plugin.KV, hits []Hit, have []string, weight float64) ([]string, []float64, error) {
	type cand struct {
		w    float64
		docs int
	}
	got := map[string]*cand{}
	seenSrc := map[string]bool{}
	used := 0
	top := 0.0
	for _, h := range hits {
		if used >= feedbackDocs {
			break
		}
		if seenSrc[h.SourceID] {
			continue
		}
		seenSrc[h.SourceID] = true
		if top == 0 {
			top = h.Score
		}
		rec, err := readRecord(kv, h.SourceID)
		if err != nil {
			return nil, nil, fmt.Errorf("feedback: %w", err)
		}
		if rec == nil {
			continue
		}
		local := slices.IndexFunc(rec.units, func(u unitInfo) bool { return u.id == h.ID })
		if local < 0 {
			continue
		}
		var ulen float64
		for f, l := range rec.units[local].lens {
			if feedbackFields[f] {
				ulen += float64(l)
			}
		}
		if ulen == 0 {
			continue
		}
		used++
		rel := h.Score / top
		for i, t := range rec.terms {
			d := decoder{bindec.Decoder{B: rec.entries[i]}}
			for len(d.B) > 0 && !d.Bad {
				num := d.Uvarint()
				mask := d.Uvarint()
				var tf float64
				for f := 0; mask != 0 && f < int(NumFields); f++ {
					if mask&(1<<f) != 0 {
						v := d.Uvarint()
						if feedbackFields[f] {
							tf += float64(v)
						}
						mask &^= 1 << f
					}
				}
				if num != uint64(local) || tf == 0 {
					continue
				}
				c := got[t]
				if c == nil {
					c = &cand{}
					got[t] = c
				}
				c.w += rel * tf / ulen
				c.docs++
			}
			if d.Bad {
				return nil, nil, fmt.Errorf("%w: record of %s", ErrCorrupt, h.SourceID)
			}
		}
	}
	for _, t := range have {
		delete(got, t)
	}
	type tw struct {
		t string
		w float64
	}
	var list []tw
	for t, c := range got {
		if c.docs >= feedbackMinDocs && x.QueryWeight(t) > 0 && !isNumber(t) {
			list = append(list, tw{t, c.w})
		}
	}
	slices.SortFunc(list, func(a, b tw) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return cmp.Compare(a.t, b.t)
	})
	if len(list) > feedbackTerms {
		list = list[:feedbackTerms]
	}
	if len(list) == 0 {
		return nil, nil, nil
	}
	terms, ws := make([]string, len(list)), make([]float64, len(list))
	best := list[0].w
	for i, e := range list {
		terms[i], ws[i] = e.t, weight*math.Sqrt(e.w/best)
	}
	return terms, ws, nil
}

func isNumber(t string) bool {
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
