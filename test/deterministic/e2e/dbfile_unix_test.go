//go:build unix

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runUnwritable runs mrpvm with dbPath not writable by the process: as
// another user when the test runs as root (root writes any file), else
// with the file's write permission removed.
func runUnwritable(t *testing.T, dbPath string, args ...string) result {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
	if os.Geteuid() == 0 {
		const nobody = 65534
		// The other user must reach the binary, the workspace and the
		// file (each under a private temporary folder) and own its home.
		for _, p := range []string{binary, args[1], dbPath} {
			for d := filepath.Dir(p); d != os.TempDir() && d != "/" && d != "."; d = filepath.Dir(d) {
				require.NoError(t, os.Chmod(d, 0o755))
			}
		}
		require.NoError(t, os.Chown(home, nobody, nobody))
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	} else {
		require.NoError(t, os.Chmod(dbPath, 0o444))
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return exitResult(t, err, &out, &errb)
}

// TestReadOnlyDatabase: a healthy knowledge base the user cannot write is
// read as it is by search, ask and stats, and reported as read-only (never
// as corrupt, never moved aside) by ingest and ingest --rebuild.
func TestReadOnlyDatabase(t *testing.T) {
	ws := writeWorkspace(t, "-- tides.md --\n# Ocean tides\n\nTides are caused by the gravitational pull of the Moon.\n")
	require.NoError(t, os.Chmod(ws, 0o755))
	for _, name := range []string{"tides.md"} {
		require.NoError(t, os.Chmod(filepath.Join(ws, name), 0o644))
	}
	dbPath := filepath.Join(t.TempDir(), "kb.db")
	r := run(t, isolatedEnv(t), "ingest", "--workspace", ws, "--db", dbPath)
	require.Equal(t, 0, r.code, r.stderr)
	clean, err := os.ReadFile(dbPath)
	require.NoError(t, err)

	for _, args := range [][]string{{"search", "moon"}, {"ask", "what causes tides"}, {"stats"}} {
		r := runUnwritable(t, dbPath, append([]string{"--workspace", ws, "--db", dbPath}, args...)...)
		require.Equal(t, 0, r.code, "%v: %s", args, r.stderr)
		assert.NotContains(t, r.stderr, "kb_corrupt", "%v", args)
		assert.Contains(t, r.stderr, "cannot be written", "%v: no warning", args)
		if args[0] != "stats" {
			assert.Contains(t, r.stdout, "tides.md", "%v", args)
		}
	}
	for _, args := range [][]string{{"ingest"}, {"ingest", "--rebuild"}} {
		r := runUnwritable(t, dbPath, append([]string{"--workspace", ws, "--db", dbPath}, args...)...)
		assert.NotEqual(t, 0, r.code, "%v", args)
		assert.Contains(t, r.stderr, "kb_read_only", "%v", args)
		assert.NotContains(t, r.stderr, "kb_corrupt", "%v", args)
		assert.False(t, strings.Contains(r.stderr, "--rebuild"), "%v: a read-only file must not be advised to be rebuilt: %s", args, r.stderr)
	}
	aside, _ := filepath.Glob(dbPath + ".corrupt-*")
	require.Empty(t, aside)
	now, err := os.ReadFile(dbPath)
	require.NoError(t, err)
	require.True(t, bytes.Equal(clean, now), "the read-only file changed")
}
