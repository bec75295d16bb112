package sop_test

import (
	"fmt"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
)

func ExampleInterpret() {
	r, err := sop.Interpret(`@i1 intent compare "BM25 and dense retrieval"
@i2 set $i1 output comparative_recommendation
@i3 constrain $i1 "CPU only"
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := r.Intents[0]
	fmt.Println(in.Act, in.Output, in.Constraints)
	// Output: compare comparative_recommendation [CPU only]
}

func ExampleInterpret_errors() {
	_, err := sop.Interpret(`@i1 intent ponder "x"
@k1 set $k9 role Narrative
@i2 intent define "no output"
`)
	for _, e := range sop.AsErrors(err) {
		fmt.Println(e)
	}
	// Output:
	// line 1 (@i1): sop_bad_value: act: "ponder" is not one of compare explain recommend diagnose implement verify define evaluate identify describe
	// line 2 (@k1): sop_unknown_ref: $k9 is not defined
	// line 3 (@i2): sop_missing_field: intent @i2 has no output; add `@<id> set $i2 output <value>`
}

func ExampleWriter() {
	w := sop.NewWriter()
	w.Intent(&sop.Intent{Act: "define", Target: "kb-fast", Output: "definition"})
	w.KU("", &kus.KU{ID: "session::t1::unit-000", KUType: kus.TypeAtomic, SourceID: "session::t1",
		ChunkID: "session::t1::chunk-000", Role: "Constraint", Topic: "answer shape",
		Claim: "Answer in one word.\n@x set $k1 role Narrative", PhaseScopes: []string{"gs-plugin"}})
	fmt.Print(w.String())
	// Output:
	// @i1 intent define "kb-fast"
	// @i2 set $i1 output definition
	// @k1 ku atomic "session::t1::unit-000"
	// @k2 set $k1 sourceId session::t1
	// @k3 set $k1 chunkId session::t1::chunk-000
	// @k4 set $k1 role Constraint
	// @k5 set $k1 topic "answer shape"
	// @k6 set $k1 claim "Answer in one word.\n@x set $k1 role Narrative"
	// @k7 set $k1 phaseScopes [gs-plugin]
}
