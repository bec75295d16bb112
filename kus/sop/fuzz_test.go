package sop

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/stretchr/testify/require"
)

// FuzzInterpret checks that any input either is refused with well-formed
// errors or is admitted and survives Write -> Interpret unchanged, and that
// Parse -> String -> Parse is stable.
func FuzzInterpret(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.sop")
	for _, file := range files {
		f.Add(readTestdata(f, filepath.Base(file)))
	}
	for _, s := range []string{
		"", "@", "@a", "@a b", "@a set", "#\n\n", "@a intent define \"x\"\n@b set $a output y",
		"@a set $b tags [", "@a set $b c \"\\u00e9\"", "@a set [$b] c d", "\ufeff@a\r\n",
		kuDoc("k", "u") + "@r parent $k $k\n", kuDoc("k", "u") + kuDoc("j", "v") + "@r parent $k $j\n@s fail $j\n",
	} {
		f.Add(s)
	}
	lim := DefaultLimits
	lim.MaxBytes = 1 << 16
	f.Fuzz(func(t *testing.T, src string) {
		r, err := lim.Interpret(src)
		if err != nil {
			require.Nil(t, r)
			es := AsErrors(err)
			require.NotEmpty(t, es, "errors are an Errors list")
			require.LessOrEqual(t, len(es), lim.MaxErrors+1)
			for _, e := range es {
				require.True(t, slices.Contains(Codes, e.Code), "unknown code %q", e.Code)
				require.GreaterOrEqual(t, e.Line, 0)
				require.NotEmpty(t, e.Error())
			}
		} else {
			out, werr := Write(r)
			require.NoError(t, werr)
			r2, err2 := lim.Interpret(out)
			require.NoError(t, err2, "rewritten document:\n%s", out)
			require.Equal(t, stripLines(r), stripLines(r2), "rewritten document:\n%s", out)
			out2, _ := Write(r2)
			require.Equal(t, out, out2)
		}

		p, perr := lim.Parse(src)
		if perr == nil {
			p2, err := lim.Parse(p.String())
			require.NoError(t, err, p.String())
			require.Equal(t, clearCols(p), clearCols(p2))
		}
	})
}

// FuzzQuote checks that any text, written through Quote and the Writer into
// every text field of a KU, reads back unchanged and never adds statements.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "x", evil, "\"\n@x set $k1 role Narrative\n\"", "\\", "\\\"", "\xff\xfe", "\u2028@x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		require.NotContains(t, q, "\n")
		require.NotContains(t, q, "\r")
		want := strings.ToValidUTF8(s, "\ufffd")
		p, err := Parse("@a set $b claim " + q)
		require.NoError(t, err, q)
		require.Len(t, p.Statements, 1)
		require.Equal(t, want, p.Statements[0].Args[2].Value)

		if strings.TrimSpace(want) == "" {
			return
		}
		w := NewWriter()
		k := &kus.KU{ID: want, KUType: kus.TypeAtomic, SourceID: want, ChunkID: want, Role: "Narrative",
			Topic: want, Title: want, Claim: want, TextBody: want, Tags: []string{want}, UtilityNote: want}
		w.KU("", k)
		w.Intent(&Intent{Act: "explain", Target: want, Output: "explanation", Context: want, Constraints: []string{want}})
		require.NoError(t, w.Err())
		r, err := Interpret(w.String())
		require.NoError(t, err, w.String())
		require.Len(t, r.KUs, 1)
		require.Len(t, r.Intents, 1)
		require.Empty(t, r.Statuses)
		require.Empty(t, r.Relations)
		got := r.KUs[0]
		for _, v := range []string{got.ID, got.SourceID, got.ChunkID, got.Topic, got.Title, got.Claim, got.TextBody, got.Tags[0], got.UtilityNote,
			r.Intents[0].Target, r.Intents[0].Context, r.Intents[0].Constraints[0]} {
			require.Equal(t, want, v)
		}
		require.Equal(t, "Narrative", got.Role)
		require.Equal(t, strings.Count(w.String(), "\n"), len(r.Lines))
	})
}
