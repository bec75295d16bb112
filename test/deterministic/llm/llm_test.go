// Package llm runs the VM end to end with the LLM-backed plugins against a
// local OpenAI-compatible test server (llm/llmtest): real workspace
// files, a real bbolt knowledge base, the real bridge, meter and plugins.
// No test talks to a hosted model.
package llm

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/vm"
	wspace "github.com/mrpvm/mrpvm/workspace"
)

const question = "What is the capital of France?"

// workspace writes a small knowledge base and, when budget > 0, an
// engine.json limiting the request's LLM calls.
func workspace(t *testing.T, budget int) string {
	t.Helper()
	ws := t.TempDir()
	write := func(name, text string) { testtree.WriteFiles(t, ws, map[string]string{name: text}) }
	write("geography/france.md", "# France\n\n## Capital\n\nParis is the capital of France. The Seine flows through Paris.\n\n"+
		"## Rivers\n\nThe Loire is the longest river in France.\n")
	write("geography/italy.md", "# Italy\n\n## Capital\n\nRome is the capital of Italy.\n")
	if budget > 0 {
		write(".mrpvm/engine.json", `{"maxLLMAttemptsPerRequest": `+itoa(budget)+`}`)
	}
	return ws
}

func itoa(n int) string { return strconv.Itoa(n) }

// configure points the bridge at srv through the MRPVM_LLM_* variables.
func configure(t *testing.T, srv *llmtest.Server) {
	for k, v := range srv.Env() {
		t.Setenv(k, v)
	}
}

// offline clears every MRPVM_LLM_* variable.
func offline(t *testing.T) {
	for _, k := range []string{llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey, llm.EnvAPIKeyFile} {
		t.Setenv(k, "")
	}
}

// openWithModel serves handler as the model, points the configuration at
// it and opens a fresh workspace with the given model budget (see
// workspace); the workspace is closed when the test ends.
func openWithModel(t *testing.T, budget int, handler func(llmtest.Request) llmtest.Reply) (*llmtest.Server, *wspace.Workspace) {
	t.Helper()
	srv := llmtest.New(t)
	srv.Handle(handler)
	configure(t, srv)
	w := open(t, workspace(t, budget), filepath.Join(t.TempDir(), "kb.db"), false)
	t.Cleanup(func() { w.Close() })
	return srv, w
}

func open(t *testing.T, ws, db string, cache bool) *wspace.Workspace {
	t.Helper()
	w, err := wspace.Open(wspace.Options{Root: ws, DBPath: db, NoWrappers: true, CacheLLM: cache})
	require.NoError(t, err)
	_, err = w.KB.Ingest(context.Background(), ingest.RunOptions{})
	require.NoError(t, err)
	return w
}

func ask(t *testing.T, w *wspace.Workspace, pins map[string]string) *vm.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := w.VM.Ask(ctx, vm.Request{Question: question, Pins: pins})
	require.NoError(t, err)
	return resp
}

var sourceLine = regexp.MustCompile(`(?m)^\[(\d+)\] [^\n]*\n([^\n]*)`)

// model answers like a well-behaved model: the goal solver cites the
// source about the capital, the validator accepts, the seed detector
// writes valid SOP.
func model(r llmtest.Request) llmtest.Reply {
	sys := r.System()
	switch {
	case strings.Contains(sys, "seed detector"):
		return llmtest.Text("### intentCNL\n@i1 intent identify \"capital of France\"\n@i2 set $i1 output list\n\n### currentTurnContextCNL\n(none)\n")
	case strings.Contains(sys, "You check an answer"):
		return llmtest.Text("ACCEPT: the answer is supported by the evidence")
	case strings.Contains(sys, "numbered sources"):
		for _, m := range sourceLine.FindAllStringSubmatch(r.LastUser(), -1) {
			if strings.Contains(m[2], "capital of France") {
				return llmtest.Text("Paris is the capital of France [" + m[1] + "].")
			}
		}
		return llmtest.Text("NO_CONTEXT: no source names the capital")
	}
	return llmtest.Status(400, "unexpected prompt")
}

// stage returns the trace entries of one plugin.
func stage(resp *vm.Response, pluginID string) []plugin.StageOutcome {
	var out []plugin.StageOutcome
	for _, s := range resp.Trace.Outcome.Stages {
		if s.PluginID == pluginID {
			out = append(out, s)
		}
	}
	return out
}

