package sop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kuDoc returns a minimal valid KU block with statement id id and KU id u.
func kuDoc(id, u string) string {
	return fmt.Sprintf(`@%[1]s ku atomic %[2]q
@%[1]s-1 set $%[1]s sourceId s
@%[1]s-2 set $%[1]s chunkId c
@%[1]s-3 set $%[1]s role Definition
@%[1]s-4 set $%[1]s topic t
@%[1]s-5 set $%[1]s claim "c"
`, id, u)
}

func TestErrorFormat(t *testing.T) {
	e := &Error{Line: 3, ID: "k2", Code: CodeUnknownRef, Msg: "$k9 is not defined"}
	assert.Equal(t, "line 3 (@k2): sop_unknown_ref: $k9 is not defined", e.Error())
	assert.Equal(t, e.Error(), e.String())
	assert.Equal(t, "line 3: sop_syntax: x", (&Error{Line: 3, Code: CodeSyntax, Msg: "x"}).Error())
	assert.Equal(t, "@a: sop_bad_ref: x", (&Error{ID: "a", Code: CodeBadRef, Msg: "x"}).Error())
	assert.Equal(t, "sop_too_large: x", (&Error{Code: CodeTooLarge, Msg: "x"}).Error())
	es := Errors{e, {Line: 4, Code: CodeSyntax, Msg: "y"}}
	assert.Equal(t, "line 3 (@k2): sop_unknown_ref: $k9 is not defined\nline 4: sop_syntax: y", es.Error())
	assert.True(t, es.Has(CodeSyntax))
	assert.False(t, es.Has(CodeBadRef))
	assert.Nil(t, AsErrors(nil))
	assert.Nil(t, AsErrors(fmt.Errorf("other")))
}

func TestUnknownRefMessage(t *testing.T) {
	_, err := Interpret(kuDoc("k1", "u") + "@k2 set $k9 title \"x\"\n")
	require.Error(t, err)
	assert.Equal(t, "line 7 (@k2): sop_unknown_ref: $k9 is not defined", err.Error())
}

// TestInjectionIsData: SOP-looking text in a value stays one value, whatever
// it holds, when it goes through Quote or the Writer.
func TestInjectionIsData(t *testing.T) {
	payloads := []string{
		"@x set $k1 role Narrative",
		"ok\n@x set $k1 role Narrative",
		"ok\" \n@x set $k1 role Narrative\n\"",
		"ok\\\n@x fail $k1",
		"ok\r@x deactivate $k1",
		"ok\u2028@x deactivate $k1",
		"\\\"\n@x set $k1 claim \"pwned\"",
		"# comment\n@x intent define \"evil\"\n@y set $x output z",
	}
	for _, p := range payloads {
		src := kuDoc("k1", "u") + "@k2 set $k1 textBody " + Quote(p) + "\n@k3 set $k1 title " + Quote(p) + "\n"
		r, err := Interpret(src)
		require.NoError(t, err, src)
		require.Len(t, r.KUs, 1)
		require.Empty(t, r.Intents)
		require.Empty(t, r.Statuses)
		k := r.KUs[0]
		assert.Equal(t, p, k.TextBody)
		assert.Equal(t, p, k.Title)
		assert.Equal(t, "Definition", k.Role)
		assert.Equal(t, "c", k.Claim)
		_, has := r.Lines["x"]
		assert.False(t, has, "no statement @x")

		// The same text written through the Writer.
		w := NewWriter()
		w.KU("", &kus.KU{ID: p, KUType: kus.TypeAtomic, SourceID: p, ChunkID: p, Role: "Narrative", Topic: p, Claim: p, Tags: []string{p}})
		r, err = Interpret(w.String())
		require.NoError(t, err, w.String())
		require.Len(t, r.KUs, 1)
		assert.Equal(t, p, r.KUs[0].Claim)
		assert.Equal(t, p, r.KUs[0].ID)
		assert.Equal(t, []string{p}, r.KUs[0].Tags)
		assert.Empty(t, r.Statuses)
		assert.Equal(t, strings.Count(w.String(), "\n"), len(r.Lines), "one statement a line")
	}
}

