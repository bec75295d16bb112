package thinkingdb

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkBuildGraph builds the closure's graph over ten copies of 5,000
// sources of 8 facts each (the shape of ten copies of SciFact).
func BenchmarkBuildGraph(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	ent := func() string { return fmt.Sprintf("term%d word%d", rng.IntN(20000), rng.IntN(200)) }
	bySource := map[string][]Fact{}
	for s := range 5000 {
		var fs []Fact
		for i := range 8 {
			sk, ok := ent(), ent()
			fs = append(fs, Fact{Subject: sk, SubjectKey: sk, Object: ok, ObjectKey: ok, Relation: Causes,
				Confidence: 0.7, KU: fmt.Sprintf("d%d::%d", s, i)})
		}
		for c := range 10 {
			src := fmt.Sprintf("c%d/d%d", c, s)
			cp := make([]Fact, len(fs))
			for i, f := range fs {
				f.Source, f.KU = src, src+"::"+f.KU
				cp[i] = f
			}
			bySource[src] = cp
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		buildGraph(bySource)
	}
}