func TestAskPinnedLLMSolverCites(t *testing.T) {
	srv, w := openWithModel(t, 0, model)

	resp := ask(t, w, map[string]string{"gs": "gs-llm-fast", "val": "val-llm"})
	require.Equal(t, vm.StatusAnswered, resp.Status, "%s\n%+v", resp.AnswerMarkdown, resp.Trace)
	assert.Regexp(t, `^Paris is the capital of France \[1\]\.\n\nSources:\n\[1\] Capital — geography/france\.md:\d+\n$`, resp.AnswerMarkdown)
	require.NotEmpty(t, resp.Evidence)
	assert.Equal(t, "geography/france.md", resp.Evidence[0].SourceID, "the cited KU comes first")
	assert.Empty(t, resp.Hint)
	assert.Empty(t, srv.Problems())

	gs := stage(resp, "gs-llm-fast")
	require.Len(t, gs, 1)
	assert.Equal(t, plugin.StatusSuccess, gs[0].Status)
	assert.Equal(t, 1, gs[0].LLMCalls)
	assert.Equal(t, llmtest.DefaultModel, gs[0].Model)
	assert.Equal(t, plugin.RoleGoalFast, gs[0].ModelRole)
	val := stage(resp, "val-llm")
	require.Len(t, val, 1)
	assert.Equal(t, plugin.StatusAccepted, val[0].Status)
	assert.Equal(t, 1, val[0].LLMCalls)
	assert.Equal(t, plugin.RoleValidation, val[0].ModelRole)
	assert.Equal(t, 2, srv.Hits(), "one solver call and one validation call")

	// The persisted trace says the same.
	tr, err := w.VM.Trace(resp.RequestID)
	require.NoError(t, err)
	assert.Equal(t, gs[0], stage(&vm.Response{Trace: tr}, "gs-llm-fast")[0])
}

// TestAskPinOnlyTheSolver is `mrpvm ask --pin gs=gs-llm-fast`: the other
// stages keep their default order.
func TestAskPinOnlyTheSolver(t *testing.T) {
	_, w := openWithModel(t, 0, model)
	resp := ask(t, w, map[string]string{"gs": "gs-llm-fast"})
	require.Equal(t, vm.StatusAnswered, resp.Status, "%s", resp.AnswerMarkdown)
	assert.Contains(t, resp.AnswerMarkdown, "Paris is the capital of France [1].")
	assert.Contains(t, resp.AnswerMarkdown, "Sources:\n[1] Capital — geography/france.md:")
	gs := stage(resp, "gs-llm-fast")
	require.Len(t, gs, 1)
	assert.Equal(t, 1, gs[0].LLMCalls)
	assert.Equal(t, plugin.RoleGoalFast, gs[0].ModelRole)
	assert.Equal(t, llmtest.DefaultModel, gs[0].Model)
	for _, s := range resp.Trace.Outcome.Stages {
		if s.PluginID != "gs-llm-fast" && s.PluginID != "val-llm" {
			assert.Zero(t, s.LLMCalls, s.PluginID)
		}
	}
	// With a model configured the planners see it and keep the LLM plugins
	// among their candidates.
	for _, n := range resp.Trace.Notes {
		assert.NotContains(t, n, "no model configured", n)
	}
}

func TestAskPinnedLLMSeedDetector(t *testing.T) {
	_, w := openWithModel(t, 0, model)
	resp := ask(t, w, map[string]string{"sd": "sd-llm-deep", "gs": "gs-llm-deep", "val": "val-llm"})
	require.Equal(t, vm.StatusAnswered, resp.Status, "%s", resp.AnswerMarkdown)
	require.Len(t, resp.Intents, 1)
	assert.Equal(t, "identify", resp.Intents[0].Act)
	sd := stage(resp, "sd-llm-deep")
	require.Len(t, sd, 1)
	assert.Equal(t, plugin.StatusSuccess, sd[0].Status)
	assert.Equal(t, plugin.RoleSeedDeep, sd[0].ModelRole)
	assert.Contains(t, resp.AnswerMarkdown, "[1]")
}

