package thinkingdb

import "cmp"

// seedCand is a seed candidate: a fact and the share of the query's weight
// its entities match.
type seedCand struct {
	id int32
	m  float64
}

// seedLess orders seed candidates: best match, then highest confidence,
// then lowest id.
func (g *graph) seedLess(a, b seedCand) bool {
	if c := cmp.Compare(b.m, a.m); c != 0 {
		return c < 0
	}
	if c := cmp.Compare(g.facts[b.id].Confidence, g.facts[a.id].Confidence); c != 0 {
		return c < 0
	}
	return a.id < b.id
}

// seeds returns the best max facts (in seedLess order) whose entities match
// at least minShare of the query weight total. It accumulates the match per
// class (facts naming the same entity pair share it) and merges the classes'
// facts, which are kept in confidence-then-id order, so its cost follows the
// classes the query touches plus max, not the copies of each fact.
func (g *graph) seeds(idf map[string]float64, total, minShare float64, max int) []seedCand {
	if max <= 0 {
		return nil
	}
	sc := g.scratch.Get().(*matchScratch)
	defer func() {
		for _, c := range sc.touched {
			sc.m[c] = 0
		}
		sc.touched = sc.touched[:0]
		g.scratch.Put(sc)
	}()
	for t, w := range idf {
		for _, c := range g.byTerm[t] {
			if sc.m[c] == 0 {
				sc.touched = append(sc.touched, c)
			}
			sc.m[c] += w
		}
	}
	// A heap of the qualifying classes, each at its next fact.
	type head struct {
		seedCand
		cls, pos int32
	}
	var h []head
	for _, c := range sc.touched {
		if m := sc.m[c]; m/total >= minShare {
			h = append(h, head{seedCand{g.classes[c][0], m / total}, c, 0})
		}
	}
	less := func(i, j int) bool { return g.seedLess(h[i].seedCand, h[j].seedCand) }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			if r := l + 1; r < len(h) && less(r, l) {
				l = r
			}
			if !less(l, i) {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	var out []seedCand
	for len(h) > 0 && len(out) < max {
		top := &h[0]
		out = append(out, top.seedCand)
		ids := g.classes[top.cls]
		if top.pos++; int(top.pos) < len(ids) {
			top.id = ids[top.pos]
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
	return out
}
