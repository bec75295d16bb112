package vm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/vm"
)

// TestBadInputKeepsNothingInTheSession runs the built-in plugins over a
// real knowledge base file: a statement made in a normal question becomes
// a session KU, but one made in a question cut to MaxQuestionBytes, or in
// words the knowledge base does not know at all, is not kept, so it cannot
// steer the session's later questions.
func TestBadInputKeepsNothingInTheSession(t *testing.T) {
	w := openIngested(t, map[string]string{"docker.md": "# docker container run\n\n> Run a container.\n\n- Run a container in the background:\n\n`docker container run --detach {{image}}`\n"})
	ctx := context.Background()

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

// TestAFirstTurnThatRefersBackKeepsItsReason: a first turn read as a
// follow-up ("one" pointing back) that is never searched is not said to
// hold no word close to the knowledge base's: its misspelt words were
// never offered to the kb-plugins' spelling correction. The answer gives
// the reason it was not searched.
func TestAFirstTurnThatRefersBackKeepsItsReason(t *testing.T) {
	w := openIngested(t, map[string]string{"printenv.md": "# printenv\n\n> Print the values of environment variables.\n\n- Display the value of a specific variable:\n\n`printenv {{HOME}}`\n"})
	resp, err := w.VM.Ask(context.Background(), vm.Request{Question: "prnit the valeu of one enviroment varible"})
	require.NoError(t, err)
	assert.Equal(t, vm.StatusNoContext, resp.Status)
	assert.Contains(t, vm.ErrorCodes(resp), vm.CodeFollowUpNoContext)
	assert.NotContains(t, vm.ErrorCodes(resp), vm.CodeNoKnownTerms)
	assert.NotContains(t, resp.AnswerMarkdown, "close enough")
}
