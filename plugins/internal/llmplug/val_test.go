package llmplug_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug/llmplugtest"

	_ "github.com/mrpvm/mrpvm/plugins/val/val-llm"
)

// valLLM is the validator under test.
const valLLM = "val-llm"

func validateInput(answer string) *plugin.ValidateInput {
	return &plugin.ValidateInput{Payload: plugin.Payload{Prompt: "What is the capital of France?"}, Answer: answer, SolverID: "gs-llm-fast",
		Evidence: llmplugtest.Evidence([3]string{"f.md::0::0", "Capital of France", "Paris is the capital of France."}),
		Guidance: llmplugtest.Evidence([3]string{"session::t::unit-001", "rule", "Answers must name a city."})}
}

func TestValidate(t *testing.T) {
	v := llmplugtest.New[plugin.ValPlugin](t, valLLM)
	for _, tc := range []struct {
		name   string
		reply  llmtest.Reply
		answer string
		status plugin.Status
		reason string
		code   string
		calls  int
	}{
		{name: "accept", reply: llmtest.Text("ACCEPT: every statement is supported by E1"), answer: "Paris [1].",
			status: plugin.StatusAccepted, reason: "every statement is supported by E1", calls: 1},
		{name: "reject with reason line", reply: llmtest.Text("**REJECT**\nReason: the answer names Lyon, which E1 contradicts."), answer: "Lyon [1].",
			status: plugin.StatusRejected, reason: "the answer names Lyon, which E1 contradicts.", calls: 1},
		{name: "json verdict", reply: llmtest.Text(`{"verdict": "rejected", "reason": "off topic"}`), answer: "Bananas are yellow [1].",
			status: plugin.StatusRejected, reason: "off topic", calls: 1},
		{name: "no verdict", reply: llmtest.Text("I think it is mostly fine."), answer: "Paris [1].",
			status: plugin.StatusError, code: llmplug.CodeBadReply, calls: 1},
		{name: "server error", reply: llmtest.Status(503, "overloaded"), answer: "Paris [1].", status: plugin.StatusError, code: "llm_server_error", calls: 1},
		{name: "empty answer", answer: "  ", status: plugin.StatusRejected, reason: "the answer is empty", calls: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Handle(func(llmtest.Request) llmtest.Reply { return tc.reply })
			env := llmplugtest.Connect(t, srv, valLLM, llmplugtest.Setup{MaxCalls: 1})
			res, err := v.Validate(llmplugtest.Context(t), env.RC, validateInput(tc.answer))
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status, "%+v", res.Error)
			assert.Equal(t, tc.calls, res.Metadata.LLMCalls)
			if tc.code != "" {
				require.NotNil(t, res.Error)
				assert.Equal(t, tc.code, res.Error.Code)
				assert.Empty(t, res.Verdict)
				return
			}
			assert.Equal(t, tc.status, res.Verdict)
			assert.Equal(t, tc.reason, res.Reason)
			if tc.calls > 0 {
				user := srv.Requests()[0].LastUser()
				assert.Contains(t, user, "E1. Capital of France\nParis is the capital of France.")
				assert.Contains(t, user, "- Answers must name a city.")
				assert.Contains(t, user, tc.answer)
				assert.Equal(t, plugin.RoleValidation, env.Stage.Stats().Role)
			}
		})
	}
}

func TestValidateOffline(t *testing.T) {
	res, err := llmplugtest.New[plugin.ValPlugin](t, valLLM).Validate(llmplugtest.Context(t), llmplugtest.Offline(), validateInput("Paris [1]."))
	llmplugtest.Unavailable(t, err, res.Status, res.Error)
	assert.Empty(t, res.Verdict, "an unsupported validator neither accepts nor rejects")
}
