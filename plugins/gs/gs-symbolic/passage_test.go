package gssymbolic

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// mdSource is one Markdown file read into KUs as ingest reads it.
type mdSource struct {
	id, md string
	units  []*kus.KU
}

func parseMD(t *testing.T, id, md string) mdSource {
	t.Helper()
	doc, err := kus.Parse([]byte(md), kus.SourceInfo{SourceID: id})
	if err != nil {
		t.Fatal(err)
	}
	return mdSource{id: id, md: md, units: doc.Units}
}

// testdataMD is the page testdata/name, a fixture too long to read well
// as a string literal.
func testdataMD(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// matching is the source's units that match accepts, in the source's order.
func (s mdSource) matching(match func(*kus.KU) bool) []*kus.KU {
	var found []*kus.KU
	for _, k := range s.units {
		if match(k) {
			found = append(found, k)
		}
	}
	return found
}

// last is the last of the source's units that match accepts: the source
// lists its units broadest first (the page's summary before its section,
// a section before its leaves), so it is the narrowest of them. The test
// fails at once, naming what, when there is none.
func (s mdSource) last(t *testing.T, what string, match func(*kus.KU) bool) *kus.KU {
	t.Helper()
	found := s.matching(match)
	if len(found) == 0 {
		t.Fatalf("%s has no unit of %s", s.id, what)
	}
	return found[len(found)-1]
}

// isLeaf tells whether k is a leaf unit.
func isLeaf(k *kus.KU) bool { return k.Level == kus.LevelLeaf }

// leaf is the first leaf unit of the source whose title is title.
func (s mdSource) leaf(t *testing.T, title string) *kus.KU {
	t.Helper()
	for _, k := range s.units {
		if k.Level == kus.LevelLeaf && k.Title == title {
			return k
		}
	}
	t.Fatalf("%s has no leaf titled %q", s.id, title)
	return nil
}

// soleLeaf is the source's one leaf unit (a tldr page's examples).
func (s mdSource) soleLeaf(t *testing.T) *kus.KU {
	t.Helper()
	leaves := s.matching(isLeaf)
	if len(leaves) != 1 {
		t.Fatalf("%s has %d leaf units, want 1", s.id, len(leaves))
	}
	return leaves[0]
}

// solve runs gs-symbolic's Solve through the plugin interface, with c as
// the corpus (nil for none).
func solve(t *testing.T, c plugin.Corpus, in *plugin.SolveInput) *plugin.SolveResult {
	t.Helper()
	p := plugintest.New[plugin.GSPlugin](t, New, plugin.Env{})
	res, err := p.Solve(context.Background(), plugin.RunContext{Corpus: c}, in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// solveMD asks gs-symbolic one task over the given units of the sources.
func solveMD(t *testing.T, act, prompt, target string, srcs []mdSource, ev ...*kus.KU) string {
	t.Helper()
	c := srcCorpus{}
	for _, s := range srcs {
		c[s.id] = s.md
	}
	var scoredEv []plugin.ScoredKU
	for i, k := range ev {
		scoredEv = append(scoredEv, plugin.ScoredKU{KU: k, Score: 1 - 0.1*float64(i)})
	}
	res := solve(t, c, &plugin.SolveInput{Payload: plugin.Payload{Prompt: prompt}, Intents: []plugin.Intent{{ID: "i1", Act: act, Target: target}}, Evidence: scoredEv})
	if res.Status != plugin.StatusSuccess {
		t.Fatalf("status %s: %s", res.Status, res.ResponseMarkdown)
	}
	return res.ResponseMarkdown
}

// procedureMD runs solveProcedure with its arguments and returns the
// answer's Markdown; the test fails at once when it gives no answer.
func procedureMD(t *testing.T, ev []plugin.ScoredKU, task string, want []string, g guidance, c plugin.Corpus) string {
	t.Helper()
	res := solveProcedure(ev, task, want, g, c)
	if res == nil {
		t.Fatal("no answer")
	}
	return res.ResponseMarkdown
}

func checkMD(t *testing.T, md string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("answer lacks %q:\n%s", w, md)
		}
	}
	for _, w := range not {
		if strings.Contains(md, w) {
			t.Errorf("answer holds %q:\n%s", w, md)
		}
	}
}

// pairCase is a predicate's two arguments and the answer it must give.
type pairCase struct {
	a, b string
	want bool
}

// checkPredicate calls f, named name in the errors, on each case.
func checkPredicate(t *testing.T, name string, f func(a, b string) bool, cases []pairCase) {
	t.Helper()
	for _, c := range cases {
		if got := f(c.a, c.b); got != c.want {
			t.Errorf("%s(%q, %q) = %v, want %v", name, c.a, c.b, got, c.want)
		}
	}
}

// checkCalls calls f, named name in the errors, on each input of cases
// and wants the output the case gives it.
func checkCalls[Out comparable](t *testing.T, name string, f func(string) Out, cases map[string]Out) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %v, want %v", name, in, got, want)
		}
	}
}

