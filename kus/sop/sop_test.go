package sop

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// golden renders what a testdata/*.sop file produces: for ok_* files the
// admitted result as JSON and the document written back from it, for bad_*
// files the errors, one a line.
func golden(t *testing.T, src string) string {
	t.Helper()
	r, err := Interpret(src)
	if err != nil {
		require.Nil(t, r, "no result on error")
		return err.Error() + "\n"
	}
	j, jerr := json.MarshalIndent(r, "", "  ")
	require.NoError(t, jerr)
	out, werr := Write(r)
	require.NoError(t, werr)
	return "# result\n" + string(j) + "\n# written\n" + out
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.sop")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sop")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			_, ierr := Interpret(string(src))
			if strings.HasPrefix(name, "ok_") {
				require.NoError(t, ierr)
			} else {
				require.Error(t, ierr)
			}
			got := golden(t, string(src))
			gf := strings.TrimSuffix(f, ".sop") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(gf, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(gf)
			require.NoError(t, err, "run go test ./kus/sop -run TestGolden -update")
			assert.Equal(t, string(want), got)
		})
	}
}

// stripLines clears what legitimately changes when a document is rewritten.
func stripLines(r *Result) *Result {
	c := *r
	c.Lines = nil
	return &c
}

func TestRoundTripGoldenFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/ok_*.sop")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			r1, err := Interpret(string(src))
			require.NoError(t, err)
			out1, err := Write(r1)
			require.NoError(t, err)
			r2, err := Interpret(out1)
			require.NoError(t, err, out1)
			assert.Equal(t, stripLines(r1), stripLines(r2))
			out2, err := Write(r2)
			require.NoError(t, err)
			assert.Equal(t, out1, out2, "Write is stable")
		})
	}
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}
