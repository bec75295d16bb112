package valsymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// units parses a page as ingest does and gives all its units as evidence.
func units(t *testing.T, id, md string) []plugin.ScoredKU {
	t.Helper()
	return plugintest.Scored(plugintest.Parse(t, id, md)...)
}

const cherryPickPage = `# git cherry-pick

> Apply the changes introduced by existing commits to the current branch.

- Apply a commit to the current branch:

` + "`git cherry-pick {{commit}}`" + `

- Apply a range of commits to the current branch:

` + "`git cherry-pick {{start_commit}}~..{{end_commit}}`" + `
`

const keygenPage = `# ssh-keygen

> Generate SSH keys used for authentication.

- Remove the keys of a host from the known_hosts file (useful when a known host has a new key):

` + "`ssh-keygen -R {{remote_host}}`" + `
`

const wipefsPage = `# wipefs

> Erase the signatures of a partition.

- Erase the signatures of a partition (warning: the data on it becomes unreadable):

` + "`wipefs --all {{/dev/sdXY}}`" + `
`

const dwebpPage = `# dwebp

> ` + "`dwebp`" + ` decompresses WebP files into PNG images.
> Animated WebP files are not supported.

- Convert a WebP file into a PNG file:

` + "`dwebp {{path/to/input.webp}} -o {{path/to/output.png}}`" + `
`

const lsblkPage = `# lsblk

> List the partitions of a disk.

- List the partitions of a disk:

` + "`lsblk {{/dev/sdX}}`" + `
`

// TestWhyIsAnsweredByAReason: a "why" question answered with a page's
// description and examples of what to do, none of which gives a reason or
// a condition, is rejected; an example that says when it is useful, or a
// statement of prose, answers it. So does an example whose description
// flags a caveat ("warning: the data on it becomes unreadable"), which
// says why to mind what it does.
func TestWhyIsAnsweredByAReason(t *testing.T) {
	reasons := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"current branch commit": 50, "host known keys remove": 20})},
		src: map[string]string{"common/git-cherry-pick.md": cherryPickPage, "common/ssh-keygen.md": keygenPage}}
	caveats := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"partit disk list data": 100, "eras signatur": 20, "wipef lsblk": 2})},
		src: map[string]string{"linux/wipefs.md": wipefsPage, "linux/lsblk.md": lsblkPage}}
	cherryPick := units(t, "common/git-cherry-pick.md", cherryPickPage)
	applyCommit := "Apply the changes introduced by existing commits to the current branch. [1]\n\n- Apply a commit to the current branch [1]:\n\n" +
		"  `git cherry-pick {{commit}}`\n\nSources:\n[1] git cherry-pick — common/git-cherry-pick.md:3\n"
	for _, tc := range []struct {
		name           string
		c              sourced
		prompt, answer string
		ev             []plugin.ScoredKU
		want           plugin.Status
	}{
		{"a description and examples", reasons, "Why can't I apply a commit to the current branch?", applyCommit, cherryPick, plugin.StatusRejected},
		{"an example that says when it is useful", reasons, "Why would I remove a host's keys from known_hosts?",
			"Generate SSH keys used for authentication. [1]\n\n- Remove the keys of a host from the known_hosts file (useful when a known host has a new key) [1]:\n\n" +
				"  `ssh-keygen -R {{remote_host}}`\n\nSources:\n[1] ssh-keygen — common/ssh-keygen.md:3\n",
			units(t, "common/ssh-keygen.md", keygenPage), plugin.StatusAccepted},
		{"the same description asked how, not why", reasons, "How do I apply a commit to the current branch?", applyCommit, cherryPick, plugin.StatusAccepted},
		{"a caveat", caveats, "Why does wipefs erase the signatures of a partition?",
			"Erase the signatures of a partition. [1]\n\n- Erase the signatures of a partition (warning: the data on it becomes unreadable) [1]:\n\n" +
				"  `wipefs --all {{/dev/sdXY}}`\n\nSources:\n[1] wipefs — linux/wipefs.md:3\n",
			units(t, "linux/wipefs.md", wipefsPage), plugin.StatusAccepted},
		// A page's description that goes on past what the page is for
		// notes a limit; a description that opens with the command's
		// name as code is prose, not a command line.
		{"a note after the description", sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"file png convert": 100, "webp anim": 10, "dwebp": 2})},
			src: map[string]string{"common/dwebp.md": dwebpPage}}, "Why can't dwebp turn my animated WebP into PNG frames?",
			"`dwebp` decompresses WebP files into PNG images. Animated WebP files are not supported. [1]\n\n- Convert a WebP file into a PNG file [1]:\n\n" +
				"  `dwebp {{path/to/input.webp}} -o {{path/to/output.png}}`\n\nSources:\n[1] dwebp — common/dwebp.md:3\n",
			units(t, "common/dwebp.md", dwebpPage), plugin.StatusAccepted},
		{"no caveat", caveats, "Why does lsblk list the partitions of a disk?",
			"List the partitions of a disk. [1]\n\n- List the partitions of a disk [1]:\n\n" +
				"  `lsblk {{/dev/sdX}}`\n\nSources:\n[1] lsblk — linux/lsblk.md:3\n",
			units(t, "linux/lsblk.md", lsblkPage), plugin.StatusRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, tc.c, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: tc.prompt}, Answer: tc.answer, Evidence: tc.ev})
			expect(t, res, tc.want, "asks why")
		})
	}
}