// pageCase is a task asked of one Markdown page, the page's units titled
// leaves its evidence in that order, and what the answer must say (want)
// and must not (not).
type pageCase struct {
	name, id, md        string
	act, prompt, target string
	leaves, want, not   []string
}

// checkPages solves each case in a subtest and checks its answer.
func checkPages(t *testing.T, cases []pageCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := parseMD(t, tc.id, tc.md)
			var ev []*kus.KU
			for _, title := range tc.leaves {
				ev = append(ev, src.leaf(t, title))
			}
			checkMD(t, solveMD(t, tc.act, tc.prompt, tc.target, []mdSource{src}, ev...), tc.want, tc.not)
		})
	}
}

const loggingMD = `# Logging

## Level logging

Logrus has seven logging levels: Trace, Debug, Info, Warning, Error, Fatal and Panic.

` + "```go" + `
log.Trace("Something very low level.")
if err != nil {
	log.Fatal("Bye.")
}
` + "```" + `

You can set the logging level on a Logger, then it will only log entries with that severity or anything above it.
`

const viperMD2 = `# Viper

## What is Viper?

Viper is a complete configuration solution for Go applications. It is designed to work within an application. It supports:

* setting defaults
* reading from environment variables
* reading from remote config systems (etcd or Consul)
* reading from command line flags

Viper can be thought of as a registry for all of your applications configuration needs.

## Reading Config Files

Viper requires minimal configuration so it knows where to look for config files. Viper can search multiple paths.
`

// TestListQuestionGetsTheList: a list question is answered by the
// statement that introduces a list, with the list as a list under it.
func TestListQuestionGetsTheList(t *testing.T) {
	src := parseMD(t, "viper/README.md", viperMD2)
	md := solveMD(t, "identify", "Which sources can viper read configuration from?", "sources can viper read configuration from", []mdSource{src},
		src.leaf(t, "Reading Config Files"), src.leaf(t, "What is Viper?"))
	checkMD(t, md, []string{"It supports", "\n  * reading from remote config systems (etcd or Consul)\n", "\n  * reading from command line flags\n"}, nil)
	if strings.Count(md, "reading from environment variables") != 1 {
		t.Errorf("a list item is repeated:\n%s", md)
	}
}

const unitsMD = `# gs-demo

## Context Unit plugin::gs-demo::unit-000

Role: Comparison
Topic: gs-demo versus gs-other
Claim: gs-demo answers from the evidence alone, with no model.
`

// TestContextUnitStatesItsClaim: a Context Unit is quoted by its Claim;
// its Topic and field names are labels that never reach the answer.
func TestContextUnitStatesItsClaim(t *testing.T) {
	src := parseMD(t, "plugin::gs-demo", unitsMD)
	unit := src.last(t, "the Context Unit", func(k *kus.KU) bool {
		return k.Claim == "gs-demo answers from the evidence alone, with no model."
	})
	md := solveMD(t, "describe", "How does gs-demo answer?", "gs-demo answer", []mdSource{src}, unit)
	body, _, _ := strings.Cut(md, "Sources:")
	checkMD(t, body, []string{"gs-demo answers from the evidence alone, with no model. [1]"}, []string{"Topic:", "Role:", "Claim:", "versus gs-other"})
}