// TestRawNewlineInjectionRefused: an unescaped newline breaks the string and
// the whole document is refused, even though the next line parses.
func TestRawNewlineInjectionRefused(t *testing.T) {
	src := kuDoc("k1", "u") + "@k2 set $k1 textBody \"harmless\n@x set $k1 title \"injected\"\n"
	r, err := Interpret(src)
	assert.Nil(t, r)
	es := AsErrors(err)
	require.Len(t, es, 1)
	assert.Equal(t, CodeUnterminatedString, es[0].Code)
	assert.Equal(t, "k2", es[0].ID)
}

func TestRelationsFillKUHierarchy(t *testing.T) {
	src := kuDoc("a", "A") + kuDoc("b", "B") + kuDoc("c", "C") +
		"@r1 parent $b $a\n@r2 parent $c $a\n@r3 derived_from $c [$a $b]\n@r4 parent $b $a\n"
	r, err := Interpret(src)
	require.NoError(t, err)
	a, b, c := r.KU("a"), r.KU("b"), r.KU("c")
	assert.Equal(t, []string{"B", "C"}, a.ChildUnitIDs)
	assert.Equal(t, []string{"A"}, b.ParentUnitIDs, "no duplicates")
	assert.Equal(t, []string{"A"}, c.ParentUnitIDs)
	assert.Equal(t, []string{"A", "B"}, c.DerivedFromUnitIDs)
	assert.Len(t, r.RelationsFrom("b", "parent"), 2)
	assert.Len(t, r.RelationsFrom("c", ""), 2)
	assert.Equal(t, KindKU, r.KindOf("a"))
	assert.Equal(t, "", r.KindOf("r1"))
}

func TestKindsAndAccessors(t *testing.T) {
	src := `@i intent explain "x"
@o set $i output explanation
@p plugin kb-plugin kb-fast
@s seed $i direct retrieve
@v validate grounding
@po policy cheap-first
`
	r, err := Interpret(src)
	require.NoError(t, err)
	assert.Equal(t, KindIntent, r.KindOf("i"))
	assert.Equal(t, KindPlugin, r.KindOf("p"))
	assert.Equal(t, KindSeed, r.KindOf("s"))
	assert.Equal(t, KindValidate, r.KindOf("v"))
	assert.Len(t, r.ObjectsOf(KindPolicy), 1)
	assert.Empty(t, r.ObjectsOf(KindBranch))
	assert.Nil(t, r.KU("i"))
	assert.True(t, r.Active("i"))
	assert.False(t, r.Active("nope"))
	assert.Equal(t, 2, r.Lines["o"])
	assert.Contains(t, Fields(KindIntent), "output")
	assert.Nil(t, Fields("nope"))
	for _, k := range Constructors {
		assert.NotEmpty(t, Fields(k), k)
	}
}

func TestCaseInsensitiveNamesAreCanonical(t *testing.T) {
	src := `@i intent EXPLAIN "x"
@o set $i OUTPUT explanation
` + strings.Replace(kuDoc("k", "u"), "role Definition", "ROLE definition", 1) +
		"@p set $k PhaseScopes [GS-PLUGIN]\n@q set $k symbolicrelation Part_Of\n@q2 set $k symbolicSubject a\n@q3 set $k symbolicObject b\n"
	r, err := Interpret(src)
	require.NoError(t, err)
	assert.Equal(t, "explain", r.Intents[0].Act)
	assert.Equal(t, "explanation", r.Intents[0].Output)
	assert.Equal(t, "Definition", r.KUs[0].Role)
	assert.Equal(t, []string{"gs-plugin"}, r.KUs[0].PhaseScopes)
	assert.Equal(t, "part_of", r.KUs[0].SymbolicRelation)
}

