package llm

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/test/internal/mrpvmbin"
)

func TestMain(m *testing.M) {
	code := m.Run()
	mrpvmbin.Cleanup()
	os.Exit(code)
}

// mrpvm builds the binary once for the package.
func mrpvm(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	bin, err := mrpvmbin.Shared()
	require.NoError(t, err)
	return bin
}

type cli struct {
	t   *testing.T
	env []string
	ws  string
}

func newCLI(t *testing.T, srv *llmtest.Server) *cli {
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"MRPVM_CONFIG_DIR=" + filepath.Join(home, "config", "mrpvm"), "MRPVM_LLM_BASE_URL=", "MRPVM_LLM_MODEL=", "MRPVM_LLM_API_KEY=", "MRPVM_LLM_API_KEY_FILE="}
	if srv != nil {
		for k, v := range srv.Env() {
			env = append(env, k+"="+v)
		}
	}
	return &cli{t: t, env: env, ws: workspace(t, 0)}
}

func (c *cli) run(args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.Command(mrpvm(c.t), append([]string{"-w", c.ws}, args...)...)
	cmd.Env = append(os.Environ(), c.env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(c.t, err)
	}
	return out.String(), errb.String(), code
}

// TestCLIAskPinnedLLMSolver is the documented command:
// `mrpvm ask --pin gs=gs-llm-fast --llm-cache QUESTION`.
func TestCLIAskPinnedLLMSolver(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(model)
	c := newCLI(t, srv)
	out, errOut, code := c.run("ask", "--pin", "gs=gs-llm-fast", "--llm-cache", question)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "Paris is the capital of France [1].")
	assert.Contains(t, out, "[1] Capital — geography/france.md:")
	assert.Regexp(t, `goal-solver\s+gs-llm-fast\s+success\s+\d+ms llmtest-model`, out)
	assert.NotContains(t, errOut, "note:", "a model is configured: no hint")
	hits := srv.Hits()
	require.Positive(t, hits)

	// The trace shows model, role and llmCalls per stage.
	out, _, code = c.run("trace", "--json")
	require.Equal(t, 0, code)
	var tr struct {
		Stages []struct {
			PluginID  string  `json:"pluginId"`
			Status    string  `json:"status"`
			LLMCalls  int     `json:"llmCalls"`
			Model     *string `json:"model"`
			ModelRole *string `json:"modelRole"`
		} `json:"stages"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &tr))
	found := false
	for _, s := range tr.Stages {
		if s.PluginID == "gs-llm-fast" {
			found = true
			assert.Equal(t, 1, s.LLMCalls)
			require.NotNil(t, s.Model)
			require.NotNil(t, s.ModelRole)
			assert.Equal(t, llmtest.DefaultModel, *s.Model)
			assert.Equal(t, "goal-fast", *s.ModelRole)
		}
	}
	assert.True(t, found)

	// --llm-cache: the same question again makes no HTTP call.
	out, _, code = c.run("ask", "--pin", "gs=gs-llm-fast", "--llm-cache", question)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Paris is the capital of France [1].")
	assert.Equal(t, hits, srv.Hits())
}

// TestCLIOfflineHintOnce: without a model the symbolic path answers and the
// hint on configuring one is printed once.
func TestCLIOfflineHintOnce(t *testing.T) {
	c := newCLI(t, nil)
	out, errOut, code := c.run("ask", question)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "Paris")
	assert.Contains(t, errOut, "mrpvm: note: no LLM endpoint is configured")
	assert.Contains(t, errOut, "MRPVM_LLM_BASE_URL=http://localhost:11434/v1")
	_, errOut, code = c.run("ask", question)
	require.Equal(t, 0, code)
	assert.NotContains(t, errOut, "no LLM endpoint is configured", "said once")

	// A pinned LLM solver that steps aside always says why.
	_, errOut, code = c.run("ask", "--pin", "gs=gs-llm-fast", question)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "mrpvm: note: no LLM endpoint is configured")
}
