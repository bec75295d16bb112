package valsymbolic

import (
	"slices"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
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

// dockerRemoveAnswer quotes dockerPage's description and its example that
// removes stopped containers.
var dockerRemoveAnswer = tldrExample{"docker", "common/docker.md", "Manage Docker containers and images.",
	"Remove stopped containers", "docker {{[rm|container rm]}} {{container1 container2 ...}}"}.answer()

// TestHowToMustDoTheAction: a how-to answer whose source carries neither
// the question's action nor a word the lexicon relates to it answers
// something else, however many of its nouns it shares ("bring the latest
// stash back" is not answered by showing the changes of a stash); one
// that says the action, or a broader word for it ("remove" for
// "delete"), passes.
func TestHowToMustDoTheAction(t *testing.T) {
	stash, docker := page(t, "common/git-stash.md", stashPage), page(t, "common/docker.md", dockerPage)
	c := sourced{corpus: corpus{n: 1000, df: freq("stash latest back container delet bring stop", 5)},
		src: map[string]string{"common/git-stash.md": stashPage, "common/docker.md": dockerPage}}
	expectHowTo(t, c, kus.LevelSummary, `"bring"`, []howToCase{
		{"another action on the object", "bring the latest stash back", "git stash [1]: Stash local Git changes in a temporary area.\n\n" +
			"- Show the changes as a patch between the stash and the commit back when stash entry was first created:\n\n  `git stash show {{[-p|--patch]}}`\n\n" +
			"- Delete the latest stash:\n\n  `git stash drop`\n\nSources:\n[1] git stash — common/git-stash.md:3\n",
			stash, plugin.StatusRejected},
		{"the action itself", "delete the latest stash", "git stash [1]: Stash local Git changes in a temporary area.\n\n" +
			"- Delete the latest stash:\n\n  `git stash drop`\n\nSources:\n[1] git stash — common/git-stash.md:3\n",
			stash, plugin.StatusAccepted},
		{"a broader word for the action", "delete a stopped container", dockerRemoveAnswer, docker, plugin.StatusAccepted},
	})
}

// TestHowToActionMustBeAVerb: a task that opens with a word the lexicon
// knows only as a noun ("ad", mistyped for "add") names no action, and
// the page it is answered from is not held to one.
func TestHowToActionMustBeAVerb(t *testing.T) {
	docker := page(t, "common/docker.md", dockerPage)
	c := sourced{corpus: corpus{n: 1000, df: freq("stop container", 5)}, src: map[string]string{"common/docker.md": dockerPage}}
	expectHowTo(t, c, kus.LevelSummary, "does not do what", []howToCase{
		{"a noun where the verb stands", "ad stopped containers", dockerRemoveAnswer, docker, plugin.StatusAccepted},
		{"a verb the page does not do", "sell stopped containers", dockerRemoveAnswer, docker, plugin.StatusRejected},
	})
}

// pkillLikePage, uniqLikePage and pySpyLikePage are cut from tldr-pages'
// pkill, uniq and py-spy pages.
const (
	pkillLikePage = "# pkill\n\n> Signal process by name.\n> Mostly used for stopping processes.\n\n" +
		"- Kill all processes which match:\n\n`pkill -9 \"{{process_name}}\"`\n"
	uniqLikePage = "# uniq\n\n> Output the unique lines of a file.\n\n" +
		"- Display how many times each line occurs:\n\n`sort {{path/to/file}} | uniq {{[-c|--count]}}`\n"
	pySpyLikePage = "# py-spy\n\n> A sampling profiler for Python programs.\n> More information: <https://github.com/benfred/py-spy>.\n\n" +
		"- Start a program and show a live view of the functions that take the most execution time:\n\n`py-spy top -- python {{path/to/file.py}}`\n"
)

// TestHowToExampleMustDoTheAction: a page's name says what it is called,
// not what it does: a page named "py-spy" does not find things because
// "spy" is a kind of finding. A page whose description says it is used for
// stopping processes does stop them, whatever verb its example opens with,
// and an example whose command has the action as an option ("--count")
// does it.
func TestHowToExampleMustDoTheAction(t *testing.T) {
	pkill, pyspy := page(t, "common/pkill.md", pkillLikePage), page(t, "common/py-spy.md", pySpyLikePage)
	uniq := page(t, "common/uniq.md", uniqLikePage)
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"stop command automatically run long every process name match word find where executable program live path time line appear file": 300})},
		src: map[string]string{"common/pkill.md": pkillLikePage, "common/py-spy.md": pySpyLikePage, "common/uniq.md": uniqLikePage}}
	expectHowTo(t, c, kus.LevelSummary, "does not do what", []howToCase{
		{"a page name the lexicon relates to the action", "find where the executable for a program lives on my path",
			"py-spy [1]: A sampling profiler for Python programs.\n\n- Start a program and show a live view of the functions that take the most execution time:\n\n  `py-spy top -- python {{path/to/file.py}}`\n\nSources:\n[1] py-spy — common/py-spy.md:1\n",
			pyspy, plugin.StatusRejected},
		{"a description that says what the page is for", "stop every process whose name matches a word",
			"pkill [1]: Signal process by name.\n\n- Kill all processes which match:\n\n  `pkill -9 \"{{process_name}}\"`\n\nSources:\n[1] pkill — common/pkill.md:1\n",
			pkill, plugin.StatusAccepted},
		{"an option of the example's command that names the action", "count how many times each line appears in a file",
			"uniq [1]: Output the unique lines of a file.\n\n- Display how many times each line occurs:\n\n  `sort {{path/to/file}} | uniq {{[-c|--count]}}`\n\nSources:\n[1] uniq — common/uniq.md:1\n",
			uniq, plugin.StatusAccepted},
	})
}

