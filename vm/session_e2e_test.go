package vm_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// askInProcess opens the workspace (as a new process would: the
// knowledge base file at db), asks one question and closes it again.
func askInProcess(t *testing.T, root, db string, req vm.Request) *vm.Response {
	t.Helper()
	w, err := workspace.Open(workspace.Options{Root: root, DBPath: db, NoWrappers: true, NoLLM: true})
	require.NoError(t, err)
	defer w.Close()
	ctx := context.Background()
	_, err = w.KB.Ingest(ctx, ingest.RunOptions{})
	require.NoError(t, err)
	resp, err := w.VM.Ask(ctx, req)
	require.NoError(t, err)
	return resp
}

// sessionWorkspace unpacks the workspace testdata/sessions/name.txtar
// into a new folder and returns it with the path of a knowledge base file
// beside it, not yet made.
func sessionWorkspace(t *testing.T, name string) (root, db string) {
	t.Helper()
	return testtree.Unpack(t, filepath.Join("testdata", "sessions", name+".txtar")), filepath.Join(t.TempDir(), "kb.db")
}

// answeredFrom requires resp to be an answer whose first evidence is of
// source.
func answeredFrom(t *testing.T, resp *vm.Response, source string) {
	t.Helper()
	require.Equal(t, vm.StatusAnswered, resp.Status)
	require.NotEmpty(t, resp.Evidence)
	require.Equal(t, source, resp.Evidence[0].SourceID)
}

// turn is one question of a session and the source its answer must
// come first from ("" for no such requirement).
type turn struct{ question, from string }

// askTurns asks the turns in order in one session, each in a new
// process (askInProcess), requires each answer naming a source to come
// first from it, and returns the responses.
func askTurns(t *testing.T, root, db string, turns ...turn) []*vm.Response {
	t.Helper()
	var out []*vm.Response
	session := ""
	for _, tu := range turns {
		resp := askInProcess(t, root, db, vm.Request{Question: tu.question, SessionID: session})
		if tu.from != "" {
			answeredFrom(t, resp, tu.from)
		}
		if session == "" {
			session = resp.SessionID
		}
		out = append(out, resp)
	}
	return out
}

// sessionIn asks the turns in one session over the workspace
// testdata/sessions/name.txtar, as askTurns does, and returns the
// responses.
func sessionIn(t *testing.T, name string, turns ...turn) []*vm.Response {
	t.Helper()
	root, db := sessionWorkspace(t, name)
	return askTurns(t, root, db, turns...)
}

// evidenceSources lists the source of each unit of an answer's evidence.
func evidenceSources(resp *vm.Response) []string {
	var sources []string
	for _, e := range resp.Evidence {
		sources = append(sources, e.SourceID)
	}
	return sources
}

// TestFollowUpContinuesInThePageFamily runs the built-in plugins over a
// real knowledge base file, each turn in a new process: after an answer
// from a page named after the action asked for (docker-container-run), a
// follow-up naming only another action is answered from the sibling page
// that leads with that action (docker-container-ls), not from the page
// of the whole family that mentions it among other things; one naming a
// thing of its own keeps the page that leads with it.
func TestFollowUpContinuesInThePageFamily(t *testing.T) {
	images := sessionIn(t, "docker-container",
		turn{"How do I run a docker container in the background?", "common/docker-container-run.md"},
		turn{"How do I list them?", "common/docker-container-ls.md"},
		turn{"And how do I list images?", ""})[2]
	require.NotEmpty(t, images.Context)
	assert.NotEqual(t, "common/docker-container-ls.md", images.Context[0].SourceID, "a follow-up naming another thing is not held in the family")
	for _, n := range images.Trace.Notes {
		assert.NotContains(t, n, "docker-container-ls", "the family's page is not put first")
	}
}

// TestFollowUpTopicIsTheThingNotTheFolder: the topic a follow-up carries
// from a page of a compound name ("groupadd") is the word the name
// starts with, so "And how do I delete one?" looks for deleting groups,
// not for anything deleted on Linux.
func TestFollowUpTopicIsTheThingNotTheFolder(t *testing.T) {
	del := sessionIn(t, "groups",
		turn{"How do I create a new group of users on Linux?", "linux/groupadd.md"},
		turn{"And how do I delete one?", "linux/groupdel.md"})[1]
	assert.Contains(t, del.SearchedFor, "group")
}

