// Package livellm asks a real model through the real bridge. It runs only
// when MRPVM_LLM_BASE_URL and MRPVM_LLM_MODEL name an endpoint (with
// MRPVM_LLM_API_KEY or MRPVM_LLM_API_KEY_FILE when it needs a key) and is
// skipped otherwise, so the offline suite never reaches a network; the
// deterministic LLM tests with a scripted model are in test/deterministic/llm.
package livellm

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/llm"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// endpoint skips the test unless a model endpoint is configured.
func endpoint(t *testing.T) {
	if os.Getenv(llm.EnvBaseURL) == "" || os.Getenv(llm.EnvModel) == "" {
		t.Skipf("no model endpoint: set %s and %s to run the live-model tests", llm.EnvBaseURL, llm.EnvModel)
	}
}

// TestLiveModelAnswersFromTheWorkspace asks the configured model, through
// the LLM goal solver, a question one page of the workspace answers: the
// answer must name the fact and cite that page first.
func TestLiveModelAnswersFromTheWorkspace(t *testing.T) {
	endpoint(t)
	ws := t.TempDir()
	testtree.WriteFiles(t, ws, map[string]string{
		"geography/france.md": "# France\n\n## Capital\n\nParis is the capital of France. The Seine flows through Paris.\n",
		"geography/italy.md":  "# Italy\n\n## Capital\n\nRome is the capital of Italy.\n",
	})
	w, err := workspace.Open(workspace.Options{Root: ws, DBPath: filepath.Join(t.TempDir(), "kb.db"), NoWrappers: true})
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	_, err = w.KB.Ingest(ctx, ingest.RunOptions{})
	require.NoError(t, err)

	resp, err := w.VM.Ask(ctx, vm.Request{Question: "What is the capital of France?", Pins: map[string]string{"gs": "gs-llm-fast"}})
	require.NoError(t, err)
	require.Equal(t, vm.StatusAnswered, resp.Status, "%s\n%+v", resp.AnswerMarkdown, resp.Trace)
	assert.Contains(t, resp.AnswerMarkdown, "Paris")
	assert.Contains(t, resp.AnswerMarkdown, "Sources:")
	require.NotEmpty(t, resp.Evidence)
	assert.Equal(t, "geography/france.md", resp.Evidence[0].SourceID)
}
