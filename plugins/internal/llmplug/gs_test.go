package llmplug_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug/llmplugtest"

	_ "github.com/mrpvm/mrpvm/plugins/gs/gs-llm-deep"
	_ "github.com/mrpvm/mrpvm/plugins/gs/gs-llm-fast"
)

// The goal solvers under test, built the way the catalog builds them.
const gsFast, gsDeep = "gs-llm-fast", "gs-llm-deep"

var newGSFast = llmplugtest.Factory(gsFast)

func fastSolver(t *testing.T) *llmplug.GoalSolverPlugin {
	return llmplugtest.New[*llmplug.GoalSolverPlugin](t, gsFast)
}

func fastSolveInput() *plugin.SolveInput {
	ev := llmplugtest.Evidence(
		[3]string{"notes/facts.md::0::0", "Capital of France", "Paris is the capital of France."},
		[3]string{"notes/facts.md::0::1", "Seine", "The Seine flows through Paris."},
	)
	return &plugin.SolveInput{
		Payload:  plugin.Payload{Prompt: "What is the capital of France?", Context: plugin.ContextOf([]*kus.KU{ev[0].KU, ev[1].KU})},
		Intents:  []plugin.Intent{{ID: "i1", Act: "identify", Target: "capital of France", Output: "list"}},
		Evidence: ev,
		Guidance: llmplugtest.Evidence([3]string{"session::t::unit-000", "answer shape", "Answer in one sentence."}),
	}
}

func TestSolve(t *testing.T) {
	const cited = "Paris is the capital of France [1]."
	for _, tc := range []struct {
		name     string
		replies  []llmtest.Reply
		setup    llmplugtest.Setup
		status   plugin.Status
		code     string // error code
		calls    int    // llmCalls charged
		hits     int    // HTTP requests the server saw
		contains string // in responseMarkdown
	}{
		{name: "success", replies: []llmtest.Reply{llmtest.Text(cited)}, status: plugin.StatusSuccess, calls: 1, hits: 1,
			contains: "Paris is the capital of France [1].\n\nSources:\n[1] Capital of France — notes/facts.md:10"},
		{name: "streaming", replies: []llmtest.Reply{llmtest.Stream(cited)}, setup: llmplugtest.Setup{Stream: true},
			status: plugin.StatusSuccess, calls: 1, hits: 1, contains: "Paris is the capital of France [1]."},
		{name: "401", replies: []llmtest.Reply{llmtest.Status(401, "invalid api key")}, status: plugin.StatusError, code: "llm_auth", calls: 1, hits: 1},
		{name: "429 then success", replies: []llmtest.Reply{llmtest.RateLimited("0"), llmtest.Text(cited)},
			status: plugin.StatusSuccess, calls: 1, hits: 2, contains: "[1] Capital of France"},
		{name: "500", replies: []llmtest.Reply{llmtest.Status(500, "boom"), llmtest.Status(500, "boom"), llmtest.Status(500, "boom")},
			status: plugin.StatusError, code: "llm_server_error", calls: 1, hits: 3},
		{name: "hang past the timeout", replies: []llmtest.Reply{llmtest.Hang()}, setup: llmplugtest.Setup{TimeoutMs: 200},
			status: plugin.StatusError, code: "llm_timeout", calls: 1, hits: 1},
		{name: "malformed JSON", replies: []llmtest.Reply{llmtest.Malformed()}, status: plugin.StatusError, code: "llm_bad_reply", calls: 1, hits: 1},
		{name: "model says no context", replies: []llmtest.Reply{llmtest.Text("NO_CONTEXT: the sources do not name a capital")},
			status: plugin.StatusNoContext, calls: 1, hits: 1, contains: "the sources do not name a capital"},
		{name: "model says too broad", replies: []llmtest.Reply{llmtest.Text("**NEEDS_DECOMPOSITION:** history; geography; economy")},
			status: plugin.StatusNeedsDecomposition, calls: 1, hits: 1, contains: "history; geography; economy"},
		{name: "uncited answer", replies: []llmtest.Reply{llmtest.Text("Paris, obviously.")}, status: plugin.StatusError, code: llmplug.CodeUncited, calls: 1, hits: 1},
		{name: "budget spent", setup: llmplugtest.Setup{Budget: -1, MaxCalls: 0}, replies: nil, status: plugin.StatusSuccess, calls: 0, hits: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			if tc.name == "budget spent" {
				// A request whose budget is already spent: the meter refuses
				// before any HTTP call and the plugin steps aside.
				env := llmplugtest.Connect(t, srv, gsFast, llmplugtest.Setup{Budget: 1})
				srv.Script(llmtest.Text(cited))
				_, err := env.Meter.Complete(llmplugtest.Context(t), plugin.LLMRequest{PluginID: "other", Role: plugin.RoleGoalFast,
					Messages: []plugin.Message{{Role: "user", Content: "x"}}})
				require.NoError(t, err)
				res, err := fastSolver(t).Solve(llmplugtest.Context(t), env.RC, fastSolveInput())
				require.NoError(t, err)
				assert.Equal(t, plugin.StatusUnsupported, res.Status)
				require.NotNil(t, res.Error)
				assert.Equal(t, plugin.CodeLLMBudget, res.Error.Code)
				assert.Equal(t, 0, res.Metadata.LLMCalls)
				assert.Equal(t, 1, srv.Hits(), "the refused call never reached the server")
				return
			}
			env := llmplugtest.Connect(t, srv, gsFast, tc.setup)
			res, err := fastSolver(t).Solve(llmplugtest.Context(t), env.RC, fastSolveInput())
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status, "error: %+v", res.Error)
			if tc.code != "" {
				require.NotNil(t, res.Error)
				assert.Equal(t, tc.code, res.Error.Code)
			} else {
				assert.Nil(t, res.Error)
			}
			assert.Equal(t, tc.calls, res.Metadata.LLMCalls)
			assert.Equal(t, tc.calls, env.Stage.Stats().Calls)
			assert.Equal(t, tc.hits, srv.Hits())
			assert.Empty(t, srv.Problems())
			if tc.contains != "" {
				assert.Contains(t, res.ResponseMarkdown, tc.contains)
			}
			if tc.status == plugin.StatusSuccess {
				assert.Equal(t, []string{"notes/facts.md::0::0"}, res.EvidenceIDs)
				assert.Equal(t, llmtest.DefaultModel, res.Metadata.Model)
				var doc llmplug.ResponseDocument
				require.NoError(t, json.Unmarshal(res.ResponseDocument, &doc))
				require.Len(t, doc.Citations, 1)
				assert.Equal(t, "notes/facts.md::0::0", doc.Citations[0].KUID)
			}
		})
	}
}