// TestPartsAreAnsweredEachFromItsOwnPage: a question of two parts, the
// second going on with what the first named ("create a new git branch,
// and then push it to the remote"), is answered part by part, and the
// second part from the page named after what it asks for (git-push), not
// from the first part's page that mentions it in passing.
func TestPartsAreAnsweredEachFromItsOwnPage(t *testing.T) {
	root, db := sessionWorkspace(t, "git-branch")
	resp := askInProcess(t, root, db, vm.Request{Question: "How do I create a new git branch, and then push it to the remote?"})
	require.Equal(t, vm.StatusAnswered, resp.Status)
	require.NotNil(t, resp.Trace.Frames)
	require.Len(t, resp.Trace.Frames.Children, 2, "one frame per part")
	assert.Equal(t, []string{"common/git-branch.md", "common/git-push.md"}, evidenceSources(resp))
	assert.Contains(t, resp.AnswerMarkdown, "--set-upstream")

	// The first part's page says what the second asks in its own words:
	// it answers both.
	resp = askInProcess(t, root, db, vm.Request{Question: "How can I tell which git branch I'm on, and how do I delete a local one?"})
	require.Equal(t, vm.StatusAnswered, resp.Status)
	assert.Equal(t, []string{"common/git-branch.md"}, evidenceSources(resp))
	assert.Contains(t, resp.AnswerMarkdown, "git branch --delete")
}

// TestLaterPartsStayWithTheLibraryAskedAbout: in the documentation of
// several libraries, a later part pointing back at the library the first
// part was answered from ("serve static files with it", after "add
// middleware to a chi router") is answered from that library's folder,
// not from another library's page that says it in more words.
func TestLaterPartsStayWithTheLibraryAskedAbout(t *testing.T) {
	root, db := sessionWorkspace(t, "chi-middleware")
	resp := askInProcess(t, root, db, vm.Request{Question: "How do I add middleware to a chi router, and how do I serve static files with it?"})
	require.Equal(t, vm.StatusAnswered, resp.Status)
	assert.Equal(t, []string{"chi/README.md", "chi/_examples/README.md"}, evidenceSources(resp))
	assert.NotContains(t, resp.AnswerMarkdown, "PathPrefix")
}

// TestEarlierPartsShareTheLibraryALaterPartNames: the library a later
// part names ("the gin server") is what the first part ("group routes")
// asks about too, though another library's page says it in more words.
func TestEarlierPartsShareTheLibraryALaterPartNames(t *testing.T) {
	root, db := sessionWorkspace(t, "gin-routes")
	resp := askInProcess(t, root, db, vm.Request{Question: "How do I group routes, and how do I run the gin server on port 8080?"})
	answeredFrom(t, resp, "gin/README.md")
	assert.Contains(t, resp.AnswerMarkdown, "router.Group")
}

// TestUndoFollowUpAsksTheOpposite: "and how do I undo that?" after making
// something locked is answered with the page's example that unlocks it,
// the opposite the page names with a negative prefix, not with the
// example the earlier turn showed again.
func TestUndoFollowUpAsksTheOpposite(t *testing.T) {
	undo := sessionIn(t, "vaultctl",
		turn{"How do I make a vault entry locked so that nobody can edit it?", "linux/vaultctl.md"},
		turn{"and how do I undo that?", "linux/vaultctl.md"})[1]
	assert.Contains(t, undo.AnswerMarkdown, "vaultctl -l")
	assert.NotContains(t, undo.AnswerMarkdown, "vaultctl +l")
}

// TestUndoFollowUpSkipsTheSceneClause: the clause before the how-to's lead
// ("From the command line, ...") holds nothing to reverse: "line" is not
// undone by "inline", although the page says it; "locked" is.
func TestUndoFollowUpSkipsTheSceneClause(t *testing.T) {
	undo := sessionIn(t, "vaultctl-scene",
		turn{"From the command line, how do I make a vault entry locked so that nobody can edit it?", "linux/vaultctl.md"},
		turn{"and how do I undo that?", "linux/vaultctl.md"})[1]
	assert.Contains(t, undo.AnswerMarkdown, "vaultctl -l")
	assert.NotContains(t, undo.AnswerMarkdown, "--inline")
}