const proxiesMD = `# Gin

## Don't trust all proxies

Gin lets you specify which headers to hold the real client IP, as well as which proxies you trust. Use the function SetTrustedProxies() on your gin.Engine to list the proxies to trust. Gin trusts all proxies by default, and this is not safe because any client can then forge its IP address.

## SecureJSON

SecureJSON is a JSON renderer of gin that prepends a prefix to the response body to prevent JSON hijacking.

` + "```go" + `
r.GET("/someJSON", func(c *gin.Context) {
	c.SecureJSON(http.StatusOK, names)
})
` + "```" + `
`

const stashMD = `# git stash

> Stash local Git changes in a temporary area.
> More information: <https://git-scm.com/docs/git-stash>.

- Stash current changes, including new untracked files:

` + "`git stash {{[-u|--include-untracked]}}`" + `

- List all stashes:

` + "`git stash list`" + `

- Apply a stash and remove it from the stash list:

` + "`git stash pop`" + `

- Delete all stashes:

` + "`git stash clear`" + `
`

const nohupMD = `# gnunohup

> This command is an alias of GNU ` + "`nohup`" + `.

- View documentation for the original command:

` + "`tldr nohup`" + `
`

const gzipMD = `# gzip

> Compress/uncompress files with gzip compression (LZ77).
> More information: <https://www.gnu.org/software/gzip/manual/gzip.html>.

- Compress a file, replacing it with a ` + "`gzip`" + ` archive:

` + "`gzip {{path/to/file}}`" + `

- Compress a file, keeping the original file:

` + "`gzip {{[-k|--keep]}} {{path/to/file}}`" + `

- Specify the compression level. 1 is the fastest, 9 compresses the most:

` + "`gzip -{{1..9}} {{path/to/file}}`" + `

- Decompress a file, replacing it with the original uncompressed version:

` + "`gzip {{[-d|--decompress]}} {{path/to/file.gz}}`" + `
`

const systemctlMD = `# systemctl

> Control the systemd system and service manager.

- Show all running services:

` + "`systemctl status`" + `

- Start/Stop/Restart the status of a service:

` + "`systemctl {{start|stop|restart}} {{unit}}`" + `

- Enable/Disable a unit to be started on bootup:

` + "`systemctl {{enable|disable}} {{unit}}`" + `

- Reload systemd, scan for new or changed units:

` + "`systemctl daemon-reload`" + `
`

// TestPageExamples: a question about what one tldr page does is answered
// from the page's examples, each description with its command.
func TestPageExamples(t *testing.T) {
	cases := []struct {
		name, id, md        string
		act, prompt, target string
		want                []string
	}{
		// A question that names only what a page is about gets the page's
		// summary and its examples.
		{"overview", "common/git-stash.md", stashMD, "verify", "What can I do with git stash?", "can I do with git stash",
			[]string{"Stash local Git changes in a temporary area.", "- List all stashes [1]:\n\n  `git stash list`\n", "`git stash {{[-u|--include-untracked]}}`", "`git stash clear`"}},
		// A list question that names more than the page gets the page too.
		{"list naming more than the page", "common/git-stash.md", stashMD, "identify", "Which operations on stashes does git stash offer?", "operations on stashes does git stash offer",
			[]string{"`git stash list`", "`git stash pop`", "`git stash clear`", "`git stash {{[-u|--include-untracked]}}`"}},
		// "service", which the page's description says the whole page is
		// about, does not narrow the examples to those that say it.
		{"list of what a page does", "linux/systemctl.md", systemctlMD, "define", "What can I do to a service with systemctl?", "can I do to a service with systemctl",
			[]string{"`systemctl status`", "restart", "`systemctl {{enable|disable}} {{unit}}`", "`systemctl daemon-reload`"}},
		// A how-to that asks for two actions gets the example that does
		// each, both cited.
		{"how-to of several actions", "common/gzip.md", gzipMD, "implement", "How do I compress a file with gzip, and then decompress it?", "compress a file with gzip, and then decompress it",
			[]string{"- Compress a file, replacing it with a `gzip` archive [1]:\n\n  `gzip {{path/to/file}}`", "- Decompress a file, replacing it with the original uncompressed version [1]:\n\n  `gzip {{[-d|--decompress]}} {{path/to/file.gz}}`"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := parseMD(t, tc.id, tc.md)
			md := solveMD(t, tc.act, tc.prompt, tc.target, []mdSource{src}, src.soleLeaf(t))
			checkMD(t, md, tc.want, nil)
		})
	}
}

