package valsymbolic

import (
	"fmt"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// page parses a tldr-style page as ingest does and returns its summary
// unit, the one a how-to answer over tldr-pages cites.
func page(t *testing.T, id, md string) *kus.KU {
	t.Helper()
	for _, k := range plugintest.Parse(t, id, md) {
		if k.Level == kus.LevelSummary {
			return k
		}
	}
	t.Fatalf("%s: no summary unit", id)
	return nil
}

const lprPage = `# lpr

> Print files.
> See also: ` + "`lpstat`" + `.

- Print a file to the default printer:

` + "`lpr {{path/to/file}}`" + `

- Print double-sided either in portrait (long) or in landscape (short):

` + "`lpr -o sides={{two-sided-long-edge|two-sided-short-edge}} {{path/to/file}}`" + `
`

const aliasPage = `# alias

> Create aliases: words that the shell replaces by a command string.

- List all aliases:

` + "`alias`" + `

- Create a short name for a long command:

` + "`alias {{name}}=\"{{command}}\"`" + `
`

const scpPage = `# scp

> Secure copy.

- Copy a local file to a remote host:

` + "`scp {{local}} {{host}}:{{dir}}`" + `
`

// TestKeyWordsMustStandTogether: a page that has the question's rare
// words only apart ("long" and "short" as paper edges in one example) does
// not answer it, although its words cover the question by rarity; a page
// that says them together does, and so does a page named by one of them
// that says another.
func TestKeyWordsMustStandTogether(t *testing.T) {
	df := freqs(map[string]int{"file print command name page another machine": 600, "long short": 30, "lpr alias scp": 2})
	lpr, alias, scp := page(t, "common/lpr.md", lprPage), page(t, "common/alias.md", aliasPage), page(t, "common/scp.md", scpPage)
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"common/lpr.md": lprPage, "common/alias.md": aliasPage, "common/scp.md": scpPage}}
	cases := []struct {
		name, target, answer string
		ev                   *kus.KU
		want                 plugin.Status
	}{
		{"the words only apart", "give a long command a short name", "lpr [1]: Print files.\n\n- Print double-sided either in portrait (long) or in landscape (short):\n\n" +
			"  `lpr -o sides={{two-sided-long-edge|two-sided-short-edge}} {{path/to/file}}`\n\nSources:\n[1] lpr — common/lpr.md:1\n",
			lpr, plugin.StatusRejected},
		{"the words together", "give a long command a short name", "alias [1]: Create aliases: words that the shell replaces by a command string.\n\n- Create a short name for a long command:\n\n" +
			"  `alias {{name}}=\"{{command}}\"`\n\nSources:\n[1] alias — common/alias.md:1\n",
			alias, plugin.StatusAccepted},
		{"the page is named by one word and says another", "scp files to another machine", "scp [1]: Secure copy.\n\n- Copy a local file to a remote host:\n\n" +
			"  `scp {{local}} {{host}}:{{dir}}`\n\nSources:\n[1] scp — common/scp.md:1\n",
			scp, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{
				Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}},
				Answer:  tc.answer, Evidence: []plugin.ScoredKU{{KU: tc.ev, Score: 1, Level: kus.LevelSummary}}})
			expect(t, res, tc.want, "never together")
			if cov, _ := res.Metadata.Extra["keyCoverage"].(float64); tc.want == plugin.StatusRejected && cov < 0.6 {
				t.Errorf("key coverage %.2f: the case should pass the coverage check and fail only on togetherness", cov)
			}
		})
	}
}

const cpupowerPage = `# cpupower

> Tools for CPU power and tuning.

- List CPUs:

` + "`sudo cpupower --cpu all info`" + `

- Print CPU 0's available frequency governors:

` + "`sudo cpupower --cpu 0 frequency-info --governors`" + `
`

const sslSpeedPage = `# openssl speed

> Benchmark OpenSSL algorithms.

- Benchmark in parallel using all available CPU cores:

` + "`openssl speed -multi $(nproc)`" + `
`

