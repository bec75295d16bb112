package sop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
)

// benchDoc is a currentTurnContextCNL-sized document: intents plus n KUs.
func benchDoc(n int) string {
	w := NewWriter()
	i := w.Intent(&Intent{Act: "compare", Target: "kb-fast and kb-balanced", Output: "comparison_table",
		Context: "CPU-only", Constraints: []string{"answer in a table"}})
	w.Seed(&Seed{Intent: i, Mode: "direct", Action: "retrieve", Focus: "cost"})
	for j := range n {
		w.KU("", &kus.KU{ID: fmt.Sprintf("session::t1::unit-%03d", j), KUType: kus.TypeAtomic,
			SourceID: "session::t1", ChunkID: "session::t1::chunk-000", Role: "Explanation",
			Topic: "retrieval", Claim: strings.Repeat("kb-balanced combines BM25 and HDC retrieval. ", 4),
			SymbolicSubject: "kb-balanced", SymbolicRelation: "uses", SymbolicObject: "BM25",
			PhaseScopes: []string{"kb-plugin"}})
	}
	return w.String()
}

func BenchmarkInterpret(b *testing.B) {
	for _, n := range []int{10, 1000} {
		src := benchDoc(n)
		b.Run(fmt.Sprintf("kus=%d", n), func(b *testing.B) { benchRead(b, src, Interpret) })
	}
}

func BenchmarkParse(b *testing.B) { benchRead(b, benchDoc(1000), Parse) }

// benchRead measures read (Parse or Interpret) over src, in bytes per second.
func benchRead[T any](b *testing.B, src string, read func(string) (T, error)) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := read(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	r, err := Interpret(benchDoc(1000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Write(r); err != nil {
			b.Fatal(err)
		}
	}
}
