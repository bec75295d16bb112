package thinkingdb

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// bruteSeeds is the per-fact selection seeds replaces: every fact's match,
// sorted by match, confidence and id.
func bruteSeeds(g *graph, idf map[string]float64, total, minShare float64, max int) []seedCand {
	var out []seedCand
	for id, f := range g.facts {
		m := 0.0
		var seen []string
		for _, t := range strings.Fields(f.SubjectKey + " " + f.ObjectKey) {
			if w, ok := idf[t]; ok && !slices.Contains(seen, t) {
				seen = append(seen, t)
				m += w
			}
		}
		if m > 0 && m/total >= minShare {
			out = append(out, seedCand{int32(id), m / total})
		}
	}
	slices.SortFunc(out, func(a, b seedCand) int {
		if c := cmp.Compare(b.m, a.m); c != 0 {
			return c
		}
		if c := cmp.Compare(g.facts[b.id].Confidence, g.facts[a.id].Confidence); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	if len(out) > max {
		out = out[:max]
	}
	return out
}

func TestSeedsMatchPerFactSelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d", "e", "f", "g"}
	entity := func() string {
		n := 1 + rng.IntN(2)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	confs := []float64{0.5, 0.7, 0.9}
	for trial := range 30 {
		// Facts of one copy, repeated by 1 to 10 sources (as the copies of a
		// corpus repeat them), with ties in match and confidence.
		var base []Fact
		for range 40 {
			s, o := entity(), entity()
			base = append(base, Fact{Subject: s, SubjectKey: s, Object: o, ObjectKey: o,
				Relation: Relation(1 + rng.IntN(int(numRelations)-1)), Confidence: confs[rng.IntN(len(confs))]})
		}
		bySource := map[string][]Fact{}
		copies := 1 + trial%10
		for c := range copies {
			for i, f := range base {
				src := fmt.Sprintf("s%d-%d", c, i%5)
				f.Source, f.KU = src, fmt.Sprintf("%s::%d", src, i)
				bySource[src] = append(bySource[src], f)
			}
		}
		g := buildGraph(bySource)
		for range 20 {
			idf := map[string]float64{}
			for _, w := range words {
				if rng.IntN(2) == 0 {
					idf[w] = float64(1 + rng.IntN(3))
				}
			}
			if len(idf) == 0 {
				continue
			}
			total := 0.0
			for _, w := range idf {
				total += w
			}
			for _, max := range []int{1, 8, 1000} {
				want := bruteSeeds(g, idf, total, 0.2, max)
				got := g.seeds(idf, total, 0.2, max)
				require.Equal(t, want, got, "trial %d copies %d idf %v max %d", trial, copies, idf, max)
			}
		}
	}
}