// TestTheLeadSourceMustHoldTheWordsTogether: an answer that leads with a
// page where the question's words are only apart, and has them together
// only in a page it cites further down, leads with the wrong page; the
// same sources the other way round answer the question.
func TestTheLeadSourceMustHoldTheWordsTogether(t *testing.T) {
	df := freqs(map[string]int{"print list all info": 600, "cpu cores available": 40})
	cpupower, speed := page(t, "linux/cpupower.md", cpupowerPage), page(t, "common/openssl-speed.md", sslSpeedPage)
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"linux/cpupower.md": cpupowerPage, "common/openssl-speed.md": sslSpeedPage}}
	cpuPart := "cpupower [%d]: Tools for CPU power and tuning.\n\n- Print CPU 0's available frequency governors:\n\n  `sudo cpupower --cpu 0 frequency-info --governors`\n\n"
	sslPart := "openssl speed [%d]: Benchmark OpenSSL algorithms.\n\n- Benchmark in parallel using all available CPU cores:\n\n  `openssl speed -multi $(nproc)`\n\n"
	expectAnswers(t, c, plugin.ValidateInput{
		Intents:  []plugin.Intent{{ID: "i1", Act: "verify", Target: "How many CPU cores are available"}},
		Evidence: []plugin.ScoredKU{{KU: cpupower, Score: 1}, {KU: speed, Score: 0.9}}}, "", "leads with, [1] cpupower", []answerCase{
		{"led by the page that has them apart", fmt.Sprintf(cpuPart, 1) + fmt.Sprintf(sslPart, 2) +
			"Sources:\n[1] cpupower — linux/cpupower.md:1\n[2] openssl speed — common/openssl-speed.md:1\n", nil, plugin.StatusRejected},
		{"led by the page that has them together", fmt.Sprintf(sslPart, 1) + fmt.Sprintf(cpuPart, 2) +
			"Sources:\n[1] openssl speed — common/openssl-speed.md:1\n[2] cpupower — linux/cpupower.md:1\n", nil, plugin.StatusAccepted},
	})
}

const pueuePage = `# pueue

> A task management tool for long-running tasks.

- Add a task to the queue:

` + "`pueue add {{command}}`" + `

- Stash a task so that it waits until it is enqueued again:

` + "`pueue stash {{task_id}}`" + `
`

const gitStashPage = `# git stash

> Stash local Git changes in a temporary area.

- Stash current changes, except new (untracked) files:

` + "`git stash push`" + `
`

// TestWhatIsXIsAnsweredByAUnitAboutX: "What is a stash?" is not answered
// by a page that mentions stashing in one of its examples, but by the page
// about it.
func TestWhatIsXIsAnsweredByAUnitAboutX(t *testing.T) {
	df := freqs(map[string]int{"task add command change": 600, "stash": 20})
	pueue, stash := page(t, "common/pueue.md", pueuePage), page(t, "common/git-stash.md", gitStashPage)
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"common/pueue.md": pueuePage, "common/git-stash.md": gitStashPage}}
	expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: "a stash"}}}, "", "not about", []answerCase{
		{"a page that mentions it in passing", "pueue [1]: A task management tool for long-running tasks.\n\n- Stash a task so that it waits until it is enqueued again:\n\n" +
			"  `pueue stash {{task_id}}`\n\nSources:\n[1] pueue — common/pueue.md:1\n", pueue, plugin.StatusRejected},
		{"the page about it", "git stash [1]: Stash local Git changes in a temporary area.\n\n- Stash current changes, except new (untracked) files:\n\n" +
			"  `git stash push`\n\nSources:\n[1] git stash — common/git-stash.md:1\n", stash, plugin.StatusAccepted},
	})
}

// TestWhatIsXIsAnsweredByTheCodeThatDeclaresIt: "What is the Locator
// interface for?" is answered by a unit whose code declares it
// ("type Locator interface"), though its first sentence speaks of the
// API the interface belongs to; a unit that only uses the name is not
// about it.
func TestWhatIsXIsAnsweredByTheCodeThatDeclaresIt(t *testing.T) {
	df := freqs(map[string]int{"new api file search config": 300, "interfac": 200, "locat": 5, "store": 100})
	declared := plugintest.Text("u::1", "New file searching API", "store/UPGRADE.md", 9, "Store now has a new file searching API for config files.\n\nStore accepts a custom `Locator` interface implementation:\n\n```go\ntype Locator interface {\n\tFind(dir string) ([]string, error)\n}\n```\n")
	used := plugintest.Text("u::2", "New file searching API", "store/UPGRADE.md", 9, "Store now has a new file searching API for config files.\n\nStore accepts a custom `Locator` interface implementation:\n\n```go\nstore.SetLocator(myLocator)\n```\n")
	c := corpus{n: 1000, df: df}
	expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: "the Locator interface in store for"}}}, kus.LevelSection, "not about", []answerCase{
		{"code that declares it", "Store now has a new file searching API for config files. [1]\n\nStore accepts a custom `Locator` interface implementation [1]:\n\n" +
			"```go\ntype Locator interface {\n\tFind(dir string) ([]string, error)\n}\n```\n\nSources:\n[1] New file searching API — store/UPGRADE.md:9\n", declared, plugin.StatusAccepted},
		{"code that only uses it", "Store now has a new file searching API for config files. [1]\n\nStore accepts a custom `Locator` interface implementation [1]:\n\n" +
			"```go\nstore.SetLocator(myLocator)\n```\n\nSources:\n[1] New file searching API — store/UPGRADE.md:9\n", used, plugin.StatusRejected},
	})
}