// TestAliasPageGivesWay: a page that only says it is another name of a
// page the evidence holds is left out; the page it names speaks.
func TestAliasPageGivesWay(t *testing.T) {
	alias := parseMD(t, "linux/gnunohup.md", nohupMD)
	real := parseMD(t, "common/nohup.md", "# nohup\n\n> Allows for a process to live when the terminal gets killed.\n\n- Run a process that can live beyond the terminal:\n\n`nohup {{command}} &`\n")
	md := solveMD(t, "describe", "Tell me about nohup and the terminal", "nohup and the terminal", []mdSource{alias, real}, alias.soleLeaf(t), real.soleLeaf(t))
	checkMD(t, md, []string{"Allows for a process to live when the terminal gets killed."}, []string{"alias of GNU", "tldr nohup"})
}

const tableMD = `# Tool

## Commands

Every command takes --workspace DIR.

| command | what it does |
| --- | --- |
| ` + "`tool ask QUESTION`" + ` | answers a question |
| ` + "`tool search QUERY`" + ` | ranks the knowledge base |
| ` + "`tool lsp`" + ` | the language server |
| ` + "`tool mcp`" + ` | a Model Context Protocol server |
| ` + "`tool version`" + ` | the version of this build |
| ` + "`tool trace [ID]`" + ` | prints the trace of a past request |
| ` + "`tool ingest`" + ` | brings the knowledge base up to date |
| ` + "`tool stats`" + ` | prints statistics |
`

const bindMD = `# Gin

## Model binding and validation

To bind a request body into a type, use model binding.

Also, Gin provides two sets of methods for binding:

- **Type** - Must bind
  - **Methods** - ` + "`Bind`, `BindJSON`, `BindXML`" + `
  - **Behavior** - These methods use ` + "`MustBindWith`" + ` under the hood. If there is a binding error, the request is aborted with a 400 status.
- **Type** - Should bind
  - **Methods** - ` + "`ShouldBind`, `ShouldBindJSON`, `ShouldBindXML`" + `
  - **Behavior** - These methods use ` + "`ShouldBindWith`" + ` under the hood. If there is a binding error, the error is returned.

## Formatters

The built-in logging formatters are:

* [` + "`logrus.TextFormatter`" + `](https://pkg.go.dev/github.com/sirupsen/logrus#TextFormatter)
  logs the event in colors if the logger output is a TTY, otherwise without colors.
* [` + "`logrus.JSONFormatter`" + `](https://pkg.go.dev/github.com/sirupsen/logrus#JSONFormatter)
  logs fields as JSON.
`

// TestComparisonRowsFromNestedLists: each compared item's row is built
// from the list item that names it as an identifier, with the sibling
// items that describe it, even when the list sits under an introduction.
func TestComparisonRowsFromNestedLists(t *testing.T) {
	src := parseMD(t, "gin/doc.md", bindMD)
	md := solveMD(t, "compare", "What is the difference between ShouldBind and Bind in gin?", "the difference between ShouldBind and Bind in gin", []mdSource{src}, src.leaf(t, "Model binding and validation"))
	checkMD(t, md, []string{"| ShouldBind | **Type** - Should bind; ", "the error is returned", "| Bind | **Type** - Must bind; ", "the request is aborted"},
		[]string{"To bind a request body"})
	md = solveMD(t, "compare", "TextFormatter or JSONFormatter in logrus: how do they differ?", "TextFormatter or JSONFormatter in logrus: how do they differ", []mdSource{src}, src.leaf(t, "Formatters"))
	checkMD(t, md, []string{"| TextFormatter | `logrus.TextFormatter` logs the event in colors", "| JSONFormatter | `logrus.JSONFormatter` logs fields as JSON. [1] |"}, []string{"pkg.go.dev"})
}

