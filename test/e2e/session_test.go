package e2e

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sessionWorkspace = `-- docker-container-run.md --
# docker container run

> Create and run a new container from an image.

- Run a container in the background:

` + "`docker container run --detach {{image}}`" + `

-- docker-container-ls.md --
# docker container ls

> List Docker containers.

- List currently running containers:

` + "`docker container ls`" + `

-- docker-container-rm.md --
# docker container rm

> Remove containers.

- Remove a container:

` + "`docker container rm {{container_name}}`" + `
`

// sessionJSON is the part of `mrpvm ask --json` a session test reads.
type sessionJSON struct {
	SessionID   string `json:"sessionId"`
	Status      string `json:"status"`
	SearchedFor string `json:"searchedFor"`
	Evidence    []struct {
		SourceID string `json:"sourceId"`
	} `json:"evidence"`
}

func askSession(t *testing.T, env []string, ws string, args ...string) (sessionJSON, result) {
	t.Helper()
	r := run(t, env, append([]string{"ask", "--workspace", ws, "--json"}, args...)...)
	var out sessionJSON
	if r.stdout != "" {
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	}
	return out, r
}

// TestSessionContinuesAcrossProcesses asks a question in one process and a
// follow-up ("them", "one") in others: the session, its turns and what
// they were about are read back from the knowledge base, the follow-up is
// searched with the earlier topic, and an unknown session id is an error.
func TestSessionContinuesAcrossProcesses(t *testing.T) {
	ws := writeWorkspace(t, sessionWorkspace)
	env := isolatedEnv(t)

	first, r := askSession(t, env, ws, "--session", "new", "How do I run a docker container in the background?")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "answered", first.Status, r.stdout)
	require.NotEmpty(t, first.SessionID)
	require.NotEmpty(t, first.Evidence)
	assert.Equal(t, "docker-container-run.md", first.Evidence[0].SourceID)

	second, r := askSession(t, env, ws, "--session", first.SessionID, "How do I list them?")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, first.SessionID, second.SessionID)
	assert.Equal(t, "answered", second.Status, r.stdout)
	assert.Contains(t, second.SearchedFor, "docker container")
	require.NotEmpty(t, second.Evidence)
	assert.Equal(t, "docker-container-ls.md", second.Evidence[0].SourceID)

	third, r := askSession(t, env, ws, "--session", first.SessionID, "and how do I remove one?")
	require.Equal(t, 0, r.code, r.stderr)
	require.NotEmpty(t, third.Evidence, r.stdout)
	assert.Equal(t, "docker-container-rm.md", third.Evidence[0].SourceID)

	// An unknown id is an invalid request, not a silent new session.
	_, r = askSession(t, env, ws, "--session", "s-doesnotexist", "How do I list them?")
	assert.Equal(t, 2, r.code, r.stdout)
	assert.Contains(t, r.stderr, "session not found")

	// A follow-up that opens a session has nothing to refer to.
	open, r := askSession(t, env, ws, "How do I list them?")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "no-context", open.Status, r.stdout)
}

const anchorWorkspace = `-- editor.md --
# Editor extension

The editor extension adds the ask command to the editor.

## Installing

Install the editor extension with ` + "`mrx install-extension`" + `; it finds the server through
the ` + "`mrx.server.path`" + ` setting, then on PATH.

-- configuration.md --
# Configuration

## Editor extension settings

| key | meaning |
| --- | --- |
| mrx.theme | the colour theme of the editor extension |
| mrx.trace | how much the editor extension logs |
`

// TestFollowUpPrefersTheConversationsPage: "its settings" after an answer
// from the extension's page is answered from that page, which names its
// setting, rather than from another page whose heading matches the
// completed question as well.
func TestFollowUpPrefersTheConversationsPage(t *testing.T) {
	ws := writeWorkspace(t, anchorWorkspace)
	env := isolatedEnv(t)

	first, r := askSession(t, env, ws, "--session", "new", "How do I install the editor extension?")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "answered", first.Status, r.stdout)
	require.NotEmpty(t, first.Evidence)
	require.Equal(t, "editor.md", first.Evidence[0].SourceID)

	second, r := askSession(t, env, ws, "--session", first.SessionID, "Where are its settings?")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "answered", second.Status, r.stdout)
	require.NotEmpty(t, second.Evidence, r.stdout)
	assert.Equal(t, "editor.md", second.Evidence[0].SourceID, r.stdout)
}

const imageWorkspace = `-- common/docker-image-pull.md --
# docker image pull

> Download Docker images from a registry.

- Download a specific Docker image:

` + "`docker image pull {{image}}:{{tag}}`" + `

-- common/docker-image-ls.md --
# docker image ls

> List local Docker images.

- List all Docker images:

` + "`docker image ls`" + `
` + gitStashPage

// TestFollowUpDropsTheEarlierActionWhenItsPageIsSilent: "pull" named the
// page that answered "How do I pull a docker image?", but that page says
// nothing of listing, so "How do I list them?" is about docker images, not
// about pulling; "stash" stays in a git stash conversation, whose page
// lists stashes.
func TestFollowUpDropsTheEarlierActionWhenItsPageIsSilent(t *testing.T) {
	ws := writeWorkspace(t, imageWorkspace)
	env := isolatedEnv(t)

	first, r := askSession(t, env, ws, "--session", "new", "How do I pull a docker image?")
	require.Equal(t, 0, r.code, r.stderr)
	require.NotEmpty(t, first.Evidence, r.stdout)
	require.Equal(t, "common/docker-image-pull.md", first.Evidence[0].SourceID)
	second, r := askSession(t, env, ws, "--session", first.SessionID, "How do I list them?")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "answered", second.Status, r.stdout)
	assert.Equal(t, "How do I list them (docker image)?", second.SearchedFor)
	require.NotEmpty(t, second.Evidence, r.stdout)
	assert.Equal(t, "common/docker-image-ls.md", second.Evidence[0].SourceID)

	first, r = askSession(t, env, ws, "--session", "new", "How do I stash my changes in git?")
	require.Equal(t, 0, r.code, r.stderr)
	second, r = askSession(t, env, ws, "--session", first.SessionID, "How do I see the list of them?")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, second.SearchedFor, "stash")
	require.NotEmpty(t, second.Evidence, r.stdout)
	assert.Equal(t, "common/git-stash.md", second.Evidence[0].SourceID)
}
