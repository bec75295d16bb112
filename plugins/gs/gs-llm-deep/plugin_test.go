package gsllmdeep

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/engine/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug/llmplugtest"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin under test; New builds it the way the catalog does.
const ID = "gs-llm-deep"

var New = llmplugtest.Factory(ID)

func input() *sdk.SolveInput {
	ev := llmplugtest.Evidence(
		[3]string{"a.md::0::0", "AchillesIDE", "AchillesIDE uses Ploinky."},
		[3]string{"a.md::0::1", "Ploinky", "Ploinky provides secure execution."},
	)
	ev[1].Why = "[a.md::0::0] AchillesIDE uses Ploinky => AchillesIDE has_capability secure_execution"
	return &sdk.SolveInput{Payload: sdk.Payload{Prompt: "Why is AchillesIDE secure?"},
		Intents:  []sdk.Intent{{ID: "i1", Act: "explain", Target: "why AchillesIDE is secure", Output: "explanation", Criterion: "a causal chain"}},
		Evidence: ev}
}

func TestSolveDeep(t *testing.T) {
	p, err := New(nil, sdk.Env{PluginID: ID})
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		replies []llmtest.Reply
		status  sdk.Status
		code    string
		calls   int
		want    string
	}{
		{name: "chain cited", replies: []llmtest.Reply{llmtest.Text("AchillesIDE uses Ploinky [1], which provides secure execution [2].\n\nSources:\n[1] whatever")},
			status: sdk.StatusSuccess, calls: 1,
			want: "AchillesIDE uses Ploinky [1], which provides secure execution [2].\n\nSources:\n[1] AchillesIDE — notes/facts.md:10\n[2] Ploinky — notes/facts.md:20\n"},
		{name: "uncited then corrected", replies: []llmtest.Reply{llmtest.Text("It is secure because of Ploinky."), llmtest.Text("Ploinky provides secure execution [2].")},
			status: sdk.StatusSuccess, calls: 2, want: "Ploinky provides secure execution [1].\n\nSources:\n[1] Ploinky — notes/facts.md:20\n"},
		{name: "cites unknown numbers twice", replies: []llmtest.Reply{llmtest.Text("Secure [7]."), llmtest.Text("Secure [9].")},
			status: sdk.StatusError, code: llmplug.CodeUncited, calls: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			env := llmplugtest.Connect(t, srv, ID, llmplugtest.Setup{MaxCalls: 2})
			res, err := p.(sdk.GSPlugin).Solve(llmplugtest.Context(t), env.RC, input())
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status, "%+v", res.Error)
			assert.Equal(t, tc.calls, res.Metadata.LLMCalls)
			assert.Equal(t, sdk.RoleGoalDeep, env.Stage.Stats().Role)
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
