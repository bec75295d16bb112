package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

const gitBranchMD = "# git branch\n\n> Main Git command for working with branches.\n\n" +
	"- List all branches (local and remote; the current branch is highlighted by `*`):\n\n`git branch --all`\n\n" +
	"- Show the name of the current branch:\n\n`git branch --show-current`\n\n" +
	"- Create new branch based on the current commit:\n\n`git branch {{branch_name}}`\n\n" +
	"- Rename a branch (you must switch to a different branch before doing this):\n\n`git branch --move {{old}} {{new}}`\n"

const renameBranchMD = "# git rename-branch\n\n> Rename a Git branch.\n\n" +
	"- Rename the branch you are currently on:\n\n`git rename-branch {{new_branch_name}}`\n\n" +
	"- Rename a specific branch:\n\n`git rename-branch {{old_branch_name}} {{new_branch_name}}`\n"

const atrmMD = "# atrm\n\n> Remove jobs scheduled by `at` or `batch` commands.\n> Note: To find job numbers use `atq`.\n\n" +
	"- Remove job number 10:\n\n`atrm 10`\n\n- Remove many jobs, separated by spaces:\n\n`atrm {{15}} {{17}}`\n"

const nohupPageMD = "# nohup\n\n> Allows for a process to live when the terminal gets killed.\n\n" +
	"- Run a process that can live beyond the terminal:\n\n`nohup {{command}}`\n\n" +
	"- Launch `nohup` in background mode:\n\n`nohup {{command}} &`\n"

// solveWhy asks an explain task over the sole leaves of pages, ranked in
// the given order; why holds the retriever's proof lines per page id.
func solveWhy(t *testing.T, prompt, target string, why map[string]string, pages ...mdSource) string {
	t.Helper()
	c := srcCorpus{}
	var ev []plugin.ScoredKU
	for i, s := range pages {
		c[s.id] = s.md
		k := s.soleLeaf(t)
		line := why[s.id]
		ev = append(ev, plugin.ScoredKU{KU: k, Score: 1 - 0.1*float64(i), Why: strings.ReplaceAll(line, "$ID", k.ID)})
	}
	res := solve(t, c, &plugin.SolveInput{Payload: plugin.Payload{Prompt: prompt},
		Intents: []plugin.Intent{{ID: "i1", Act: "explain", Target: target}}, Evidence: ev})
	if res.Status != plugin.StatusSuccess {
		t.Fatalf("status %s: %s", res.Status, res.ResponseMarkdown)
	}
	return res.ResponseMarkdown
}

// TestWhyIgnoresAProofAboutSomethingElse: a proof chain that shares one
// word with a longer task ("job") does not put its page before the page
// the question names.
func TestWhyIgnoresAProofAboutSomethingElse(t *testing.T) {
	nohup, atrm := parseMD(t, "common/nohup.md", nohupPageMD), parseMD(t, "common/atrm.md", atrmMD)
	md := solveWhy(t, "Why would I use nohup when starting a long job?", "would I use nohup when starting a long job",
		map[string]string{"common/atrm.md": "find job numbers uses atq [$ID]"}, nohup, atrm)
	checkMD(t, md, []string{"when the terminal gets killed"}, []string{"atrm"})
}

// TestWhyLeadsWithTheCondition: "why can't I" is answered by the
// statement that gives the condition ("you must switch ... before"),
// before one that only names the task's words.
func TestWhyLeadsWithTheCondition(t *testing.T) {
	branch, rename := parseMD(t, "common/git-branch.md", gitBranchMD), parseMD(t, "common/git-rename-branch.md", renameBranchMD)
	md := solveWhy(t, "Why can't I rename the git branch I'm currently on?", "can't I rename the git branch I'm currently on", nil, branch, rename)
	if first, _, _ := strings.Cut(md, "\n"); !strings.Contains(first, "you must switch to a different branch") {
		t.Errorf("the answer does not lead with the condition:\n%s", md)
	}
}

// TestWhyCueTakesTheCircumstance: a sentence that says in which
// circumstance something happens ("while a language server holds the
// file the rebuild fails") gives a reason a "why" question asks for; a
// sentence that only names the same things does not.
func TestWhyCueTakesTheCircumstance(t *testing.T) {
	c := cueOf("explain", "Why does the rebuild fail while my editor is open?", "the rebuild fail while my editor is open")
	checkCalls(t, "favours", favours(c), map[string]bool{
		"Close the editor first: while a language server holds the file the rebuild fails with kb_locked.": true,
		"The writer keeps its lock as long as the session lasts.":                                          true,
		"The rebuild moves a damaged file aside and rebuilds the knowledge base.":                          false,
	})
}

// TestWhyShowsTheGroundBefore: the sentence that best matches a
// why-question's words ("Use eza instead.") is shown with the sentence
// before it in its paragraph, which gives the reason ("no longer
// maintained").
func TestWhyShowsTheGroundBefore(t *testing.T) {
	exa := parseMD(t, "common/exa.md", "# exa\n\n> A modern replacement for `ls` (List directory contents).\n> Note: `exa` is no longer maintained. Use `eza` instead.\n> See also: `eza`.\n\n"+
		"- List files one per line:\n\n`exa {{[-1|--oneline]}}`\n\n- List all files, including hidden files:\n\n`exa {{[-a|--all]}}`\n")
	md := solveWhy(t, "Why do people tell me to switch from exa to eza?", "people tell me to switch from exa to eza", nil, exa)
	checkMD(t, md, []string{"no longer maintained", "Use `eza` instead"}, nil)
}
