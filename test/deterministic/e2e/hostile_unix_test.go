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
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runLimited is run under a 4 GiB address space limit and a time bound,
// so a read of /dev/zero crashes promptly and a blocked read fails the
// test instead of exhausting the machine or hanging the suite.
func runLimited(t *testing.T, env []string, args ...string) result {
	t.Helper()
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := exec.Command("/bin/sh", "-c", "ulimit -v 4194304; exec '"+binary+"' "+strings.Join(quoted, " "))
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("mrpvm %s hangs", strings.Join(args, " "))
	}
	return exitResult(t, err, &out, &errb)
}

// TestIngestHostileRepository ingests a cloned repository holding links
// to a key, to a folder and to / outside it, a .gitignore linked to
// /dev/zero and a FIFO .gitignore: ingest ends with warnings, and neither
// search nor ask can reach the key.
func TestIngestHostileRepository(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	env := isolatedEnv(t)
	home := strings.TrimPrefix(env[2], "HOME=")
	secret := filepath.Join(home, ".ssh", "id_rsa")
	require.NoError(t, os.MkdirAll(filepath.Dir(secret), 0o700))
	require.NoError(t, os.WriteFile(secret, []byte("# Deploy key\n\nThe deploy key is SECRETKEYMATERIAL.\n"), 0o600))
	ws := writeWorkspace(t, "-- guide.md --\n# Guide\n\nThe deploy guide explains the deploy steps.\n-- sub/notes.md --\n# Notes\n\nMore deploy notes.\n")
	require.NoError(t, os.Symlink(secret, filepath.Join(ws, "key.md")))
	require.NoError(t, os.Symlink(home, filepath.Join(ws, "home")))
	require.NoError(t, os.Symlink("/", filepath.Join(ws, "root")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(ws, ".gitignore")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(ws, "sub", ".gitignore"), 0o644))

	r := runLimited(t, env, "ingest", "--workspace", ws, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var rep ingestJSON
	decodeJSON(t, r.stdout, &rep)
	assert.Equal(t, 2, rep.Files)
	codes := map[string]string{}
	for _, e := range rep.Errors {
		rel, err := filepath.Rel(ws, e.Path)
		require.NoError(t, err)
		codes[filepath.ToSlash(rel)] = e.Code
	}
	assert.Equal(t, map[string]string{"key.md": "outside_workspace", "home": "outside_workspace", "root": "outside_workspace",
		".gitignore": "outside_workspace", "sub/.gitignore": "not_regular_file"}, codes)

	r = runLimited(t, env, "search", "--workspace", ws, "--json", "deploy key SECRETKEYMATERIAL")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "key.md")
	assert.NotContains(t, r.stdout, "Deploy key", "a hit from the linked key")
	assert.Contains(t, r.stdout, "guide.md")

	out, r := ask(t, env, ws, "What is the deploy key?")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "SECRETKEYMATERIAL")
	for _, e := range out.Evidence {
		assert.NotEqual(t, "key.md", e.SourceID)
	}
}

// TestIngestNonUTF8FileNames ingests files whose names are not valid
// UTF-8: they are skipped with warnings quoting the raw name, and no path
// with replacement characters is stored or printed.
func TestIngestNonUTF8FileNames(t *testing.T) {
	ws := writeWorkspace(t, "-- guide.md --\n# Guide\n\nThe rollout guide.\n")
	if err := os.WriteFile(filepath.Join(ws, "ro\xfflout.md"), []byte("# Rollout\n\nThe rollout plan.\n"), 0o644); err != nil {
		t.Skipf("the file system refuses names that are not UTF-8: %v", err)
	}
	env := isolatedEnv(t)
	rep := ingestOK(t, env, ws)
	assert.Equal(t, 1, rep.Files)
	require.Len(t, rep.Errors, 1)
	assert.Equal(t, "file_name_not_utf8", rep.Errors[0].Code)
	assert.Contains(t, rep.Errors[0].Message, `"ro\xfflout.md"`)

	r := run(t, env, "search", "--workspace", ws, "--json", "rollout")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "guide.md")
	assert.NotContains(t, r.stdout, "\ufffd")
	assert.NotContains(t, r.stdout, `\ufffd`)
}

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
