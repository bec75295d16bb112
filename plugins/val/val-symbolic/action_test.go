package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// stashPage and dockerPage are tldr-pages' git-stash and docker pages
// as published (docker cut to three of its examples).
const stashPage = "# git stash\n\n> Stash local Git changes in a temporary area.\n> More information: <https://git-scm.com/docs/git-stash>.\n\n" +
	"- Stash the current uncommitted changes:\n\n`git stash`\n\n" +
	"- List all stashes:\n\n`git stash list`\n\n" +
	"- Show the changes as a patch between the stash and the commit back when stash entry was first created:\n\n`git stash show {{[-p|--patch]}}`\n\n" +
	"- Delete the latest stash:\n\n`git stash drop`\n\n" +
	"- Delete all stashes:\n\n`git stash clear`\n"

const dockerPage = "# docker\n\n> Manage Docker containers and images.\n> More information: <https://docs.docker.com/reference/cli/docker/>.\n\n" +
	"- List all Docker containers (running and stopped):\n\n`docker {{[ps|container ls]}} {{[-a|--all]}}`\n\n" +
	"- Start or stop an existing container:\n\n`docker container {{start|stop}} {{container_name}}`\n\n" +
	"- Remove stopped containers:\n\n`docker {{[rm|container rm]}} {{container1 container2 ...}}`\n"

// TestHowToMustDoTheAction: a how-to answer whose source carries neither
// the question's action nor a word the lexicon relates to it answers
// something else, however many of its nouns it shares ("bring the latest
// stash back" is not answered by showing the changes of a stash); one
// that says the action, or a broader word for it ("remove" for
// "delete"), passes.
func TestHowToMustDoTheAction(t *testing.T) {
	stash, docker := page(t, "common/git-stash.md", stashPage), page(t, "common/docker.md", dockerPage)
	c := sourced{corpus: corpus{n: 1000, df: freq("stash latest back container delet bring", 5)},
		src: map[string]string{"common/git-stash.md": stashPage, "common/docker.md": dockerPage}}
	cases := []struct {
		name, target, answer string
		ev                   *kus.KU
		want                 plugin.Status
	}{
		{"another action on the object", "bring the latest stash back", "git stash [1]: Stash local Git changes in a temporary area.\n\n" +
			"- Show the changes as a patch between the stash and the commit back when stash entry was first created:\n\n  `git stash show {{[-p|--patch]}}`\n\n" +
			"- Delete the latest stash:\n\n  `git stash drop`\n\nSources:\n[1] git stash — common/git-stash.md:3\n",
			stash, plugin.StatusRejected},
		{"the action itself", "delete the latest stash", "git stash [1]: Stash local Git changes in a temporary area.\n\n" +
			"- Delete the latest stash:\n\n  `git stash drop`\n\nSources:\n[1] git stash — common/git-stash.md:3\n",
			stash, plugin.StatusAccepted},
		{"a broader word for the action", "delete a stopped container", "docker [1]: Manage Docker containers and images.\n\n" +
			"- Remove stopped containers:\n\n  `docker {{[rm|container rm]}} {{container1 container2 ...}}`\n\nSources:\n[1] docker — common/docker.md:3\n",
			docker, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{
				Payload: plugin.Payload{Prompt: "How do I " + tc.target + "?"},
				Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}},
				Answer:  tc.answer, Evidence: []plugin.ScoredKU{{KU: tc.ev, Score: 1, Level: kus.LevelSummary}}})
			expect(t, res, tc.want, `"bring"`)
		})
	}
}

// pueueLikePage, pkillLikePage and pySpyLikePage are cut from tldr-pages'
// pueue, pkill and py-spy pages.
const (
	pueueLikePage = "# pueue\n\n> A task management tool for long-running tasks.\n> More information: <https://github.com/Nukesor/pueue>.\n\n" +
		"- Add a command to the task list:\n\n`pueue add -- \"{{command}}\"`\n\n" +
		"- Edit the command line of a stopped task in the default editor:\n\n`pueue edit {{task_id}}`\n"
	pkillLikePage = "# pkill\n\n> Signal process by name.\n> Mostly used for stopping processes.\n\n" +
		"- Kill all processes which match:\n\n`pkill -9 \"{{process_name}}\"`\n"
	uniqLikePage = "# uniq\n\n> Output the unique lines of a file.\n\n" +
		"- Display how many times each line occurs:\n\n`sort {{path/to/file}} | uniq {{[-c|--count]}}`\n"
	pySpyLikePage = "# py-spy\n\n> A sampling profiler for Python programs.\n> More information: <https://github.com/benfred/py-spy>.\n\n" +
		"- Start a program and show a live view of the functions that take the most execution time:\n\n`py-spy top -- python {{path/to/file.py}}`\n"
)

// TestHowToExampleMustDoTheAction: a page that answers with its examples
// does what they do (the verb each opens with) and what its description
// says it is for, not what any word on it names: an example that edits a
// stopped task does not stop a command, and a page named "py-spy" does not
// find things because "spy" is a kind of finding; a page whose description
// says it is used for stopping processes does stop them, whatever verb its
// example opens with.
func TestHowToExampleMustDoTheAction(t *testing.T) {
	pueue, pkill, pyspy := page(t, "common/pueue.md", pueueLikePage), page(t, "common/pkill.md", pkillLikePage), page(t, "common/py-spy.md", pySpyLikePage)
	uniq := page(t, "common/uniq.md", uniqLikePage)
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"stop command automatically run long every process name match word find where executable program live path time line appear file": 300})},
		src: map[string]string{"common/pueue.md": pueueLikePage, "common/pkill.md": pkillLikePage, "common/py-spy.md": pySpyLikePage, "common/uniq.md": uniqLikePage}}
	cases := []struct {
		name, target, answer string
		ev                   *kus.KU
		want                 plugin.Status
	}{
		{"an example that acts on a stopped thing", "stop a command automatically if it runs for too long",
			"pueue [1]: A task management tool for long-running tasks.\n\n- Edit the command line of a stopped task in the default editor:\n\n  `pueue edit {{task_id}}`\n\nSources:\n[1] pueue — common/pueue.md:1\n",
			pueue, plugin.StatusRejected},
		{"a page name the lexicon relates to the action", "find where the executable for a program lives on my path",
			"py-spy [1]: A sampling profiler for Python programs.\n\n- Start a program and show a live view of the functions that take the most execution time:\n\n  `py-spy top -- python {{path/to/file.py}}`\n\nSources:\n[1] py-spy — common/py-spy.md:1\n",
			pyspy, plugin.StatusRejected},
		{"a description that says what the page is for", "stop every process whose name matches a word",
			"pkill [1]: Signal process by name.\n\n- Kill all processes which match:\n\n  `pkill -9 \"{{process_name}}\"`\n\nSources:\n[1] pkill — common/pkill.md:1\n",
			pkill, plugin.StatusAccepted},
		{"an option of the example's command that names the action", "count how many times each line appears in a file",
			"uniq [1]: Output the unique lines of a file.\n\n- Display how many times each line occurs:\n\n  `sort {{path/to/file}} | uniq {{[-c|--count]}}`\n\nSources:\n[1] uniq — common/uniq.md:1\n",
			uniq, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{
				Payload: plugin.Payload{Prompt: "How do I " + tc.target + "?"},
				Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}},
				Answer:  tc.answer, Evidence: []plugin.ScoredKU{{KU: tc.ev, Score: 1, Level: kus.LevelSummary}}})
			expect(t, res, tc.want, "does not do what")
		})
	}
}
