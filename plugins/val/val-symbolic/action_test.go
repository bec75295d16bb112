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