// descriptionUnit parses a tldr-style page as ingest does and returns the
// unit of the block under its title, the one a how-to answer over
// tldr-pages cites ("pueue — common/pueue.md:3").
func descriptionUnit(t *testing.T, id, md string) *kus.KU {
	t.Helper()
	c := sourced{src: map[string]string{id: md}}
	for _, k := range plugintest.Parse(t, id, md) {
		if firstBlock(k, plugin.RunContext{Corpus: c}) {
			return k
		}
	}
	t.Fatalf("%s: no unit right under the title", id)
	return nil
}

const (
	pueueLikePage = "# pueue\n\n> A task management tool for long-running tasks.\n> More information: <https://github.com/Nukesor/pueue>.\n\n" +
		"- Add a command to the task list:\n\n`pueue add -- \"{{command}}\"`\n\n" +
		"- Edit the command line of a stopped task in the default editor:\n\n`pueue edit {{task_id}}`\n"
	tarLikePage = "# tar\n\n> Archiving utility.\n\n" +
		"- E[x]tract a (compressed) archive [f]ile into the current directory:\n\n`tar xf {{path/to/source.tar[.gz|.bz2|.xz]}}`\n"
)

// TestExampleMustDoTheActionNotActOnItsState: an example that names the
// action only as the state of what it acts on ("Edit the command line of
// a stopped task") does not do it; one whose description says it, even
// with a mnemonic letter marked inside the word ("E[x]tract"), or a page
// whose description says it is used for it, does.
func TestExampleMustDoTheActionNotActOnItsState(t *testing.T) {
	pueue, tar, pkill := descriptionUnit(t, "common/pueue.md", pueueLikePage), descriptionUnit(t, "common/tar.md", tarLikePage), descriptionUnit(t, "common/pkill.md", pkillLikePage)
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"stop command automatically run long every process name match word extract tar gz archive": 300})},
		src: map[string]string{"common/pueue.md": pueueLikePage, "common/tar.md": tarLikePage, "common/pkill.md": pkillLikePage}}
	expectHowTo(t, c, kus.LevelLeaf, "only as the state", []howToCase{
		{"the action as the state of what is acted on", "stop a command automatically if it runs for too long",
			tldrExample{"pueue", "common/pueue.md", "A task management tool for long-running tasks.", "Edit the command line of a stopped task in the default editor", "pueue edit {{task_id}}"}.answer(),
			pueue, plugin.StatusRejected},
		{"the action with a mnemonic letter", "extract a tar.gz archive",
			tldrExample{"tar", "common/tar.md", "Archiving utility.", "E[x]tract a (compressed) archive [f]ile into the current directory", "tar xf {{path/to/source.tar[.gz|.bz2|.xz]}}"}.answer(),
			tar, plugin.StatusAccepted},
		{"a description that says what the page is for", "stop every process whose name matches a word",
			tldrExample{"pkill", "common/pkill.md", "Signal process by name.", "Kill all processes which match", "pkill -9 \"{{process_name}}\""}.answer(),
			pkill, plugin.StatusAccepted},
	})
}

