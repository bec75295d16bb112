package kvtest

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
)

// GoldenDocs parses the fixed Markdown inputs dir/*.md.txt (saved as
// .md.txt so that the repository walkers do not read them), in path order,
// each with its file name less ".txt" as source id.
func GoldenDocs(tb testing.TB, dir string) []*kus.Document {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.md.txt"))
	require.NoError(tb, err)
	require.NotEmpty(tb, paths)
	sort.Strings(paths)
	docs := make([]*kus.Document, 0, len(paths))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		require.NoError(tb, err)
		doc, err := kus.Parse(src, kus.SourceInfo{SourceID: strings.TrimSuffix(filepath.Base(p), ".txt")})
		require.NoError(tb, err, p)
		docs = append(docs, doc)
	}
	return docs
}

// RequireGolden fails unless the file at path holds lines, one a line,
// byte for byte; with update it rewrites the file instead.
func RequireGolden(tb testing.TB, path string, lines []string, update bool) {
	tb.Helper()
	out := []byte(strings.Join(lines, "\n") + "\n")
	if update {
		require.NoError(tb, os.WriteFile(path, out, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(tb, err, "run with -update to create it")
	require.Equal(tb, strings.Split(strings.TrimSuffix(string(want), "\n"), "\n"), lines)
	require.True(tb, bytes.Equal(want, out))
}
