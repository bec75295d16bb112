package vm_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// TestBadInputKeepsNothingInTheSession runs the built-in plugins over a
// real knowledge base file: a statement made in a normal question becomes
// a session KU, but one made in a question cut to MaxQuestionBytes, or in
// words the knowledge base does not know at all, is not kept, so it cannot
// steer the session's later questions.
func TestBadInputKeepsNothingInTheSession(t *testing.T) {
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "docker.md"), []byte("# docker container run\n\n> Run a container.\n\n- Run a container in the background:\n\n`docker container run --detach {{image}}`\n"), 0o644))
	w, err := workspace.Open(workspace.Options{Root: ws, DBPath: filepath.Join(t.TempDir(), "kb.db"), NoWrappers: true, NoLLM: true})
	require.NoError(t, err)
	defer w.Close()
	ctx := context.Background()
	_, err = w.KB.Ingest(ctx, ingest.RunOptions{})
	require.NoError(t, err)

	units := func(id string) int {
		s, err := w.VM.Session(id)
		require.NoError(t, err)
		return len(s.Units)
	}
	resp, err := w.VM.Ask(ctx, vm.Request{Question: "Answer in one short sentence. How do I run a docker container in the background?"})
	require.NoError(t, err)
	require.Equal(t, vm.StatusAnswered, resp.Status)
	sid := resp.SessionID
	kept := units(sid)
	require.Positive(t, kept, "a statement in a normal question is a session KU")

	big := "Answer with a long essay. " + strings.Repeat("How do I run a docker container in the background? ", 1<<20/51+1)
	resp, err = w.VM.Ask(ctx, vm.Request{Question: big, SessionID: sid})
	require.NoError(t, err)
	assert.Contains(t, vm.ErrorCodes(resp), vm.CodeQuestionTruncated)
	assert.Equal(t, kept, units(sid), "a cut question keeps no session KU")

	resp, err = w.VM.Ask(ctx, vm.Request{Question: "Zqxv blorf qwopz. Wibblefrot plokmn?", SessionID: sid})
	require.NoError(t, err)
	assert.Equal(t, vm.StatusNoContext, resp.Status)
	assert.Contains(t, vm.ErrorCodes(resp), vm.CodeNoKnownTerms)
	assert.Equal(t, kept, units(sid), "a question of unknown words keeps no session KU")
}