func TestSolvePrompt(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Paris [2]."))
	env := llmplugtest.Connect(t, srv, gsFast, llmplugtest.Setup{MaxCalls: 1})
	res, err := fastSolver(t).Solve(llmplugtest.Context(t), env.RC, fastSolveInput())
	require.NoError(t, err)
	require.Equal(t, plugin.StatusSuccess, res.Status)
	// The second source is renumbered [1] and maps back to its KU.
	assert.Equal(t, "Paris [1].\n\nSources:\n[1] Seine — notes/facts.md:20\n", res.ResponseMarkdown)
	assert.Equal(t, []string{"notes/facts.md::0::1"}, res.EvidenceIDs)

	req := srv.Requests()[0]
	assert.Equal(t, llmtest.DefaultModel, req.Model)
	assert.Contains(t, req.System(), "ONLY the numbered sources")
	assert.Contains(t, req.System(), "NEEDS_DECOMPOSITION", "depth 0 of 3 may decompose")
	user := req.LastUser()
	for _, want := range []string{"Question: What is the capital of France?", "- identify: capital of France",
		"- Answer in one sentence.", "[1] Capital of France\nParis is the capital of France.", "[2] Seine\nThe Seine flows through Paris."} {
		assert.Contains(t, user, want)
	}
}

func TestSolveWithoutEvidenceOrModel(t *testing.T) {
	p := fastSolver(t)
	// Offline: no LLM in the run context.
	res, err := p.Solve(llmplugtest.Context(t), llmplugtest.Offline(), fastSolveInput())
	llmplugtest.Unavailable(t, err, res.Status, res.Error)
	assert.Contains(t, res.Error.Message, "MRPVM_LLM_BASE_URL")

	// No evidence: no-context without a call.
	srv := llmtest.New(t)
	env := llmplugtest.Connect(t, srv, gsFast, llmplugtest.Setup{MaxCalls: 1})
	in := fastSolveInput()
	in.Evidence, in.Payload.Context = nil, nil
	res, err = p.Solve(llmplugtest.Context(t), env.RC, in)
	require.NoError(t, err)
	assert.Equal(t, plugin.StatusNoContext, res.Status)
	assert.Equal(t, 0, srv.Hits())

	// At the depth limit the decomposition marker is a no-context answer.
	srv = llmtest.New(t, llmtest.Text("NEEDS_DECOMPOSITION: too much"))
	env = llmplugtest.Connect(t, srv, gsFast, llmplugtest.Setup{MaxCalls: 1})
	in = fastSolveInput()
	in.FrameDepth = 3
	res, err = p.Solve(llmplugtest.Context(t), env.RC, in)
	require.NoError(t, err)
	assert.Equal(t, plugin.StatusNoContext, res.Status)
	assert.NotContains(t, srv.Requests()[0].System(), "NEEDS_DECOMPOSITION")
}

