package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/test/internal/mrpvmbin"
)

// binary is the mrpvm binary built once for the whole package.
var binary string

func TestMain(m *testing.M) {
	if os.Getenv("MRPVM_E2E_HELPER") != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "mrpvm-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary, err = mrpvmbin.Build(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "build mrpvm:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one finished run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// run executes mrpvm with args and an isolated cache and config directory.
func run(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return runStdin(t, env, "", args...)
}

// runStdin is run with stdin as the process's standard input.
func runStdin(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("mrpvm %s did not finish within %v; it was killed. Standard error:\n%s", strings.Join(args, " "), commandLimit, errb.String())
	}
	return exitResult(t, err, &out, &errb)
}

// commandLimit bounds one run of the binary: every command the tests run
// finishes in seconds, so one still running after it hangs, and the test
// names it instead of waiting for the package's timeout.
const commandLimit = 3 * time.Minute

// exitResult is the result of a finished run of the binary: its output
// and exit code. An error other than a non-zero exit fails the test.
func exitResult(t *testing.T, err error, stdout, stderr fmt.Stringer) result {
	t.Helper()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// isolatedEnv points the user cache and config directories into the test's temp dir.
func isolatedEnv(t *testing.T) []string {
	home := t.TempDir()
	return []string{"XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "HOME=" + home}
}

// writeWorkspace writes a txtar archive into a new temporary folder.
func writeWorkspace(t *testing.T, archive string) string { return testtree.Write(t, archive) }

func decodeJSON(t *testing.T, s string, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v), "output: %s", s)
	require.False(t, dec.More(), "exactly one JSON value expected: %s", s)
}
