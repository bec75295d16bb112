package sop

import (
	"path/filepath"
	"slices"
	"testing"

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