// TestHowToRowOfATable: a how-to answered from a section whose passage is
// a table shows the row that does it under the header, and a wrapped line
// that happens to end in ":" opens no example.
func TestHowToRowOfATable(t *testing.T) {
	md := strings.Replace(tableMD, "Every command takes --workspace DIR.", "Every command takes `--workspace DIR` and `--db PATH` (default:\n`<cache>/kb.db`) and `--json`.", 1)
	src := parseMD(t, "README.md", md)
	got := solveMD(t, "implement", "How do I see the trace of a past request?", "see the trace of a past request", []mdSource{src}, src.leaf(t, "Commands"))
	checkMD(t, got, []string{"| command | what it does |\n| --- | --- |\n| `tool trace [ID]` | prints the trace of a past request |"},
		[]string{"- Every command", "`tool lsp`", "`tool ask QUESTION`"})
}

// TestListQuestionGetsTheWholeList: a list no sentence introduces is still
// shown whole to a list question, each item once.
func TestListQuestionGetsTheWholeList(t *testing.T) {
	src := parseMD(t, "logrus/README.md", "# Logrus\n\n## Logging levels\n\n- Trace, the finest\n- Debug\n- Info\n- Warning\n- Error\n- Fatal, which exits\n- Panic, which panics\n\n## Hooks\n\nHooks run on every entry.\n")
	md := solveMD(t, "identify", "Which logging levels does logrus have?", "logging levels does logrus have", []mdSource{src}, src.leaf(t, "Logging levels"))
	for _, lv := range []string{"Trace, the finest", "Debug", "Info", "Warning", "Error", "Fatal, which exits", "Panic, which panics"} {
		if strings.Count(md, "- "+lv+" [1]") != 1 {
			t.Errorf("%q not shown once:\n%s", lv, md)
		}
	}
}

// TestTableUnitStartsAtItsRow: a unit whose text starts inside a table's
// header row (after its "| ") is read from the start of that row, so the
// table keeps its header instead of reading as a sentence followed by a
// headless table.
func TestTableUnitStartsAtItsRow(t *testing.T) {
	src := parseMD(t, "c.md", "# Configuration\n\n## Editor extension settings\n\n| key | meaning |\n| --- | --- |\n| mrx.theme | the colour theme |\n")
	raw := rawOf(src.leaf(t, "Editor extension settings"), srcCorpus{"c.md": src.md})
	blocks := readBlocks(raw)
	if len(blocks) != 1 {
		t.Fatalf("got %d blocks from %q, want one table: %+v", len(blocks), raw, blocks)
	}
	b := blocks[0]
	if b.kind != kindRow || len(b.lines) != 3 || b.lines[0] != "| key | meaning |" {
		t.Fatalf("got %+v, want a table of three rows led by its header", b)
	}
}

// TestLinkReferencesAreNotText: the link reference definitions a page
// closes a section with are where its links lead, not statements an
// answer quotes.
func TestLinkReferencesAreNotText(t *testing.T) {
	blocks := readBlocks("The legacy [RealIP] middleware is deprecated.\n\n[RealIP]: https://pkg.go.dev/chi/middleware#RealIP\n[Logger]: https://pkg.go.dev/chi/middleware#Logger\n\nAfter.")
	var all []string
	for _, b := range blocks {
		all = append(all, b.lines...)
	}
	if got := strings.Join(all, "\n"); strings.Contains(got, "https://") || !strings.Contains(got, "deprecated") || !strings.Contains(got, "After.") {
		t.Fatalf("blocks = %q", got)
	}
}

