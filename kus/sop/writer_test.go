package sop

import (
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// evil is text that tries every way out of a string.
const evil = "line one\n@x set $k1 role Narrative\r\n@y fail $k1 \"boom\"\n" +
	`quote " backslash \ escaped-quote \" end` + "\t[list] $ref # hash\x00\x1b\u2028\u2029\u0085 é"

func sampleKU(id string) *kus.KU {
	conf := 0.75
	return &kus.KU{
		ID: id, KUType: kus.TypeAtomic, Level: kus.LevelLeaf,
		Title: "Title " + id, Role: "Explanation", Topic: "topic with spaces",
		Claim: evil, Condition: "if " + evil, TextBody: evil,
		Tags:            []string{"a", "b c", evil},
		SymbolicSubject: "AchillesIDE", SymbolicRelation: "uses", SymbolicObject: "Ploinky", Confidence: &conf,
		ParentUnitIDs: []string{"src::section-001"}, DerivedFromUnitIDs: []string{"src::0::0"},
		SourceID: "docs/My File.md", SourceName: "My File.md", SourceType: kus.SourceMarkdown,
		ChunkID: "docs/My File.md::3", ChunkIndex: 3, UnitIndex: 2, CharStart: 10, CharEnd: 200,
		IngestedAt:  time.Date(2026, 3, 1, 10, 0, 0, 5, time.UTC),
		UtilityActs: []string{"explain", "describe"}, PhaseScopes: []string{"kb-plugin", "gs-plugin"},
		UtilityNote: "note",
	}
}

func TestWriteGoValuesRoundTrip(t *testing.T) {
	in := &Result{
		Intents: []*Intent{
			{ID: "i1", Act: "compare", Target: evil, Output: "comparative_recommendation",
				Context: "CPU-only", Criterion: "cost", Evidence: []string{"x", evil}, Format: "table",
				Language: "en", Constraints: []string{"short", evil}},
			{ID: "i2", Act: "define", Target: "kb-fast", Output: "definition"},
		},
		Seeds:   []*Seed{{ID: "s1", Intent: "i1", Mode: "direct", Action: "retrieve", Focus: evil}},
		Plugins: []*PluginRef{{ID: "p1", Type: "kb-plugin", PluginID: "kb-fast", Reason: evil}},
		KUs: []*kus.KU{sampleKU("src::0::1"), {ID: "u2", KUType: kus.TypeComposite, Role: "Procedure",
			Topic: "t", Procedure: "1. a\n2. b", SourceID: "s", ChunkID: "c",
			UtilityActs: []string{"implement"}, PhaseScopes: []string{"kb-plugin"}}},
		Objects: []*Object{
			{ID: "v1", Kind: KindValidate, Fields: map[string]string{"mode": "grounding", "target": "i1", "rule": evil}},
			{ID: "c1", Kind: KindCandidate, Fields: map[string]string{"target": "i2", "score": "0.5"}},
			{ID: "sp1", Kind: KindSubproblem, Fields: map[string]string{"parent": "i1", "text": "part"},
				Constraints: []string{"cheap"}},
		},
		Relations: []*Relation{{ID: "r1", Type: "supports", From: "k1", To: []string{"i1", "i2"}},
			{ID: "r2", Type: "split_from", From: "i2", To: []string{"i1"}}},
		Statuses: []*Status{{ID: "st1", Command: "deactivate", Target: "k2", Value: "deactivated", Reason: evil},
			{ID: "st2", Command: "status", Target: "i1", Value: "open"}},
		Order: []string{"i1", "i2", "s1", "p1", "k1", "k2", "v1", "c1", "sp1"},
	}
	in.ByID = map[string]any{"i1": in.Intents[0], "i2": in.Intents[1], "s1": in.Seeds[0], "p1": in.Plugins[0],
		"k1": in.KUs[0], "k2": in.KUs[1], "v1": in.Objects[0], "c1": in.Objects[1], "sp1": in.Objects[2]}

	src, err := Write(in)
	require.NoError(t, err)
	out, err := Interpret(src)
	require.NoError(t, err, src)
	assert.Equal(t, in, stripLines(out))

	// Every statement is one line and the evil text never starts one.
	p, err := Parse(src)
	require.NoError(t, err)
	assert.Equal(t, strings.Count(src, "\n"), len(p.Statements))
	for _, st := range p.Statements {
		assert.NotEqual(t, "x", st.ID)
		assert.NotEqual(t, "y", st.ID)
	}
	assert.Equal(t, "Explanation", out.KU("k1").Role)
	assert.Equal(t, "", out.StatusOf("k1"))
	assert.False(t, out.Active("k2"))
	assert.Len(t, out.ActiveKUs(), 1)
}

func TestWriterIncremental(t *testing.T) {
	w := NewWriter()
	w.Comment("intentCNL\nsecond line")
	i := w.Intent(&Intent{Act: "explain", Target: "why", Output: "explanation"})
	j := w.Intent(&Intent{Act: "define", Target: "what", Output: "definition"})
	k := w.KU("", &kus.KU{ID: "session::t1::unit-000", KUType: kus.TypeAtomic, Role: "Constraint",
		Topic: "answer shape", Claim: "Answer in one word.", SourceID: "session::t1", ChunkID: "session::t1::chunk-000",
		PhaseScopes: []string{"gs-plugin"}})
	w.Relation(&Relation{Type: "constrain", From: i, To: []string{k}})
	w.Status(&Status{Command: "fail", Target: j})
	require.NoError(t, w.Err())
	assert.Equal(t, "i1", i)
	assert.Equal(t, "i3", j, "set statements share the series")
	assert.Equal(t, "k1", k)

	r, err := Interpret(w.String())
	require.NoError(t, err, w.String())
	require.Len(t, r.Intents, 2)
	require.Len(t, r.KUs, 1)
	assert.Equal(t, []string{"verify"}, r.KUs[0].UtilityActs, "derived from the role")
	assert.Equal(t, []string{"gs-plugin"}, r.KUs[0].PhaseScopes)
	assert.Equal(t, "failed", r.StatusOf(j))
	assert.Equal(t, []*Relation{{ID: "r1", Type: "constrain", From: "i1", To: []string{"k1"}}}, r.RelationsFrom("i1", "constrain"))
	assert.True(t, strings.HasPrefix(w.String(), "# intentCNL\n# second line\n@i1 intent explain \"why\"\n"))
}

func TestWriterReportsProblems(t *testing.T) {
	w := NewWriter()
	w.Seed(&Seed{Intent: "nope", Mode: "m", Action: "a"})
	require.Error(t, w.Err())
	assert.Contains(t, w.Err().Error(), "$nope")

	w = NewWriter()
	w.Intent(&Intent{ID: "bad id", Act: "define", Target: "x", Output: "y"})
	require.Error(t, w.Err())
	_, err := Interpret(w.String())
	require.NoError(t, err, "a fresh id is generated")

	w = NewWriter()
	w.Intent(&Intent{ID: "a", Act: "define", Output: "y"})
	require.Error(t, w.Err(), "empty target")
	_, err = Interpret(w.String())
	assert.True(t, AsErrors(err).Has(CodeBadValue))

	w = NewWriter()
	w.Object(&Object{Kind: "nope"})
	require.Error(t, w.Err())
}

func TestDefaults(t *testing.T) {
	for _, role := range kus.Roles {
		src := `@k ku atomic "u"
@a set $k sourceId s
@b set $k chunkId c
@c set $k role ` + role + `
@d set $k topic t
@e set $k claim "x"
`
		r, err := Interpret(src)
		require.NoError(t, err)
		k := r.KUs[0]
		assert.Equal(t, kus.ActsForRole(role), k.UtilityActs, role)
		assert.NotEmpty(t, k.UtilityActs, role)
		assert.Equal(t, []string{"kb-plugin"}, k.PhaseScopes)
		assert.Equal(t, "u", k.ID)
		assert.Equal(t, kus.TypeAtomic, k.KUType)
	}
}