func TestExplains(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"- Apply a commit:\n\n  `git cherry-pick x`\n", false},
		{"- Apply a commit (so that the fix lands on main):\n\n  `git cherry-pick x`\n", true},
		{"Viper is named after a snake, a companion to Cobra. [1]\n", true},
		{"```sh\nthe reason is in a code block\n```\n- Apply a commit:\n", false},
		{"- Rename a branch (you must switch to a different branch before doing this):\n\n  `git branch -m old new`\n", true},
		{"- Drop a table only if it exists:\n\n  `psql -c 'drop table if exists t'`\n", true},
		{"- Switch to a different branch:\n\n  `git switch other`\n", false},
		{"`dwebp` decompresses WebP files. [1]\n", true},
		{"`dwebp -o out.png in.webp` [1]\n", false},
	} {
		if got := explains(tc.body, nil, plugin.RunContext{}); got != tc.want {
			t.Errorf("explains(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}

const nohupPage = `# nohup

> Allows for a process to live when the terminal gets killed.

- Run a process that can live beyond the terminal:

` + "`nohup {{command}} {{argument1 argument2 ...}}`" + `
`

// TestWhyAsksAboutItsMainClause: "Why X when Y?" asks the reason for X;
// the circumstance Y need not be repeated by the reason ("Why would I use
// nohup when starting a long job?" is answered by what nohup lets a
// process do), while X must still be covered.
func TestWhyAsksAboutItsMainClause(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"start long job process terminal": 100, "nohup screen": 2})},
		src: map[string]string{"common/nohup.md": nohupPage}}
	answer := "Allows for a process to live when the terminal gets killed. [1]\n\n- Run a process that can live beyond the terminal [1]:\n\n" +
		"  `nohup {{command}} {{argument1 argument2 ...}}`\n\nSources:\n[1] nohup — common/nohup.md:3\n"
	for _, tc := range []struct {
		prompt string
		want   plugin.Status
	}{
		{"Why would I use nohup when starting a long job?", plugin.StatusAccepted},
		{"Why would I use screen when starting a long job?", plugin.StatusRejected},
	} {
		res := validate(t, c, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: tc.prompt}, Answer: answer, Evidence: units(t, "common/nohup.md", nohupPage)})
		expect(t, res, tc.want, "")
	}
}

const rmPage = `# rm

> Remove files or directories.

- Remove specific files and directories recursively:

` + "`rm {{[-r|--recursive]}} {{path/to/file_or_directory}}`" + `

- Remove empty directories (this is considered the safe method):

` + "`rm {{[-d|--dir]}} {{path/to/directory}}`" + `
`

// TestWhyIsAnsweredByARemark: an example's aside that judges it in the
// words of the question ("this is considered the safe method" for "why
// is rm -d considered safer") gives the reason asked; an aside that only
// repeats what the examples name does not.
func TestWhyIsAnsweredByARemark(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"remove delete directory file recursive empty": 300, "considered safe safer": 50, "rm": 5})},
		src: map[string]string{"common/rm.md": rmPage}}
	for _, tc := range []struct {
		name, prompt, aside string
		want                plugin.Status
	}{
		{"an aside in the question's words", "Why is rm -d considered safer than rm -r for deleting a directory?", "this is considered the safe method", plugin.StatusAccepted},
		{"an aside naming what the examples do", "Why is rm -d considered safer than rm -r for deleting a directory?", "empty directories only", plugin.StatusRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer := "Remove files or directories. [1]\n\n- Remove specific files and directories recursively [1]:\n\n" +
				"  `rm {{[-r|--recursive]}} {{path/to/file_or_directory}}`\n\n- Remove empty directories (" + tc.aside + ") [1]:\n\n" +
				"  `rm {{[-d|--dir]}} {{path/to/directory}}`\n\nSources:\n[1] rm — common/rm.md:3\n"
			page := strings.Replace(rmPage, "this is considered the safe method", tc.aside, 1)
			res := validate(t, sourced{corpus: c.corpus, src: map[string]string{"common/rm.md": page}},
				&plugin.ValidateInput{Payload: plugin.Payload{Prompt: tc.prompt}, Answer: answer, Evidence: units(t, "common/rm.md", page)})
			expect(t, res, tc.want, "asks why")
		})
	}
}

