package e2e

import (
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

// TestBadInputGetsADefinedStatus asks every kind of bad input through the
// real binary, in the middle of a session: each gets its documented status,
// exit code, trace code and message, and none leaves anything in the
// knowledge base that misleads a later follow-up of the same session.
func TestBadInputGetsADefinedStatus(t *testing.T) {
	ws := writeWorkspace(t, sessionWorkspace+gitStashPage)
	env := isolatedEnv(t)

	first, r := askBad(t, env, ws, "How do I run a docker container in the background?", "--session", "new")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "answered", first.Status, r.stdout)
	session := first.SessionID

	t.Run("empty question", func(t *testing.T) {
		out, r := askBad(t, env, ws, " \n\t ", "--session", session)
		assert.Equal(t, 2, r.code, r.stderr)
		assert.Equal(t, "invalid", out.Status)
		assert.Contains(t, out.codes(), "EMPTY_QUESTION")
		assert.Contains(t, r.stderr, "the question is empty")
	})
	t.Run("1 MB question", func(t *testing.T) {
		// About git stash: had its turn been kept, a later "them" would
		// mean stashes.
		big := strings.Repeat("How do I stash my changes in git? ", 1<<20/34+1)
		out, r := askBad(t, env, ws, big, "--session", session)
		assert.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, []string{"answered", "no-context"}, out.Status, r.stdout)
		assert.Contains(t, out.codes(), "QUESTION_TRUNCATED")
	})
	t.Run("only stop words", func(t *testing.T) {
		out, r := askBad(t, env, ws, "What is the of and?", "--session", session)
		assert.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, "no-context", out.Status)
		assert.Contains(t, out.codes(), "NO_CONTENT_TERMS")
		assert.Contains(t, out.AnswerMarkdown, "only common words")
	})
	t.Run("only typos", func(t *testing.T) {
		out, r := askBad(t, env, ws, "xqzvt plokmn wibblefrot?", "--session", session)
		assert.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, "no-context", out.Status)
		assert.Contains(t, out.codes(), "NO_KNOWN_TERMS")
		assert.Contains(t, out.AnswerMarkdown, "xqzvt, plokmn, wibblefrot")
		assert.Empty(t, out.Evidence)
	})
	t.Run("unknown session id", func(t *testing.T) {
		for range 2 { // the first attempt creates nothing
			out, r := askBad(t, env, ws, "How do I list them?", "--session", "s-doesnotexist")
			assert.Equal(t, 2, r.code, r.stderr)
			assert.Equal(t, "invalid", out.Status)
			assert.Contains(t, out.codes(), "SESSION_NOT_FOUND")
			assert.Contains(t, r.stderr, "session s-doesnotexist: session not found")
			assert.Contains(t, r.stderr, "--session new")
		}
	})
	t.Run("follow-up opening a session", func(t *testing.T) {
		for _, q := range []string{"How do I list them?", "and how do I remove one?", "How much does it cost?"} {
			out, r := askBad(t, env, ws, q, "--session", "new")
			assert.Equal(t, 0, r.code, r.stderr)
			assert.Equal(t, "no-context", out.Status, q)
			assert.Contains(t, out.codes(), "FOLLOW_UP_WITHOUT_CONTEXT", q)
			assert.Contains(t, out.AnswerMarkdown, "no earlier answered question", q)
		}
	})

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
	ws := writeWorkspace(t, sessionWorkspace+gitStashPage)
	env := isolatedEnv(t)

	first, r := askBad(t, env, ws, "How do I stash my changes in git?", "--session", "new")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "answered", first.Status, r.stdout)
	require.Equal(t, []string{"common/git-stash.md"}, first.sources())

	require.NoError(t, os.Remove(filepath.Join(ws, "common", "git-stash.md")))
	out, r := askBad(t, env, ws, "How do I see the list of them?", "--session", first.SessionID)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, []string{"answered", "no-context"}, out.Status, r.stdout)
	assert.Contains(t, out.codes(), "SESSION_SOURCE_REMOVED")
	assert.NotContains(t, out.sources(), "common/git-stash.md")
	assert.NotContains(t, out.AnswerMarkdown, "git-stash.md")
}
