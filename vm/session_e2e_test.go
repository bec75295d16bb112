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

// pagesWorkspace writes pages (slash paths to Markdown) into a new
// workspace folder and returns it with the path of a knowledge base file
// beside it, not yet made.
func pagesWorkspace(t *testing.T, pages map[string]string) (root, db string) {
	t.Helper()
	root, db = t.TempDir(), filepath.Join(t.TempDir(), "kb.db")
	testtree.WriteFiles(t, root, pages)
	return root, db
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
	root, db := pagesWorkspace(t, map[string]string{
		"common/docker-container-run.md": "# docker container run\n\n> Run a command in a new Docker container.\n\n- Run a command in a new container in the background:\n\n`docker container run --detach {{image}}`\n",
		"common/docker-container.md": "# docker container\n\n> Manage Docker containers.\n\n- List currently running Docker containers:\n\n`docker container ls`\n\n" +
			"- Start one or more stopped Docker containers:\n\n`docker container start {{container}}`\n\n- Kill one or more running Docker containers:\n\n`docker container kill {{container}}`\n",
		"common/docker-container-ls.md": "# docker container ls\n\n> List Docker containers.\n\n- List currently running Docker containers:\n\n`docker container ls`\n\n- List all Docker containers (running and stopped):\n\n`docker container ls --all`\n",
		"common/docker-container-rm.md": "# docker container rm\n\n> Remove Docker containers.\n\n- Remove containers:\n\n`docker container rm {{container}}`\n",
		"common/docker-image-ls.md":     "# docker image ls\n\n> List Docker images.\n\n- List all images:\n\n`docker image ls --all`\n",
		"common/distrobox-list.md":      "# distrobox list\n\n> List all distrobox containers.\n\n- List containers:\n\n`distrobox list`\n",
		"common/tar.md":                 "# tar\n\n> Archiving utility.\n\n- Create an archive:\n\n`tar cf {{target.tar}} {{file}}`\n",
	})
	images := askTurns(t, root, db,
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
	root, db := pagesWorkspace(t, map[string]string{
		"linux/groupadd.md":       "# groupadd\n\n> Add user groups to the system.\n\n- Create a new group:\n\n`sudo groupadd {{group_name}}`\n",
		"linux/groupdel.md":       "# groupdel\n\n> Delete existing user groups from the system.\n\n- Delete an existing group:\n\n`sudo groupdel {{group_name}}`\n",
		"linux/semanage-login.md": "# semanage-login\n\n> Manage SELinux login mappings between Linux users and SELinux users.\n\n- Delete a login mapping of a Linux user:\n\n`sudo semanage login --delete {{linux_username}}`\n",
		"linux/userdel.md":        "# userdel\n\n> Remove a Linux user account.\n\n- Delete a Linux user:\n\n`sudo userdel {{username}}`\n",
		"linux/lsblk.md":          "# lsblk\n\n> List information about Linux devices.\n\n- List all devices on Linux:\n\n`lsblk --all`\n",
	})
	del := askTurns(t, root, db,
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
	root, db := pagesWorkspace(t, map[string]string{
		"common/git-branch.md": "# git branch\n\n> Main Git command for working with branches.\n\n- Create a new branch based on the current commit:\n\n`git branch {{branch_name}}`\n\n" +
			"- Show the name of the current branch:\n\n`git branch --show-current`\n\n- Delete a local branch:\n\n`git branch --delete {{branch_name}}`\n\n" +
			"- Delete a remote branch:\n\n`git push {{remote_name}} --delete {{remote_branch_name}}`\n",
		"common/git-delete-branch.md": "# git delete-branch\n\n> Delete local and remote Git branches.\n\n- Delete one or more local and remote Git branches:\n\n`git delete-branch {{branch_name}}`\n",
		"common/git-push.md":          "# git push\n\n> Push commits to a remote repository.\n\n- Publish the current branch to a remote repository, setting its upstream:\n\n`git push --set-upstream {{remote_name}} {{branch_name}}`\n",
		"common/git-pull.md":          "# git pull\n\n> Fetch a branch from a remote repository and merge it.\n\n- Download changes from the default remote and merge them:\n\n`git pull`\n",
		"common/tar.md":               "# tar\n\n> Archiving utility.\n\n- Create an archive:\n\n`tar cf {{target.tar}} {{file}}`\n",
	})
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
	root, db := pagesWorkspace(t, map[string]string{
		"chi/README.md": "# chi\n\nchi is a lightweight router for Go HTTP services.\n\n## Middlewares\n\nAdd middleware to a chi router with `r.Use`:\n\n" +
			"```go\nr := chi.NewRouter()\nr.Use(middleware.Logger)\n```\n\n## Router interface\n\nchi's router is based on a radix trie.\n",
		"chi/_examples/README.md": "# chi examples\n\n* fileserver - Easily serve static files from a folder\n* rest - REST APIs made easy\n",
		"mux/README.md": "# gorilla/mux\n\nA request router.\n\n## Static Files\n\nServe static files with mux: serving static files from a " +
			"static folder is easy, static files are served with `http.FileServer`:\n\n```go\nr.PathPrefix(\"/static/\").Handler(http.FileServer(dir))\n```\n",
		"gin/README.md": "# gin\n\nA web framework.\n\n## Routing\n\nGroup routes with `router.Group`.\n",
	})
	resp := askInProcess(t, root, db, vm.Request{Question: "How do I add middleware to a chi router, and how do I serve static files with it?"})
	require.Equal(t, vm.StatusAnswered, resp.Status)
	assert.Equal(t, []string{"chi/README.md", "chi/_examples/README.md"}, evidenceSources(resp))
	assert.NotContains(t, resp.AnswerMarkdown, "PathPrefix")
}

// TestEarlierPartsShareTheLibraryALaterPartNames: the library a later
// part names ("the gin server") is what the first part ("group routes")
// asks about too, though another library's page says it in more words.
func TestEarlierPartsShareTheLibraryALaterPartNames(t *testing.T) {
	root, db := pagesWorkspace(t, map[string]string{
		"gin/README.md": "# Gin\n\nGin is a web framework.\n\n## Grouping routes\n\nGroup routes with `router.Group(\"/v1\")`.\n\n" +
			"## Running\n\nRun the server on port 8080 with `router.Run(\":8080\")`.\n",
		"chi/README.md": "# chi\n\nchi is a router.\n\n## Route groups\n\nGroup routes, group routes inline, and mount route groups: " +
			"routes can be grouped with `r.Group` and `r.Route`, grouping routes under one prefix.\n",
		"mux/README.md":    "# mux\n\nA request router.\n\n## Subrouters\n\nUse subrouters for routes with a common path prefix.\n",
		"logrus/README.md": "# logrus\n\nStructured logging.\n",
	})
	resp := askInProcess(t, root, db, vm.Request{Question: "How do I group routes, and how do I run the gin server on port 8080?"})
	answeredFrom(t, resp, "gin/README.md")
	assert.Contains(t, resp.AnswerMarkdown, "router.Group")
}

// TestUndoFollowUpAsksTheOpposite: "and how do I undo that?" after making
// something locked is answered with the page's example that unlocks it,
// the opposite the page names with a negative prefix, not with the
// example the earlier turn showed again.
func TestUndoFollowUpAsksTheOpposite(t *testing.T) {
	root, db := pagesWorkspace(t, map[string]string{
		"linux/vaultctl.md": "# vaultctl\n\n> Manage entries of a vault.\n\n- Make an entry locked so that nobody can edit it:\n\n`vaultctl +l {{entry}}`\n\n" +
			"- Make an entry unlocked:\n\n`vaultctl -l {{entry}}`\n\n- Show the state of an entry:\n\n`vaultctl show {{entry}}`\n",
		"common/tar.md": "# tar\n\n> Archiving utility.\n\n- Create an archive:\n\n`tar cf {{target.tar}} {{file}}`\n",
	})
	undo := askTurns(t, root, db,
		turn{"How do I make a vault entry locked so that nobody can edit it?", "linux/vaultctl.md"},
		turn{"and how do I undo that?", "linux/vaultctl.md"})[1]
	assert.Contains(t, undo.AnswerMarkdown, "vaultctl -l")
	assert.NotContains(t, undo.AnswerMarkdown, "vaultctl +l")
}

// TestUndoFollowUpFindsTheOppositePage: when the page that answered does
// not say the opposite, "and how do I undo it?" reverses the how-to's
// action to the one a page of the knowledge base is named after
// (svcctl-enable, then svcctl-disable).
func TestUndoFollowUpFindsTheOppositePage(t *testing.T) {
	root, db := pagesWorkspace(t, map[string]string{
		"linux/svcctl-enable.md":  "# svcctl enable\n\n> Enable daemons at boot.\n\n- Enable a daemon to start at boot:\n\n`svcctl enable {{daemon}}`\n",
		"linux/svcctl-disable.md": "# svcctl disable\n\n> Disable daemons at boot.\n\n- Stop a daemon from starting at boot:\n\n`svcctl disable {{daemon}}`\n",
		"linux/svcctl-status.md":  "# svcctl status\n\n> Show the state of daemons.\n\n- Show whether a daemon runs:\n\n`svcctl status {{daemon}}`\n",
		"common/tar.md":           "# tar\n\n> Archiving utility.\n\n- Create an archive:\n\n`tar cf {{target.tar}} {{file}}`\n",
	})
	askTurns(t, root, db,
		turn{"How do I enable a daemon at boot?", "linux/svcctl-enable.md"},
		turn{"and how do I undo it?", "linux/svcctl-disable.md"})
}

// TestLongContinuationKeepsTheTopic: a turn opening with "and" continues
// the previous one however many words of its own it has: "and delete
// files at the target that no longer exist at the origin?" after a turn
// answered from syncdir is asked of syncdir, not of another tool that
// deletes files.
func TestLongContinuationKeepsTheTopic(t *testing.T) {
	root, db := pagesWorkspace(t, map[string]string{
		"common/syncdir.md": "# syncdir\n\n> Mirror folders.\n\n- Copy a folder to a target folder:\n\n`syncdir {{origin}} {{target}}`\n\n" +
			"- Delete files at the target that no longer exist at the origin:\n\n`syncdir --prune {{origin}} {{target}}`\n",
		"common/cloudcp.md": "# cloudcp\n\n> Copy files to cloud storage.\n\n- Delete files at the target bucket that no longer exist at the origin folder:\n\n`cloudcp sync --delete-target {{origin}} {{bucket}}`\n",
		"common/tar.md":     "# tar\n\n> Archiving utility.\n\n- Create an archive:\n\n`tar cf {{target.tar}} {{file}}`\n",
	})
	askTurns(t, root, db,
		turn{"How do I copy a folder with syncdir?", "common/syncdir.md"},
		turn{"and delete files at the target bucket that no longer exist at the origin folder?", "common/syncdir.md"})
}

// atPages are a small workspace around the at command, whose name is a
// stop word: the words of a question cannot name it.
var atPages = map[string]string{
	"common/at.md": "# at\n\n> Execute commands once at a later time.\n\n- Execute commands in 5 minutes:\n\n`at now + 5 minutes`\n\n" +
		"- Execute commands from a given file next Tuesday:\n\n`at -f {{path/to/file}} 9:30 PM Tue`\n\n- List all queued jobs for the current user:\n\n`at -l`\n\n- View a specified job:\n\n`at -c {{job_number}}`\n",
	"common/wait.md": "# wait\n\n> Wait for a process to complete before proceeding.\n\n- Wait for a process to finish given its process ID:\n\n`wait {{pid}}`\n\n" +
		"- Wait for a job to finish:\n\n`wait %{{job_number}}`\n",
	"common/wc.md":      "# wc\n\n> Count lines, words, and bytes.\n\n- Count all lines in a file:\n\n`wc --lines {{path/to/file}}`\n\n- Count all words in a file:\n\n`wc --words {{path/to/file}}`\n",
	"common/tar.md":     "# tar\n\n> Archiving utility.\n\n- Create an archive from files:\n\n`tar cf {{target.tar}} {{file1 file2}}`\n",
	"common/crontab.md": "# crontab\n\n> Schedule cron jobs to run on a time interval.\n\n- Edit the crontab file for the current user:\n\n`crontab -e`\n",
}

// TestAndOpensAQuestionOfItsOwn: a turn opening with "and" whose full
// question names a thing of its own, which the conversation's page does
// not hold ("and how do I count the lines in a text file?" after a turn
// on at), is searched alone, not completed with the earlier topic.
func TestAndOpensAQuestionOfItsOwn(t *testing.T) {
	root, db := pagesWorkspace(t, atPages)
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
	pages := map[string]string{
		"common/lpq.md": "# lpq\n\n> Show which jobs are queued for printing.\n\n- See which jobs are queued:\n\n`lpq`\n\n- See which jobs are queued on all printers:\n\n`lpq -a`\n",
	}
	for k, v := range atPages {
		pages[k] = v
	}
	// Enough other pages that "job" is rare in the knowledge base.
	for i := range 200 {
		name := fmt.Sprintf("tool%03d", i)
		pages["common/"+name+".md"] = fmt.Sprintf("# %s\n\n> Manage widget number %d.\n\n- Show the widget:\n\n`%s show`\n", name, i, name)
	}
	root, db := pagesWorkspace(t, pages)
	require.Equal(t, "common/lpq.md", askInProcess(t, root, db, vm.Request{Question: "How can I see which jobs are queued?"}).Evidence[0].SourceID,
		"alone, the question is about the printer queue")
	askTurns(t, root, db,
		turn{"How do I schedule a command to run in 5 minutes with at?", "common/at.md"},
		turn{"How can I see which jobs are queued?", "common/at.md"})
}