// TestAConcessiveClauseIsACircumstance: "Why X even though Y?" asks the
// reason for X as "Why X when Y?" does; Y ("something went wrong") says
// what the user expected, not what the reason must name.
func TestAConcessiveClauseIsACircumstance(t *testing.T) {
	expectEach(t, "whyAsked", whyAsked, map[string]string{
		"does my program exit with status 0 even though something went wrong": "does my program exit with status 0",
		"is the cache rebuilt although nothing changed":                       "is the cache rebuilt",
		"does it stop though the job is queued":                               "does it stop",
		"does the server restart even if the config is unchanged":             "does the server restart",
	})
}

const frobctlPage = `# frobctl

> Get and set the power settings of a drive.

- Set the power management level of a drive (values below 128 let it spin down, higher ones keep it spinning):

` + "`frobctl -B {{1..254}} {{/dev/sdX}}`" + `
`

// TestWhyIsJudgedWithItsCircumstanceToo: "Why X when Y?" is judged on
// X, and an answer grounded in the whole question, the circumstance with
// it, answers it as well, though it says X in other words ("drive" for
// the user's "disk").
func TestWhyIsJudgedWithItsCircumstanceToo(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"set valu power": 200, "drive": 40, "disk": 30, "spin level manag": 15, "frobctl": 2})},
		src: map[string]string{"common/frobctl.md": frobctlPage}}
	answer := "Set the power management level of a drive (values below 128 let it spin down, higher ones keep it spinning) [1]:\n\n" +
		"  `frobctl -B {{1..254}} {{/dev/sdX}}`\n\nSources:\n[1] frobctl — common/frobctl.md:3\n"
	prompt := "Why doesn't my disk ever spin down after I set frobctl -B to a high level?"
	res := validate(t, c, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt}, Answer: answer,
		Intents:  []plugin.Intent{{ID: "i1", Act: "explain", Target: "doesn't my disk ever spin down after I set frobctl -B to a high level"}},
		Evidence: units(t, "common/frobctl.md", frobctlPage)})
	expect(t, res, plugin.StatusAccepted, "")
}

const tarPage = `# tar

> Archiving utility.

- Extract an archive into the current folder:

` + "`tar xf {{path/to/archive.tar}}`" + `

- Extract the files of an archive, but not its leading folder:

` + "`tar xf {{path/to/archive.tar}} --strip-components 1`" + `
`

// TestWhyTheOutcomeDiffersIsAnsweredByAContrast: "why does it sometimes
// do X and sometimes Y" asks what makes the difference, which an example
// that sets one case against the other ("..., but not its leading
// folder") shows; an example without the contrast does not, nor does the
// contrast answer a "why" question that sets no cases against each other.
func TestWhyTheOutcomeDiffersIsAnsweredByAContrast(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"extract archiv file folder current lead": 50, "tar": 5})},
		src: map[string]string{"common/tar.md": tarPage}}
	contrast := "- Extract the files of an archive, but not its leading folder [1]:\n\n  `tar xf {{path/to/archive.tar}} --strip-components 1`\n\nSources:\n[1] tar — common/tar.md:3\n"
	plain := "- Extract an archive into the current folder [1]:\n\n  `tar xf {{path/to/archive.tar}}`\n\nSources:\n[1] tar — common/tar.md:3\n"
	cases := "Why does tar sometimes extract the leading folder of an archive and sometimes just its files?"
	for _, tc := range []struct {
		name, prompt, answer string
		want                 plugin.Status
	}{
		{"two cases, a contrast", cases, contrast, plugin.StatusAccepted},
		{"two cases, no contrast", cases, plain, plugin.StatusRejected},
		{"one case, a contrast", "Why does tar extract the files of an archive?", contrast, plugin.StatusRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: tc.prompt}, Answer: tc.answer, Evidence: units(t, "common/tar.md", tarPage)})
			expect(t, res, tc.want, "asks why")
		})
	}
}