// TestUndoFollowUpFindsTheOppositePage: when the page that answered does
// not say the opposite, "and how do I undo it?" reverses the how-to's
// action to the one a page of the knowledge base is named after
// (svcctl-enable, then svcctl-disable).
func TestUndoFollowUpFindsTheOppositePage(t *testing.T) {
	sessionIn(t, "svcctl",
		turn{"How do I enable a daemon at boot?", "linux/svcctl-enable.md"},
		turn{"and how do I undo it?", "linux/svcctl-disable.md"})
}

// TestLongContinuationKeepsTheTopic: a turn opening with "and" continues
// the previous one however many words of its own it has: "and delete
// files at the target that no longer exist at the origin?" after a turn
// answered from syncdir is asked of syncdir, not of another tool that
// deletes files.
func TestLongContinuationKeepsTheTopic(t *testing.T) {
	sessionIn(t, "syncdir",
		turn{"How do I copy a folder with syncdir?", "common/syncdir.md"},
		turn{"and delete files at the target bucket that no longer exist at the origin folder?", "common/syncdir.md"})
}

// TestAndOpensAQuestionOfItsOwn: a turn opening with "and" whose full
// question names a thing of its own, which the conversation's page does
// not hold ("and how do I count the lines in a text file?" after a turn
// on at), is searched alone, not completed with the earlier topic.
func TestAndOpensAQuestionOfItsOwn(t *testing.T) {
	root, db := sessionWorkspace(t, "at")
	resp := askTurns(t, root, db,
		turn{"How do I schedule a command to run in 5 minutes with at?", "common/at.md"},
		turn{"and how do I count the lines in a text file?", "common/wc.md"})[1]
	assert.Empty(t, resp.Trace.SearchedFor, "the question is not completed with the earlier topic")
	// A full question whose words the at page holds continues the
	// conversation.
	resp = askTurns(t, root, db,
		turn{"How do I schedule a command to run in 5 minutes with at?", "common/at.md"},
		turn{"and how do I view a specified job?", ""})[1]
	assert.NotEmpty(t, resp.Trace.SearchedFor, "the question is completed with the earlier topic")
}

// TestUnnamedTopicKeepsTheConversation: the at command's name is a stop
// word, so the words a session about it carries cannot name it. A later
// question using a word rare in the knowledge base that the at page holds
// ("which jobs are queued?") is still about at, not about the printer
// queue's page that a search of its words alone finds first.
func TestUnnamedTopicKeepsTheConversation(t *testing.T) {
	root, db := sessionWorkspace(t, "at")
	pages := map[string]string{
		"common/lpq.md": "# lpq\n\n> Show which jobs are queued for printing.\n\n- See which jobs are queued:\n\n`lpq`\n\n- See which jobs are queued on all printers:\n\n`lpq -a`\n",
	}
	// Enough other pages that "job" is rare in the knowledge base.
	for i := range 200 {
		name := fmt.Sprintf("tool%03d", i)
		pages["common/"+name+".md"] = fmt.Sprintf("# %s\n\n> Manage widget number %d.\n\n- Show the widget:\n\n`%s show`\n", name, i, name)
	}
	testtree.WriteFiles(t, root, pages)
	require.Equal(t, "common/lpq.md", askInProcess(t, root, db, vm.Request{Question: "How can I see which jobs are queued?"}).Evidence[0].SourceID,
		"alone, the question is about the printer queue")
	askTurns(t, root, db,
		turn{"How do I schedule a command to run in 5 minutes with at?", "common/at.md"},
		turn{"How can I see which jobs are queued?", "common/at.md"})
}

// TestTopicCarriesThePageName: a question that names its thing only in
// part ("git" of "the commit that introduced a bug in git") answered
// from a page whose title names it in full ("git bisect") makes the
// conversation about that page: a follow-up pointing back at it is
// searched with the page's name and answered from it, not from a page
// named after a word the conversation has used all along ("commit").
func TestTopicCarriesThePageName(t *testing.T) {
	resp := sessionIn(t, "bisect",
		turn{"How do I find the commit that introduced a bug in git?", "common/git-bisect.md"},
		turn{"How do I tell it the commit it checked out works fine?", "common/git-bisect.md"})[1]
	assert.Contains(t, resp.Trace.SearchedFor, "bisect")
}

