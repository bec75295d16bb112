package e2e

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const gitStashPage = `-- common/git-stash.md --
# git stash

> Stash local Git changes in a temporary area.

- Stash the current uncommitted changes:

` + "`git stash`" + `

- List all stashes:

` + "`git stash list`" + `

- Apply a stash and remove it from the stash list:

` + "`git stash pop`" + `
`

// badJSON is the part of `mrpvm ask --json` a bad-input test reads.
type badJSON struct {
	SessionID      string `json:"sessionId"`
	Status         string `json:"status"`
	AnswerMarkdown string `json:"answerMarkdown"`
	SearchedFor    string `json:"searchedFor"`
	Evidence       []struct {
		SourceID string `json:"sourceId"`
	} `json:"evidence"`
	Trace struct {
		Errors []struct {
			Code string `json:"code"`
		} `json:"errors"`
	} `json:"trace"`
}

func (b badJSON) codes() []string {
	var out []string
	for _, e := range b.Trace.Errors {
		out = append(out, e.Code)
	}
	return out
}

func (b badJSON) sources() []string {
	var out []string
	for _, e := range b.Evidence {
		out = append(out, e.SourceID)
	}
	return out
}

// askBad runs `mrpvm ask --json`, the question on standard input.
func askBad(t *testing.T, env []string, ws, question string, args ...string) (badJSON, result) {
	t.Helper()
	r := runStdin(t, env, question, append([]string{"ask", "--workspace", ws, "--json"}, append(args, "-")...)...)
	var out badJSON
	if r.stdout != "" {
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	}
	return out, r
}

// answeredSession opens a session in a new workspace of the session pages
// and git stash's page with question, which must be answered, and returns
// the isolated environment, the workspace and the answer.
func answeredSession(t *testing.T, question string) ([]string, string, badJSON) {
	t.Helper()
	ws := writeWorkspace(t, sessionWorkspace+gitStashPage)
	env := isolatedEnv(t)
	first, r := askBad(t, env, ws, question, "--session", "new")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "answered", first.Status, r.stdout)
	return env, ws, first
}

// TestBadInputGetsADefinedStatus asks every kind of bad input through the
// real binary, in the middle of a session: each gets its documented status,
// exit code, trace code and message, and none leaves anything in the
// knowledge base that misleads a later follow-up of the same session.
func TestBadInputGetsADefinedStatus(t *testing.T) {
	env, ws, first := answeredSession(t, "How do I run a docker container in the background?")
	session := first.SessionID

	// About git stash: had its turn been kept, a later "them" would mean
	// stashes.
	big := strings.Repeat("How do I stash my changes in git? ", 1<<20/34+1)
	for _, tc := range []struct {
		name       string
		questions  []string // asked in turn, each checked
		session    string   // "" : the session of the first question
		code       int      // exit code
		status     []string // the status is one of these
		trace      string   // a code in the trace
		stderr     []string // in standard error
		answer     string   // in the answer
		noEvidence bool
	}{
		{name: "empty question", questions: []string{" \n\t "}, code: 2, status: []string{"invalid"},
			trace: "EMPTY_QUESTION", stderr: []string{"the question is empty"}},
		{name: "1 MB question", questions: []string{big}, status: []string{"answered", "no-context"}, trace: "QUESTION_TRUNCATED"},
		{name: "only stop words", questions: []string{"What is the of and?"}, status: []string{"no-context"},
			trace: "NO_CONTENT_TERMS", answer: "only common words"},
		{name: "only typos", questions: []string{"xqzvt plokmn wibblefrot?"}, status: []string{"no-context"},
			trace: "NO_KNOWN_TERMS", answer: "xqzvt, plokmn, wibblefrot", noEvidence: true},
		// Asked twice: the first attempt creates nothing.
		{name: "unknown session id", questions: []string{"How do I list them?", "How do I list them?"}, session: "s-doesnotexist",
			code: 2, status: []string{"invalid"}, trace: "SESSION_NOT_FOUND",
			stderr: []string{"session s-doesnotexist: session not found", "--session new"}},
		{name: "follow-up opening a session", questions: []string{"How do I list them?", "and how do I remove one?", "How much does it cost?"},
			session: "new", status: []string{"no-context"}, trace: "FOLLOW_UP_WITHOUT_CONTEXT", answer: "no earlier answered question"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sess := cmp.Or(tc.session, session)
			for _, q := range tc.questions {
				out, r := askBad(t, env, ws, q, "--session", sess)
				assert.Equal(t, tc.code, r.code, r.stderr)
				assert.Contains(t, tc.status, out.Status, r.stdout)
				assert.Contains(t, out.codes(), tc.trace, q)
				for _, want := range tc.stderr {
					assert.Contains(t, r.stderr, want)
				}
				assert.Contains(t, out.AnswerMarkdown, tc.answer, q)
				if tc.noEvidence {
					assert.Empty(t, out.Evidence)
				}
			}
		})
	}

	// After all of that, the session's follow-up is still about what its
	// one answered question was about.
	out, r := askBad(t, env, ws, "How do I list them?", "--session", session)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "answered", out.Status, r.stdout)
	assert.Contains(t, out.SearchedFor, "docker container")
	assert.NotContains(t, out.SearchedFor, "stash")
	require.NotEmpty(t, out.Evidence, r.stdout)
	assert.Equal(t, "docker-container-ls.md", out.Evidence[0].SourceID)
}

// TestFollowUpAfterItsSourceIsDeleted deletes the page an earlier answer
// cited: the next run of ask re-ingests the workspace, the follow-up says
// the page is gone (SESSION_SOURCE_REMOVED) and never cites it.
func TestFollowUpAfterItsSourceIsDeleted(t *testing.T) {
	env, ws, first := answeredSession(t, "How do I stash my changes in git?")
	require.Equal(t, []string{"common/git-stash.md"}, first.sources())

	require.NoError(t, os.Remove(filepath.Join(ws, "common", "git-stash.md")))
	out, r := askBad(t, env, ws, "How do I see the list of them?", "--session", first.SessionID)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, []string{"answered", "no-context"}, out.Status, r.stdout)
	assert.Contains(t, out.codes(), "SESSION_SOURCE_REMOVED")
	assert.NotContains(t, out.sources(), "common/git-stash.md")
	assert.NotContains(t, out.AnswerMarkdown, "git-stash.md")
}