func TestGoalSolverOptions(t *testing.T) {
	_, err := newGSFast(json.RawMessage(`{"maxEvidence": 0}`), plugin.Env{})
	assert.ErrorContains(t, err, "maxEvidence")
	_, err = newGSFast(json.RawMessage(`{"bogus": 1}`), plugin.Env{})
	assert.Error(t, err)
	p, err := newGSFast(json.RawMessage(`{"maxEvidence": 2, "maxEvidenceChars": 900}`), plugin.Env{})
	require.NoError(t, err)
	assert.Equal(t, 2, p.(*llmplug.GoalSolverPlugin).Options.MaxEvidence)
	assert.True(t, strings.HasPrefix(p.Descriptor().ID, "gs-llm"))
}

func deepSolveInput() *plugin.SolveInput {
	ev := llmplugtest.Evidence(
		[3]string{"a.md::0::0", "AchillesIDE", "AchillesIDE uses Ploinky."},
		[3]string{"a.md::0::1", "Ploinky", "Ploinky provides secure execution."},
	)
	ev[1].Why = "[a.md::0::0] AchillesIDE uses Ploinky => AchillesIDE has_capability secure_execution"
	return &plugin.SolveInput{Payload: plugin.Payload{Prompt: "Why is AchillesIDE secure?"},
		Intents:  []plugin.Intent{{ID: "i1", Act: "explain", Target: "why AchillesIDE is secure", Output: "explanation", Criterion: "a causal chain"}},
		Evidence: ev}
}

func TestSolveDeep(t *testing.T) {
	p := llmplugtest.New[plugin.GSPlugin](t, gsDeep)
	for _, tc := range []struct {
		name    string
		replies []llmtest.Reply
		status  plugin.Status
		code    string
		calls   int
		want    string
	}{
		{name: "chain cited", replies: []llmtest.Reply{llmtest.Text("AchillesIDE uses Ploinky [1], which provides secure execution [2].\n\nSources:\n[1] whatever")},
			status: plugin.StatusSuccess, calls: 1,
			want: "AchillesIDE uses Ploinky [1], which provides secure execution [2].\n\nSources:\n[1] AchillesIDE — notes/facts.md:10\n[2] Ploinky — notes/facts.md:20\n"},
		{name: "uncited then corrected", replies: []llmtest.Reply{llmtest.Text("It is secure because of Ploinky."), llmtest.Text("Ploinky provides secure execution [2].")},
			status: plugin.StatusSuccess, calls: 2, want: "Ploinky provides secure execution [1].\n\nSources:\n[1] Ploinky — notes/facts.md:20\n"},
		{name: "cites unknown numbers twice", replies: []llmtest.Reply{llmtest.Text("Secure [7]."), llmtest.Text("Secure [9].")},
			status: plugin.StatusError, code: llmplug.CodeUncited, calls: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			env := llmplugtest.Connect(t, srv, gsDeep, llmplugtest.Setup{MaxCalls: 2})
			res, err := p.Solve(llmplugtest.Context(t), env.RC, deepSolveInput())
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status, "%+v", res.Error)
			assert.Equal(t, tc.calls, res.Metadata.LLMCalls)
			assert.Equal(t, plugin.RoleGoalDeep, env.Stage.Stats().Role)
			if tc.code != "" {
				require.NotNil(t, res.Error)
				assert.Equal(t, tc.code, res.Error.Code)
				return
			}
			assert.Equal(t, tc.want, res.ResponseMarkdown)
			user := srv.Requests()[0].LastUser()
			assert.Contains(t, user, "criterion: a causal chain")
			assert.Contains(t, user, "(retrieved because: [a.md::0::0] AchillesIDE uses Ploinky")
			if tc.calls == 2 {
				assert.Contains(t, srv.Requests()[1].LastUser(), "cites none of the 2 numbered sources")
			}
		})
	}
}