// TestListQuestionGetsTheWholeTable: a list question answered from a
// table's rows gets every row, not the first few that share a word with it.
func TestListQuestionGetsTheWholeTable(t *testing.T) {
	var rows strings.Builder
	names := []string{"MRPVM_CONFIG_DIR", "MRPVM_LLM_BASE_URL", "MRPVM_LLM_MODEL", "MRPVM_LLM_API_KEY", "MRPVM_LLM_API_KEY_FILE", "OPENAI_BASE_URL", "OPENAI_API_KEY", "OLLAMA_HOST", "XDG_DATA_HOME"}
	for _, n := range names {
		fmt.Fprintf(&rows, "| `%s` | a model endpoint setting |\n", n)
	}
	src := parseMD(t, "docs/configuration.md", "# Configuration\n\n## Environment variables\n\n| variable | meaning |\n| --- | --- |\n"+rows.String())
	md := solveMD(t, "identify", "Which environment variables point at a model endpoint?", "environment variables point at a model endpoint", []mdSource{src}, src.leaf(t, "Environment variables"))
	for _, n := range names {
		if !strings.Contains(md, n) {
			t.Errorf("%s not shown:\n%s", n, md)
		}
	}
}

// TestListQuestionCutsATableItIsNotAbout: a table in a source further down
// the answer, whose section the question does not name, shows only the
// rows that bear most on the question, not all of them.
func TestListQuestionCutsATableItIsNotAbout(t *testing.T) {
	lead := parseMD(t, "plugins.md", "# Plugins\n\n## Retrievers\n\nThe graph retriever suits multi-hop questions that follow relations.\n")
	var rows strings.Builder
	for _, r := range []string{"a new graph retriever for multi-hop questions | a row in the retriever table", "a new editor command | the command table for questions", "a new setting | the settings file", "a new log field | the logger", "a new protocol field | the wire types", "a new report column | the report writer", "a new cache | the cache package", "a new release step | the release script"} {
		rows.WriteString("| " + r + " |\n")
	}
	other := parseMD(t, "layout.md", "# Layout\n\n## Where changes go\n\n| change | where |\n| --- | --- |\n"+rows.String())
	md := solveMD(t, "identify", "Which graph retriever suits multi-hop questions?", "graph retriever suits multi-hop questions", []mdSource{lead, other}, lead.leaf(t, "Retrievers"), other.leaf(t, "Where changes go"))
	if !strings.Contains(md, "a new graph retriever") {
		t.Errorf("the row about the question is missing:\n%s", md)
	}
	for _, off := range []string{"a new editor command", "a new release step", "a new log field"} {
		if strings.Contains(md, off) {
			t.Errorf("row %q of a table the question is not about is shown:\n%s", off, md)
		}
	}
}