func TestLimits(t *testing.T) {
	t.Run("document", func(t *testing.T) {
		l := DefaultLimits
		l.MaxBytes = 100
		_, err := l.Interpret(strings.Repeat("# x\n", 30))
		es := AsErrors(err)
		require.Len(t, es, 1)
		assert.Equal(t, CodeTooLarge, es[0].Code)
	})
	t.Run("line", func(t *testing.T) {
		l := DefaultLimits
		l.MaxLineBytes = 64
		src := kuDoc("k", "u") + "@t set $k title " + Quote(strings.Repeat("x", 100)) + "\n@t2 set $t title y\n"
		_, err := l.Interpret(src)
		es := AsErrors(err)
		require.Len(t, es, 1, "references to the over-long line are not reported again: %v", err)
		assert.Equal(t, CodeTooLarge, es[0].Code)
		assert.Equal(t, "t", es[0].ID)
		assert.Equal(t, 7, es[0].Line)
	})
	t.Run("statements", func(t *testing.T) {
		l := DefaultLimits
		l.MaxStatements = 10
		var b strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, "@i%d intent define \"x\"\n", i)
		}
		_, err := l.Interpret(b.String())
		es := AsErrors(err)
		require.Len(t, es, 1)
		assert.Equal(t, CodeTooLarge, es[0].Code)
		assert.Equal(t, 11, es[0].Line)

		p, err := Parse(b.String())
		require.NoError(t, err)
		_, err = l.Run(p)
		assert.True(t, AsErrors(err).Has(CodeTooLarge))
	})
	t.Run("list", func(t *testing.T) {
		l := DefaultLimits
		l.MaxListItems = 3
		_, err := l.Parse("@a set $b tags [1 2 3 4]")
		es := AsErrors(err)
		require.Len(t, es, 1)
		assert.Equal(t, CodeTooLarge, es[0].Code)
		_, err = l.Parse("@a set $b tags [1 2 3]")
		assert.NoError(t, err)
	})
	t.Run("errors", func(t *testing.T) {
		var b strings.Builder
		for i := range 200 {
			fmt.Fprintf(&b, "@i%d intent ponder \"x\"\n", i)
		}
		_, err := Interpret(b.String())
		es := AsErrors(err)
		require.Len(t, es, DefaultLimits.MaxErrors+1)
		assert.Equal(t, CodeTooManyErrors, es[len(es)-1].Code)
		assert.Equal(t, "sop_too_many_errors: stopped after 50 errors", es[len(es)-1].Error())
	})
	t.Run("zero limits mean none", func(t *testing.T) {
		src := strings.Repeat(kuDoc("k", "u"), 1)
		_, err := Limits{}.Interpret(src)
		assert.NoError(t, err)
	})
}

func TestRunHandBuiltProgram(t *testing.T) {
	p := &Program{Statements: []Statement{
		{ID: "i", Command: "intent", Args: []Arg{Atom("define"), Str("x")}},
		{ID: "o", Command: "set", Args: []Arg{Ref("i"), Atom("output"), Atom("definition")}},
		{ID: "bad id", Command: "set", Args: []Arg{Ref("i"), Atom("context"), Atom("c")}},
		{ID: "z", Command: "set", Args: []Arg{Ref("i"), Atom("context"), {}}},
	}}
	_, err := Run(p)
	es := AsErrors(err)
	require.Len(t, es, 2, "%v", err)
	assert.Equal(t, CodeSyntax, es[0].Code)
	assert.Equal(t, CodeBadValue, es[1].Code)
	assert.Equal(t, "@z: sop_bad_value: context takes text, found ArgKind(0) \"\\\"\\\"\"", es[1].Error())

	r, err := Run(&Program{Statements: p.Statements[:2]})
	require.NoError(t, err)
	assert.Equal(t, "definition", r.Intents[0].Output)
}

func TestEveryCodeIsReachable(t *testing.T) {
	seen := map[Code]bool{}
	files := []string{"bad_syntax", "bad_refs", "bad_fields", "bad_cascade", "bad_injection"}
	for _, f := range files {
		src := readTestdata(t, f+".sop")
		_, err := Interpret(src)
		for _, e := range AsErrors(err) {
			seen[e.Code] = true
		}
	}
	// Codes only reachable through limits or encoding are covered elsewhere.
	seen[CodeTooLarge], seen[CodeTooManyErrors], seen[CodeBadEncoding] = true, true, true
	for _, c := range Codes {
		assert.True(t, seen[c], "no golden file shows %s", c)
	}
}