// TestAndWithoutANewThingKeepsTheTopic: a full question opening with
// "and" whose own words name nothing the conversation's page does not
// hold ("permission" of "And how do I take that permission back?" after
// a turn on direnv, which grants it) continues the conversation, though
// other pages hold more of its words: it is searched with the earlier
// topic and the page it leads to, answered or suggested, is direnv's.
// (Whether its answer is accepted is validation's matter: quoting again
// the example that answered the turn before is not an answer.)
func TestAndWithoutANewThingKeepsTheTopic(t *testing.T) {
	resp := sessionIn(t, "direnv",
		turn{"How do I let direnv load the .envrc in this folder?", "common/direnv.md"},
		turn{"And how do I take that permission back?", ""})[1]
	assert.Contains(t, resp.Trace.SearchedFor, "direnv", "the question is completed with the earlier topic")
	var first string
	switch {
	case len(resp.Evidence) > 0:
		first = resp.Evidence[0].SourceID
	case len(resp.Context) > 0:
		first = resp.Context[0].SourceID
	}
	assert.Equal(t, "common/direnv.md", first)
}

// TestUnansweredTurnKeepsTheConversationsPage: a question the knowledge
// base cannot answer ("how do I see which backups exist?") whose words
// the conversation's page mostly holds keeps the conversation on that
// page, so the next follow-up ("the ones older than a year") is asked of
// it rather than of the unanswered question's words alone (which lead to
// a page about removing old logs).
func TestUnansweredTurnKeepsTheConversationsPage(t *testing.T) {
	root, db := sessionWorkspace(t, "archivist")
	// Enough other pages that "backup" is rare in the knowledge base.
	testtree.WriteFiles(t, root, widgetPages("tool", "See whether the widget exists"))
	resps := askTurns(t, root, db,
		turn{"How do I back up a folder to a bucket with archivist, doing a full backup every month?", "common/archivist.md"},
		turn{"how do I see which backups exist?", ""},
		turn{"and delete the ones older than a year?", "common/archivist.md"})
	require.Equal(t, vm.StatusNoContext, resps[1].Status, "the page does not say how to list backups")
	assert.Equal(t, "Delete the ones older than a year (archivist)?", resps[2].Trace.SearchedFor)
	assert.Contains(t, resps[2].AnswerMarkdown, "remove-older-than")
}

// TestUnansweredOpenerCarriesItsRareWords runs the built-in plugins over a
// real knowledge base: a first turn nothing answers is carried into the
// next turn by its words that few sources hold ("public zone"), not by a
// word that many pages use ("widget"), nor by the user's own place ("on
// my CentOS box"), though a page is named after it (box.md): either would
// lead the follow-up to pages about something else.
func TestUnansweredOpenerCarriesItsRareWords(t *testing.T) {
	root, db := sessionWorkspace(t, "zonewall")
	pages := widgetPages("widget", "Show the widget")
	pages["common/box.md"] = "# box\n\n> Draw a box around text.\n\n- Put a box around a line:\n\n`box {{text}}`\n"
	testtree.WriteFiles(t, root, pages)
	resps := askTurns(t, root, db,
		turn{"On my CentOS box, how do I keep port 8443 open for good in the public zone of my widget?", ""},
		turn{"how do I make that take effect right away?", ""})
	require.Equal(t, vm.StatusNoContext, resps[0].Status, "no page says how to open a port")
	assert.NotContains(t, resps[1].Trace.SearchedFor, "box")
	assert.NotContains(t, resps[1].Trace.SearchedFor, "widget")
	assert.Contains(t, resps[1].Trace.SearchedFor, "zone")
}

// widgetPages are 200 tldr-style pages (common/<prefix>NNN.md) about
// widgets, each with one example described as example: enough pages that
// the words of a test's own pages are rare in the knowledge base.
func widgetPages(prefix, example string) map[string]string {
	pages := map[string]string{}
	for i := range 200 {
		name := fmt.Sprintf("%s%03d", prefix, i)
		pages["common/"+name+".md"] = fmt.Sprintf("# %s\n\n> Manage widget number %d.\n\n- %s:\n\n`%s show`\n", name, i, example, name)
	}
	return pages
}
