package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRebuildRefusesADirectory: --db naming a folder is refused as not a
// regular file, by every command and by --rebuild, which must not rename it.
func TestRebuildRefusesADirectory(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nAlpha text.\n")
	dir := filepath.Join(t.TempDir(), "kbdir")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "keep"), 0o755))
	env := isolatedEnv(t)
	for _, args := range [][]string{{"ingest", "--rebuild"}, {"ingest"}, {"search", "alpha"}} {
		r := run(t, env, append([]string{"--workspace", ws, "--db", dir}, args...)...)
		assert.NotEqual(t, 0, r.code, "%v", args)
		assert.Contains(t, r.stderr, "not a regular file", "%v", args)
		assert.NotContains(t, r.stderr, "kb_corrupt", "%v", args)
		_, err := os.Stat(filepath.Join(dir, "keep"))
		require.NoError(t, err, "%v moved the folder", args)
		aside, _ := filepath.Glob(dir + ".corrupt-*")
		require.Empty(t, aside, "%v", args)
	}
}

// TestDamagedDatabaseIsKBCorrupt overwrites bytes in the middle of a real
// knowledge base at several pages and runs every command that reads it: none
// may panic, and every failure must be kb_corrupt with the rebuild hint.
func TestDamagedDatabaseIsKBCorrupt(t *testing.T) {
	ws, err := filepath.Abs(filepath.Join("..", "..", "..", "cmd", "mrpvm", "testdata", "search", "ws"))
	require.NoError(t, err)
	env := isolatedEnv(t)
	good := filepath.Join(t.TempDir(), "good.db")
	r := run(t, env, "ingest", "--workspace", ws, "--db", good)
	require.Equal(t, 0, r.code, r.stderr)
	clean, err := os.ReadFile(good)
	require.NoError(t, err)
	const page = 4096
	pages := len(clean) / page
	require.Greater(t, pages, 16, "the database is too small to damage in the middle")

	commands := [][]string{
		{"search", "ocean tides"},
		{"search", "--no-ingest", "ocean tides"},
		{"ask", "what causes tides"},
		{"ask", "--no-ingest", "what causes tides"},
		{"stats"},
		{"stats", "--verify"},
		{"ingest"},
	}
	failures := 0
	for i := 1; i < 16; i++ {
		for _, fill := range []byte{0xff, 0x00} {
			// Pages 0 and 1 are bbolt's meta pages (checksummed); damage
			// data pages, 100 bytes in, past the page header.
			off := (2+(pages-3)*i/16)*page + 100
			bad := filepath.Join(t.TempDir(), "bad.db")
			b := append([]byte(nil), clean...)
			for j := off; j < off+200; j++ {
				b[j] = fill
			}
			require.NoError(t, os.WriteFile(bad, b, 0o644))
			for _, c := range commands {
				args := append([]string{"--workspace", ws, "--db", bad}, c...)
				r := run(t, env, args...)
				what := strings.Join(c, " ")
				require.NotContains(t, r.stderr, "goroutine ", "offset %d fill %#x: %s panicked:\n%s", off, fill, what, r.stderr)
				require.NotContains(t, r.stderr, "\npanic: ", "offset %d fill %#x: %s", off, fill, what)
				if r.code != 0 {
					failures++
					require.Contains(t, r.stderr, "kb_corrupt", "offset %d fill %#x: %s failed without kb_corrupt:\n%s", off, fill, what, r.stderr)
					require.Contains(t, r.stderr, "mrpvm ingest --rebuild", "offset %d fill %#x: %s: no hint", off, fill, what)
				}
			}
		}
	}
	// The damage must have been read: most runs fail.
	require.Greater(t, failures, 10, "too few runs noticed the damage")
	t.Logf("%d of %d runs reported kb_corrupt", failures, 15*2*len(commands))
}
