package e2e

import (
	"os"
	"path/filepath"
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