// TestHinderingIsDoneByTheGerundsOption: "stop it from wrapping lines"
// is done by the option that governs wrapping, which a page names with
// "wrap", not with "stop"; a task that hinders nothing keeps its verb.
func TestHinderingIsDoneByTheGerundsOption(t *testing.T) {
	const page = "# base64\n\n> Encode or decode a file.\n\n- Wrap encoded output at a specific width (`0` disables wrapping):\n\n`base64 {{[-w|--wrap]}} {{0|76}} {{path/to/file}}`\n"
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"wrap line encod output width specif decod file": 50, "stop": 300})}, src: map[string]string{"common/base64.md": page}}
	ku := units(t, "common/base64.md", page)[0].KU
	answer := tldrExample{"base64", "common/base64.md", "Encode or decode a file.", "Wrap encoded output at a specific width (`0` disables wrapping)", "base64 {{[-w|--wrap]}} {{0|76}} {{path/to/file}}"}.answer()
	expectHowTo(t, c, kus.LevelSummary, `"stop"`, []howToCase{
		{"a hindering verb and a gerund", "stop it from wrapping encoded output", answer, ku, plugin.StatusAccepted},
		{"the hindering verb alone", "stop wrapping encoded output", answer, ku, plugin.StatusRejected},
	})
	expectEach(t, "verbAction", verbAction, map[string]string{
		"stop it from wrapping lines when I encode": "wrap",
		"prevent the shell from exiting":            "exit",
		"stop the running container":                "stop",
		"copy files from existing folders":          "copi",
		"stop one process from using the CPU":       "",
	})
}

// TestHinderingVerbIsNoKeyTerm: "stop web from logging requests" asks how
// not to log them; a page that skips logging answers it without saying
// "stop", however rare that word is, while a task that stops something
// itself must still be covered with its verb.
func TestHinderingVerbIsNoKeyTerm(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"stop": 5, "web": 50, "log": 100, "request": 200, "health": 20, "skip": 30, "path set logger config": 300})}
	ku := plugintest.Text("w::1", "Skip logging", "web/docs.md", 10, "Skip logging for chosen paths by setting SkipPaths in LoggerConfig:\n\n```go\ncfg := web.LoggerConfig{SkipPaths: []string{\"/health\"}}\n```\n")
	answer := "From Skip logging [1]:\n\n- Skip logging for chosen paths by setting SkipPaths in LoggerConfig:\n\n" +
		"  ```go\n  cfg := web.LoggerConfig{SkipPaths: []string{\"/health\"}}\n  ```\n\nSources:\n[1] Skip logging — web/docs.md:10\n"
	expectHowTo(t, c, kus.LevelSection, "stop", []howToCase{
		{"a hindering verb and a gerund", "stop web from logging requests to /health", answer, ku, plugin.StatusAccepted},
		{"the verb stops something itself", "stop web logging requests to /health", answer, ku, plugin.StatusRejected},
	})
	if got := keyTerms("stop web from logging requests"); slices.Contains(got, "stop") {
		t.Errorf("keyTerms keeps the hindering verb: %q", got)
	}
}

// TestPhrasalVerbWithItsParticleAfterTheObject: "hook the notes up to
// Xed" asks to connect them, which the verb "hook" alone does not say: a
// page that connects them answers it without a word of hooking, while
// "hook the notes to Xed" asks for the verb's own action.
func TestPhrasalVerbWithItsParticleAfterTheObject(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"hook": 200, "note": 20, "xed": 10, "agent ai mcp add": 100})}
	ku := plugintest.Text("r::1", "AI agents", "README.md", 509, "Serve your notes to AI agents.\n\n- Xed:\n\n```sh\nxed mcp add notes\n```\n")
	answer := "From AI agents [1]:\n\n- Xed:\n\n  ```sh\n  xed mcp add notes\n  ```\n\nSources:\n[1] AI agents — README.md:509\n"
	expectHowTo(t, c, kus.LevelSection, "does not do what", []howToCase{
		{"the particle after the object", "hook the notes up to Xed", answer, ku, plugin.StatusAccepted},
		{"the verb alone", "hook the notes to Xed", answer, ku, plugin.StatusRejected},
	})
	expectOfAction(t, "splitPhrasal", splitPhrasal, map[string]bool{
		"turn the bell off":         true,
		"set my project up quickly": false,
		"write it back to disk":     false,
		"look up a word":            false,
	})
}