// TestPassages: which passage of a page answers a task, and the form it
// keeps.
func TestPassages(t *testing.T) {
	checkPages(t, []pageCase{
		// A "why" question is answered by the sentence that gives the
		// reason first.
		{name: "why is answered by the reason", id: "gin/doc.md", md: proxiesMD,
			act: "explain", prompt: "Why should I not trust all proxies in gin?", target: "should I not trust all proxies in gin",
			leaves: []string{"Don't trust all proxies"}, want: []string{"this is not safe because any client can then forge its IP address"}},
		// "What is X" is answered by the sentence saying what X is, not by
		// the code that uses it.
		{name: "a definition is the defining sentence", id: "gin/doc.md", md: proxiesMD,
			act: "define", prompt: "What is SecureJSON in gin?", target: "SecureJSON in gin",
			leaves: []string{"SecureJSON"}, want: []string{"SecureJSON is a JSON renderer of gin"}, not: []string{"c.SecureJSON(http.StatusOK"}},
		// A code block of the passage that answers stays a fenced block
		// with its indentation, never one inline span per line, and the
		// prose stays one paragraph.
		{name: "code stays fenced", id: "logrus/README.md", md: loggingMD,
			act: "describe", prompt: "Show me trace and fatal level logging in logrus", target: "trace and fatal level logging in logrus",
			leaves: []string{"Level logging"}, want: []string{"```go\n", "\n\tlog.Fatal(\"Bye.\")\n", "Logrus has seven logging levels: Trace, Debug, Info, Warning, Error, Fatal and Panic."},
			not: []string{"`log.Trace(\"Something very low level.\")`", "1. "}},
		// Rows that answer are shown as a table under their header, each
		// row cited, not flattened to "a | b" text.
		{name: "a table stays a table", id: "README.md", md: tableMD,
			act: "describe", prompt: "How do I see the trace of a past request?", target: "see the trace of a past request",
			leaves: []string{"Commands"}, want: []string{"| command | what it does |\n| --- | --- |\n", "| `tool trace [ID]` | prints the trace of a past request [1] |"}, not: []string{"\ncommand | what it does"}},
		// A paragraph of a few words over a code block is its label, and a
		// list question about the section is answered by its labelled
		// blocks.
		{name: "labelled code", id: "gin/docs/doc.md", md: "# Gin\n\n### Build with json replacement\n\nGin uses `encoding/json` as the default JSON package but you can change it by building from other tags.\n\n[jsoniter](https://github.com/json-iterator/go)\n\n```sh\ngo build -tags=jsoniter .\n```\n\n[go-json](https://github.com/goccy/go-json)\n\n```sh\ngo build -tags=go_json .\n```\n\n[sonic](https://github.com/bytedance/sonic)\n\n```sh\n$ go build -tags=sonic .\n```\n",
			act: "identify", prompt: "Which JSON packages can gin be built with instead of encoding/json?", target: "JSON packages can gin be built with instead of encoding/json",
			leaves: []string{"Build with json replacement"}, want: []string{"- jsoniter [1]", "go build -tags=jsoniter .", "- go-json [1]", "go build -tags=go_json .", "- sonic [1]", "$ go build -tags=sonic ."}, not: []string{"github.com"}},
	})
}

// TestSetextHeadingIsNoStatement: a heading written with an underline
// ("chi examples" over "====") is a label, as an ATX heading is, and is
// not quoted as a statement.
func TestSetextHeadingIsNoStatement(t *testing.T) {
	for _, b := range readBlocks("chi examples\n============\n\n* hello-world - Hello World!\n\nUsage\n-----\n\nRun the example.\n") {
		for _, l := range b.lines {
			if strings.Contains(l, "==") || strings.Contains(l, "--") || l == "chi examples" || l == "Usage" {
				t.Fatalf("heading read as a statement: %q", b.lines)
			}
		}
	}
}

// TestTableOfContentsEntryIsNoStatement: a list item that opens with a
// link to a heading of its own page is a table of contents' entry, with
// words after the link or without, and is not quoted as a statement.
func TestTableOfContentsEntryIsNoStatement(t *testing.T) {
	for _, b := range readBlocks("* [Serving Single Page Applications](#serving-single-page-applications) (e.g. React, Vue, etc.)\n* [Registered URLs](#registered-urls)\n\nRoutes can be named.\n") {
		for _, l := range b.lines {
			if strings.Contains(l, "Single Page") || strings.Contains(l, "Registered") {
				t.Fatalf("table of contents entry read as a statement: %q", b.lines)
			}
		}
	}
}

// TestWhatQuestionNamingAListSectionGetsTheWholeList: a "what" question
// that names everything a list's section is titled is shown the whole
// list, whatever act it was read as; naming part of the title is not
// enough.
func TestWhatQuestionNamingAListSectionGetsTheWholeList(t *testing.T) {
	src := parseMD(t, "chi/_examples/README.md", testdataMD(t, "chi-examples.md"))
	md := solveMD(t, "explain", "What example programs come with chi?", "example programs come with chi", []mdSource{src}, src.leaf(t, "chi examples"))
	checkMD(t, md, []string{"custom-handler", "fileserver", "graceful", "hello-world", "todos-resource"}, nil)
	if titleNamed(src.leaf(t, "chi examples"), []string{"chi"}) {
		t.Error("a question naming part of the title names the section")
	}
}
