package sop

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clearCols drops positions so that parsed and hand-built statements compare.
func clearCols(p *Program) *Program {
	out := &Program{}
	for _, st := range p.Statements {
		st.Line = 0
		st.Args = clearArgCols(st.Args)
		out.Statements = append(out.Statements, st)
	}
	return out
}

func clearArgCols(args []Arg) []Arg {
	if args == nil {
		return nil
	}
	out := make([]Arg, len(args))
	for i, a := range args {
		a.Col = 0
		a.Items = clearArgCols(a.Items)
		out[i] = a
	}
	return out
}

func TestParseLines(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Statement
	}{
		{"blank and comments", "\n  \n# c\n\t# indented\n", nil},
		{"design example", `@i1 intent compare "BM25 and dense retrieval"`,
			[]Statement{{ID: "i1", Command: "intent", Args: []Arg{Atom("compare"), Str("BM25 and dense retrieval")}}}},
		{"refs atoms lists", `@k2 set $k1 phaseScopes [kb-plugin gs-plugin]`,
			[]Statement{{ID: "k2", Command: "set", Args: []Arg{Ref("k1"), Atom("phaseScopes"),
				List(Atom("kb-plugin"), Atom("gs-plugin"))}}}},
		{"list of refs and strings", `@r1 needs $a [ $b "c d" e ]`,
			[]Statement{{ID: "r1", Command: "needs", Args: []Arg{Ref("a"), List(Ref("b"), Str("c d"), Atom("e"))}}}},
		{"empty list and string", `@x set $a tags [] ""`,
			[]Statement{{ID: "x", Command: "set", Args: []Arg{Ref("a"), Atom("tags"), List(), Str("")}}}},
		{"escapes", `@x set $a claim "q\" b\\ n\n r\r t\t u\u00e9\u0000"`,
			[]Statement{{ID: "x", Command: "set", Args: []Arg{Ref("a"), Atom("claim"), Str("q\" b\\ n\n r\r t\t u\u00e9\x00")}}}},
		{"trailing comment", `@x set $a output y # why`,
			[]Statement{{ID: "x", Command: "set", Args: []Arg{Ref("a"), Atom("output"), Atom("y")}}}},
		{"hash inside atom and string", `@x set $a claim C# "#1"`,
			[]Statement{{ID: "x", Command: "set", Args: []Arg{Ref("a"), Atom("claim"), Atom("C#"), Str("#1")}}}},
		{"crlf bom tabs", "\ufeff@a\tintent\tdefine\t\"x\"\r\n@b set $a output y\r\n",
			[]Statement{{ID: "a", Command: "intent", Args: []Arg{Atom("define"), Str("x")}},
				{ID: "b", Command: "set", Args: []Arg{Ref("a"), Atom("output"), Atom("y")}}}},
		{"id charset", `@A-z_0:9 ku atomic "u"`,
			[]Statement{{ID: "A-z_0:9", Command: "ku", Args: []Arg{Atom("atomic"), Str("u")}}}},
		{"raw tab and unicode in string", "@x set $a claim \"a\tb é 😀\"",
			[]Statement{{ID: "x", Command: "set", Args: []Arg{Ref("a"), Atom("claim"), Str("a\tb é 😀")}}}},
		{"atoms with punctuation", `@x set $a sourceId docs/a_b-c.md:12`,
			[]Statement{{ID: "x", Command: "set", Args: []Arg{Ref("a"), Atom("sourceId"), Atom("docs/a_b-c.md:12")}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.src)
			require.NoError(t, err)
			assert.Equal(t, tc.want, clearCols(p).Statements)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src  string
		code Code
		col  int
		id   string
	}{
		{`intent define "x"`, CodeSyntax, 1, ""},
		{`  @ intent`, CodeSyntax, 4, ""},
		{`@a`, CodeSyntax, 3, "a"},
		{`@a.b intent`, CodeSyntax, 3, "a"},
		{`@a "intent"`, CodeSyntax, 4, "a"},
		{`@a intent define "x`, CodeUnterminatedString, 18, "a"},
		{`@a intent define "x\"`, CodeUnterminatedString, 18, "a"},
		{`@a intent define "x\`, CodeUnterminatedString, 18, "a"},
		{`@a set $b tags [x y`, CodeUnterminatedList, 16, "a"},
		{`@a set $b tags [x [y]]`, CodeSyntax, 19, "a"},
		{`@a set $b tags x]`, CodeSyntax, 17, "a"},
		{`@a set $b tags ]`, CodeSyntax, 16, "a"},
		{`@a set $b tags [x]y`, CodeSyntax, 19, "a"},
		{`@a set $b claim "x"y`, CodeSyntax, 20, "a"},
		{`@a set $b claim x"y"`, CodeSyntax, 18, "a"},
		{`@a set $ claim x`, CodeSyntax, 8, "a"},
		{`@a set $b.c claim x`, CodeSyntax, 8, "a"},
		{`@a set $b claim "\x"`, CodeBadEscape, 18, "a"},
		{`@a set $b claim "\u00"`, CodeBadEscape, 18, "a"},
		{`@a set $b claim "\uzzzz"`, CodeBadEscape, 18, "a"},
		{`@a set $b claim "\udfff"`, CodeBadEscape, 18, "a"},
		{`@a set $b claim x @c set $b claim y`, CodeSyntax, 19, "a"},
		{"@a set $b claim \"x\x00\"", CodeSyntax, 19, "a"},
		{"@a set $b claim \"x\x1b\"", CodeSyntax, 19, "a"},
		{"@a set $b claim \"x\x7f\"", CodeSyntax, 19, "a"},
		{"@a set $b claim \"\xff\"", CodeBadEncoding, 1, "a"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			_, err := Parse(tc.src)
			es := AsErrors(err)
			require.Len(t, es, 1, "%v", err)
			assert.Equal(t, tc.code, es[0].Code, es[0].Error())
			assert.Equal(t, 1, es[0].Line)
			assert.Equal(t, tc.col, es[0].Col, es[0].Error())
			assert.Equal(t, tc.id, es[0].ID)
		})
	}
}

func TestParseKeepsGoodLines(t *testing.T) {
	p, err := Parse("@a intent define \"x\n@b intent define \"y\"\n")
	require.Error(t, err)
	require.Len(t, p.Statements, 1)
	assert.Equal(t, "b", p.Statements[0].ID)
	assert.Equal(t, 2, p.Statements[0].Line)
}

func TestProgramStringRoundTrip(t *testing.T) {
	src := `@i1 intent compare "a \"b\"\nc"
@i2 set $i1 evidence [x "y z" $i1]
@i3 set $i1 output y
`
	p, err := Parse(src)
	require.NoError(t, err)
	assert.Equal(t, src, p.String())
	p2, err := Parse(p.String())
	require.NoError(t, err)
	assert.Equal(t, p, p2)
}

func TestQuote(t *testing.T) {
	tests := map[string]string{
		"":                   `""`,
		"plain":              `"plain"`,
		`a"b\c`:              `"a\"b\\c"`,
		"l1\nl2\r\n\tx":      `"l1\nl2\r\n\tx"`,
		"\x00\x1f\x7f":       `"\u0000\u001f\u007f"`,
		"\u0085\u2028\u2029": `"\u0085\u2028\u2029"`,
		"é😀":                 `"é😀"`,
		"bad\xffutf8":        "\"bad\ufffdutf8\"",
	}
	for in, want := range tests {
		got := Quote(in)
		assert.Equal(t, want, got, "Quote(%q)", in)
		assert.NotContains(t, got, "\n")
		p, err := Parse("@a set $b claim " + got)
		require.NoError(t, err, got)
		back := p.Statements[0].Args[2].Value
		if strings.ToValidUTF8(in, "\ufffd") == in {
			assert.Equal(t, in, back)
		}
	}
}

func TestTextAtomOrString(t *testing.T) {
	assert.Equal(t, ArgAtom, Text("src-001::chunk-000").Kind)
	assert.Equal(t, ArgAtom, Text("docs/a.md").Kind)
	for _, s := range []string{"", "two words", "$x", "@x", "#x", "a\"b", "[x]", "é", "a\\b"} {
		assert.Equal(t, ArgString, Text(s).Kind, s)
	}
}

func TestIsID(t *testing.T) {
	assert.True(t, IsID("k1"))
	assert.True(t, IsID("a:b-c_D9"))
	assert.False(t, IsID(""))
	assert.False(t, IsID("a.b"))
	assert.False(t, IsID("a b"))
	assert.False(t, IsID("é"))
}