// TestLabellingVerbIsNoKeyTerm: "mark an endpoint as retired" asks for
// the state the participle names, which a page gives without the verb
// ("the endpoint is retired"); "mark an endpoint" with no state keeps its
// verb.
func TestLabellingVerbIsNoKeyTerm(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"mark": 5, "endpoint": 200, "retir": 100, "router": 150, "middlewar use": 300})}
	ku := plugintest.Text("r::1", "Retiring an endpoint", "router/README.md", 40, "Use the Retirement middleware: the endpoint is retired.\n\n```go\nr.With(middleware.Retirement(at)).Get(\"/v1\", h)\n```\n")
	answer := "Retiring an endpoint [1]: Use the Retirement middleware: the endpoint is retired.\n\n" +
		"```go\nr.With(middleware.Retirement(at)).Get(\"/v1\", h)\n```\n\nSources:\n[1] Retiring an endpoint — router/README.md:40\n"
	expectHowTo(t, c, kus.LevelSection, "mark", []howToCase{
		{"a verb that gives a state", "mark a router endpoint as retired", answer, ku, plugin.StatusAccepted},
		{"the verb with no state", "mark a retired router endpoint", answer, ku, plugin.StatusRejected},
	})
	expectOfAction(t, "labels", labels, map[string]bool{
		"flag the jobs as finished": true,
		"run the script as root":    false,
		"save the page as pdf":      false,
	})
}

// TestNounThatRestatesTheActionIsNoKeyTerm: "show the running processes
// in a view of their tree" asks to show them as a tree; "view" says the
// showing again, and a page that shows them as a tree answers it. A noun
// that names something else ("diagram") is still asked, and a verb the
// lexicon relates to the action ("match" of "check that the files match")
// is no restatement.
func TestNounThatRestatesTheActionIsNoKeyTerm(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"process": 100, "tree": 50, "view diagram": 5, "display run": 300})}
	pstree := tldrExample{"pstree", "common/pstree.md", "Display running processes as a tree.", "Display the tree of running processes", "pstree"}
	ku, answer := pstree.unit("p::1"), pstree.answer()
	expectHowTo(t, c, kus.LevelSummary, "cover", []howToCase{
		{"a noun that restates the action", "show the running processes in a view of their tree", answer, ku, plugin.StatusAccepted},
		{"a noun that names something else", "show the running processes in a diagram of their tree", answer, ku, plugin.StatusRejected},
	})
	if restates(text.Terms("match")[0], text.Terms("check")[0]) {
		t.Error(`restates takes the verb "match" for a restatement of "check"`)
	}
}

const markdown2pdfPage = "# markdown2pdf\n\n> Convert Markdown files to PDF.\n> More information: <https://example.org/markdown2pdf>.\n\n" +
	"- Convert a Markdown file to PDF:\n\n`markdown2pdf {{path/to/file.md}}`\n"

// TestPolysemousVerbIsNotJudgedOnItsOwn: a verb of very many senses
// ("turn" of "turn a document into a PDF") names its action through its
// object and complement, which a page says with a verb of its own
// ("convert"): the page is not held to the verb itself.
func TestPolysemousVerbIsNotJudgedOnItsOwn(t *testing.T) {
	md := page(t, "common/markdown2pdf.md", markdown2pdfPage)
	c := sourced{corpus: corpus{n: 1000, df: freq("markdown pdf convert document turn", 5)}, src: map[string]string{"common/markdown2pdf.md": markdown2pdfPage}}
	answer := tldrExample{"markdown2pdf", "common/markdown2pdf.md", "Convert Markdown files to PDF.", "Convert a Markdown file to PDF", "markdown2pdf {{path/to/file.md}}"}.answer()
	expectHowTo(t, c, kus.LevelSummary, "", []howToCase{
		{"a verb of many senses", "turn a Markdown file into a PDF", answer, md, plugin.StatusAccepted},
	})
}
