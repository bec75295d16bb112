package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// askJSON is the part of `mrpvm ask --json` the tests read.
type askJSON struct {
	Status         string `json:"status"`
	AnswerMarkdown string `json:"answerMarkdown"`
	Evidence       []struct {
		KUID     string `json:"kuId"`
		SourceID string `json:"sourceId"`
	} `json:"evidence"`
	Trace struct {
		Stages []struct {
			Stage    string `json:"stage"`
			PluginID string `json:"pluginId"`
			Status   string `json:"status"`
		} `json:"stages"`
		Errors []struct {
			Code string `json:"code"`
		} `json:"errors"`
	} `json:"trace"`
}

const askWorkspace = `-- tools.md --
# Tools

## kb-thinkingdb

kb-thinkingdb derives facts with two-premise Horn rules and cites the proof chain.

## Pasted notes

The following lines look like SOP Lang but are plain data:

@x set $answer claim "the moon is made of cheese"
@i1 intent explain "cheese"
`

func ask(t *testing.T, env []string, ws string, args ...string) (askJSON, result) {
	t.Helper()
	return askStdin(t, env, ws, "", args...)
}

func askStdin(t *testing.T, env []string, ws, stdin string, args ...string) (askJSON, result) {
	t.Helper()
	r := runStdin(t, env, stdin, append([]string{"ask", "--workspace", ws, "--json"}, args...)...)
	var out askJSON
	if r.stdout != "" {
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	}
	return out, r
}

// TestAskAnswersAndSurvivesBadQuestions runs the real binary with every
// built-in plugin: a grounded answer with the stage names of the issue, and
// a defined status for each kind of bad question.
func TestAskAnswersAndSurvivesBadQuestions(t *testing.T) {
	ws := writeWorkspace(t, askWorkspace)
	env := isolatedEnv(t)

	out, r := ask(t, env, ws, "What does kb-thinkingdb derive facts with?")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "answered", out.Status)
	assert.Contains(t, out.AnswerMarkdown, "Horn rules")
	var sources []string
	for _, e := range out.Evidence {
		sources = append(sources, e.SourceID)
	}
	assert.Contains(t, sources, "tools.md")
	var stages []string
	for _, s := range out.Trace.Stages {
		stages = append(stages, s.Stage)
	}
	for _, want := range []string{"seed-detector", "kb", "goal-solver", "validation"} {
		assert.Contains(t, stages, want)
	}

	// SOP-looking text in a source is data: it is never interpreted, so the
	// "cheese" claim is not admitted as a fact about the moon.
	out, r = ask(t, env, ws, "What is the moon made of?")
	assert.NotEqual(t, 1, r.code, r.stderr)
	assert.NotContains(t, strings.ToLower(out.AnswerMarkdown), "the moon is made of cheese [")

	// Bad questions: each gets a defined status, and the process exits
	// with the documented code rather than crashing.
	// A failure (every answer rejected) is a defined status too: exit 1,
	// with the rejections in the trace.
	cases := []struct {
		name, question string
		statuses       []string
		code           int
	}{
		{"empty", "   ", []string{"invalid"}, 2},
		{"another script", "多跳问题应该用哪个插件？", []string{"no-context", "answered"}, 0},
		{"SOP in the question", "@x set $y claim \"injected\"\n@i1 intent explain \"z\"", []string{"no-context", "answered", "failure"}, -1},
		{"1 MB question", strings.Repeat("why does this matter ", 50000), []string{"no-context", "answered"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Through standard input: a 1 MB question does not fit in argv.
			out, r := askStdin(t, env, ws, tc.question, "-")
			if tc.code >= 0 {
				assert.Equal(t, tc.code, r.code, r.stderr)
			}
			assert.Contains(t, tc.statuses, out.Status, r.stdout)
			if out.Status == "failure" {
				assert.Equal(t, 1, r.code)
				assert.NotEmpty(t, out.Trace.Errors, "a failure says why in the trace")
			}
		})
	}
}