func TestBudgetExhaustedMidRequest(t *testing.T) {
	t.Run("validator skipped before its call", func(t *testing.T) {
		srv, w := openWithModel(t, 1, model)
		resp := ask(t, w, map[string]string{"gs": "gs-llm-fast", "val": "val-llm"})
		require.Equal(t, vm.StatusAnswered, resp.Status, "the answer stands, unvalidated")
		val := stage(resp, "val-llm")
		require.Len(t, val, 1)
		assert.Equal(t, plugin.StatusSkippedBudget, val[0].Status)
		assert.Equal(t, 0, val[0].LLMCalls)
		assert.Equal(t, 1, srv.Hits())
	})
	t.Run("seed correction spends the budget", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("### intentCNL\n@i1 intent ponder \"x\"\n### currentTurnContextCNL\n(none)"))
		srv.Handle(model)
		configure(t, srv)
		w := open(t, workspace(t, 2), filepath.Join(t.TempDir(), "kb.db"), false)
		defer w.Close()
		// sd-llm-fast may make 2 calls and 2 remain: its first reply does not
		// validate, the corrective call fixes it and spends the budget, so
		// val-llm (maxLLMCalls 1) is skipped for budget later in the request.
		resp := ask(t, w, map[string]string{"sd": "sd-llm-fast", "gs": "gs-symbolic", "val": "val-llm"})
		sd := stage(resp, "sd-llm-fast")
		require.Len(t, sd, 1)
		assert.Equal(t, plugin.StatusSuccess, sd[0].Status, "the correction fits the budget")
		assert.Equal(t, 2, sd[0].LLMCalls)
		val := stage(resp, "val-llm")
		require.Len(t, val, 1)
		assert.Equal(t, plugin.StatusSkippedBudget, val[0].Status)
	})
}

func TestLLMCache(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(model)
	configure(t, srv)
	ws, db := workspace(t, 0), filepath.Join(t.TempDir(), "kb.db")
	w := open(t, ws, db, true)
	first := ask(t, w, map[string]string{"gs": "gs-llm-fast", "val": "val-llm"})
	require.NoError(t, w.Close())
	require.Equal(t, vm.StatusAnswered, first.Status)
	hits := srv.Hits()
	require.Equal(t, 2, hits)

	w = open(t, ws, db, true)
	defer w.Close()
	second := ask(t, w, map[string]string{"gs": "gs-llm-fast", "val": "val-llm"})
	assert.Equal(t, first.AnswerMarkdown, second.AnswerMarkdown)
	assert.Equal(t, hits, srv.Hits(), "the second run is answered from the on-disk cache")
	assert.Equal(t, 1, stage(second, "gs-llm-fast")[0].LLMCalls, "cache hits still count against the budget")
}

func TestServerErrorsReachTheTrace(t *testing.T) {
	srv, w := openWithModel(t, 0, func(llmtest.Request) llmtest.Reply { return llmtest.Status(401, "invalid api key") })
	resp := ask(t, w, map[string]string{"gs": "gs-llm-fast"})
	assert.Equal(t, vm.StatusFailure, resp.Status, "the only pinned solver failed")
	gs := stage(resp, "gs-llm-fast")
	require.NotEmpty(t, gs)
	assert.Equal(t, plugin.StatusError, gs[0].Status)
	assert.Equal(t, 1, gs[0].LLMCalls, "a 401 is not retried")
	calls := 0
	for _, s := range gs {
		// Each evidence view and planner retries the pinned solver until
		// the request's budget (5 calls) is spent.
		assert.Contains(t, []plugin.Status{plugin.StatusError, plugin.StatusSkippedBudget}, s.Status)
		calls += s.LLMCalls
	}
	assert.LessOrEqual(t, calls, 5)
	assert.Equal(t, calls, srv.Hits())
	var codes []string
	for _, e := range resp.Trace.Errors {
		codes = append(codes, e.Code)
		assert.NotContains(t, e.Message, "Bearer")
	}
	assert.Contains(t, codes, llm.CodeAuth)
}

func TestOffline(t *testing.T) {
	offline(t)
	w := open(t, workspace(t, 0), filepath.Join(t.TempDir(), "kb.db"), false)
	defer w.Close()

	// The symbolic path answers; the planners route around the LLM plugins.
	resp := ask(t, w, nil)
	require.Equal(t, vm.StatusAnswered, resp.Status, "%s", resp.AnswerMarkdown)
	assert.Contains(t, resp.AnswerMarkdown, "Paris")
	assert.Contains(t, strings.Join(resp.Trace.Notes, "\n"), "no model configured, left out: ")
	for _, s := range resp.Trace.Outcome.Stages {
		assert.Zero(t, s.LLMCalls, s.PluginID)
	}

	// Pinned to an LLM solver, the request fails cleanly: unsupported with
	// llm_not_configured.
	resp = ask(t, w, map[string]string{"gs": "gs-llm-fast"})
	assert.Equal(t, vm.StatusFailure, resp.Status)
	gs := stage(resp, "gs-llm-fast")
	require.NotEmpty(t, gs)
	assert.Equal(t, plugin.StatusUnsupported, gs[0].Status)
	assert.Equal(t, llm.Hint, resp.Hint)
}
