package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// srcCorpus serves one source's text.
type srcCorpus map[string]string

func (srcCorpus) Documents() int                { return 1 }
func (srcCorpus) DocFreq(string) int            { return 1 }
func (c srcCorpus) SourceText(id string) []byte { return []byte(c[id]) }

const viperMD = "## Watching and re-reading config files\n\nViper can read a config file while your program runs.\n\nTo watch the config file for changes:\n\n```go\nviper.OnConfigChange(func(e fsnotify.Event) {\n\tfmt.Println(\"Config file changed:\", e.Name)\n})\nviper.WatchConfig()\n```\n\nDefaults are set with SetDefault:\n\n```yaml\nserver:\n  port: 8080\n```\n"

// TestAnswerKeepsMarkdown: an example's code stays a fenced block with its
// indentation, and a code line ending in ":" never opens an example.
func TestAnswerKeepsMarkdown(t *testing.T) {
	start := strings.Index(viperMD, "Viper can")
	k := &kus.KU{ID: "v::1", Title: "Watching and re-reading config files", SourceID: "viper/README.md",
		CharStart: start, CharEnd: len(viperMD), Range: kus.Range{StartLine: 3}}
	k.TextBody = viperMD[start:]
	k.Procedure = k.TextBody
	task := "watch a config file for changes with viper"
	md := procedureMD(t, []plugin.ScoredKU{{KU: k, Score: 1}}, task, symbolic.ContentTerms(task), guidance{}, srcCorpus{"viper/README.md": viperMD})
	for _, want := range []string{"- To watch the config file for changes:", "  ```go\n", "  \tfmt.Println(\"Config file changed:\", e.Name)\n", "  viper.WatchConfig()\n  ```"} {
		if !strings.Contains(md, want) {
			t.Errorf("answer lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "- server") || strings.Contains(md, "`viper.WatchConfig()`") {
		t.Errorf("code read as examples or as inline spans:\n%s", md)
	}
	p, _ := readRawProcedure(k, viperMD[start:])
	if len(p.examples) != 2 {
		t.Errorf("examples %d, want 2 (the yaml key is code, not an example)", len(p.examples))
	}
}

func TestCutBlock(t *testing.T) {
	var lines []string
	lines = append(lines, "```")
	for i := 0; i < 60; i++ {
		lines = append(lines, "  --option-"+strings.Repeat("x", i%5)+" does something")
	}
	lines[30] = "  --follow  keep reading as the file grows"
	lines = append(lines, "```")
	got := cutBlock(lines, symbolic.ContentTerms("follow the file as it grows"))
	if len(got) > maxBlockLines+3 {
		t.Errorf("%d lines kept", len(got))
	}
	joined := strings.Join(got, "\n")
	if !strings.Contains(joined, "--follow") || !strings.HasPrefix(joined, "```") || !strings.HasSuffix(joined, "```") {
		t.Errorf("cut block:\n%s", joined)
	}
	if short := cutBlock(lines[:5], nil); len(short) != 5 {
		t.Errorf("a short block is kept whole")
	}
}

// TestWrappedDescriptionIsOneParagraph: the wrapped lines of a paragraph
// that introduces an example form one description, and link targets are
// dropped so every word is in the cited KU.
func TestWrappedDescriptionIsOneParagraph(t *testing.T) {
	raw := "Viper is a complete configuration solution for Go\napplications, see [the docs](https://example.org/viper). It supports:\n\n* setting defaults\n* live watching of config files\n"
	p, ok := readRawProcedure(&kus.KU{ID: "v::0"}, raw)
	if !ok || len(p.examples) != 1 {
		t.Fatalf("examples %+v", p.examples)
	}
	want := "Viper is a complete configuration solution for Go applications, see the docs. It supports"
	if p.examples[0].desc != want {
		t.Errorf("desc %q, want %q", p.examples[0].desc, want)
	}
	if got := strings.Join(p.examples[0].how, "\n"); got != "* setting defaults\n* live watching of config files" {
		t.Errorf("how %q", got)
	}
}

// TestHowToPrefersSectionShowingCode: a section whose heading names the
// task and that shows code without description lines answers a how-to
// over a higher-ranked overview that only mentions the feature in a list.
func TestHowToPrefersSectionShowingCode(t *testing.T) {
	const md = "## What is Viper?\n\nViper is a configuration solution. It supports:\n\n* setting defaults\n* live watching and re-reading of config files (optional)\n\n## Watching and re-reading config files\n\nViper supports the ability to have your application live read a config file while running.\n\n```go\nviper.OnConfigChange(func(e fsnotify.Event) {\n\tfmt.Println(\"Config file changed:\", e.Name)\n})\nviper.WatchConfig()\n```\n"
	about, watch := viperSections(md, "What is Viper?", "Watching and re-reading config files", 8)
	about.Procedure = "Viper is a configuration solution. It supports:\n* setting defaults\n* live watching and re-reading of config files (optional)"
	task := "watch a config file for changes with viper"
	ev := []plugin.ScoredKU{{KU: about, Score: 1}, {KU: watch, Score: 0.77}}
	out := procedureMD(t, ev, task, symbolic.ContentTerms(task), guidance{}, srcCorpus{"viper/README.md": md})
	checkMD(t, out, []string{"viper.WatchConfig()", "```go", "[1] Watching and re-reading config files — viper/README.md:8"},
		[]string{"setting defaults"})
}

// viperSections reads md, two "## " sections of viper/README.md, as the
// two units ingest makes of them: the first at line 1, the second titled
// second at line secondLine.
func viperSections(md, first, second string, secondLine int) (*kus.KU, *kus.KU) {
	split := strings.Index(md, "## "+second)
	a := &kus.KU{ID: "v::1", Title: first, SourceID: "viper/README.md", CharStart: 0, CharEnd: split, Range: kus.Range{StartLine: 1}, TextBody: md[:split]}
	b := &kus.KU{ID: "v::2", Title: second, SourceID: "viper/README.md", CharStart: split, CharEnd: len(md), Range: kus.Range{StartLine: secondLine}, TextBody: md[split:]}
	return a, b
}

// TestFenceIndented: an indented code block becomes a fenced block; list
// continuations and fenced blocks are left as they are.
func TestFenceIndented(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"indented block", "Build it:\n\n    cd editors/vscode\n    npm ci\n\nThen run it.", "Build it:\n\n```\ncd editors/vscode\nnpm ci\n```\n\nThen run it."},
		{"list continuation", "- item\n\n    more of the item\n", "- item\n\n    more of the item\n"},
		{"inside a fence", "```\n\n    x := 1\n```\n", "```\n\n    x := 1\n```\n"},
		{"no indentation", "plain\ntext", "plain\ntext"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := fenceIndented(tc.in); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestHowToActionAndAlias: the action word of a how-to picks the example
// ("list" picks "List all stashes"), and a page that is only an alias of
// another page in the evidence is answered by that page.
func TestHowToActionAndAlias(t *testing.T) {
	stash := plugintest.Procedure("s::1", "git stash", "common/git-stash.md", 3, "Stash local Git changes in a temporary area.\n- Stash the current uncommitted changes:\n`git stash`\n- List all stashes:\n`git stash list`")
	alias := plugintest.Procedure("d::1", "docker container remove", "common/docker-container-remove.md", 3, "This command is an alias of `docker container rm`.\n- View documentation for the original command:\n`tldr docker container rm`")
	rm := plugintest.Procedure("d::2", "docker container rm", "common/docker-container-rm.md", 3, "Remove containers.\n- Remove containers:\n`docker container rm {{container}}`")
	cases := []struct {
		name, task string
		ev         []plugin.ScoredKU
		want       string
	}{
		{"action word", "see the list of them (stash git)", []plugin.ScoredKU{{KU: stash, Score: 1}}, "`git stash list`"},
		{"alias followed", "remove one (docker container)", []plugin.ScoredKU{{KU: alias, Score: 1}, {KU: rm, Score: 0.5}}, "[1] docker container rm — common/docker-container-rm.md:3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			md := procedureMD(t, tc.ev, tc.task, symbolic.TaskTerms(tc.task), guidance{}, nil)
			if !strings.Contains(md, tc.want) {
				t.Errorf("answer lacks %q:\n%s", tc.want, md)
			}
			if tc.name == "action word" && strings.Index(md, "git stash list") > strings.Index(md, "uncommitted") && strings.Contains(md, "uncommitted") {
				t.Errorf("the listing example should come first:\n%s", md)
			}
		})
	}
}

// TestCutBlockDropsEmptyFences: cutting a long section never leaves a code
// block's fences with nothing between them; a block with a matching line
// keeps its fences around it; nothing matching keeps the opening lines.
func TestCutBlockDropsEmptyFences(t *testing.T) {
	var lines []string
	lines = append(lines, "Intro line.", "```sh")
	for i := 0; i < 20; i++ {
		lines = append(lines, "unrelated command "+strings.Repeat("z", i))
	}
	lines = append(lines, "```", "Some prose.", "```go")
	for i := 0; i < 10; i++ {
		lines = append(lines, "x := other()")
	}
	lines = append(lines, "r.GET(\"/query\", handler) // read the query string", "```")
	cases := []struct {
		name, task string
		want       []string // substrings, in order
		not        []string
	}{
		{"matching block kept with its fences", "read the query string", []string{"```go\nx := other()\nr.GET(\"/query\", handler) // read the query string\n```"}, []string{"```sh\n```", "```sh\n..."}},
		{"nothing matches", "compile a kernel", []string{"Intro line.\n```sh\nunrelated command"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(cutBlock(lines, symbolic.ContentTerms(tc.task)), "\n")
			checkMD(t, got, tc.want, tc.not)
			if strings.Count(got, "```")%2 != 0 {
				t.Errorf("unbalanced fences:\n%s", got)
			}
		})
	}
}

// TestHowToPrefersCodeNamingTheTask: of two sections that both mention the
// task's words, the one whose code calls an identifier made of them
// ("SetDefault" for "set a default value") answers a how-to, although the
// retriever ranked the overview first.
func TestHowToPrefersCodeNamingTheTask(t *testing.T) {
	const md = "## Why Viper?\n\nViper does the following for you:\n\n1. Provide a mechanism to set default values for your different configuration options.\n2. Read from `Set` calls, flags and env.\n\n## Establishing Defaults\n\nA default value is not required for a key.\n\n```go\nviper.SetDefault(\"ContentDir\", \"content\")\n```\n"
	why, defaults := viperSections(md, "Why Viper?", "Establishing Defaults", 8)
	task := "set a default value for a key in viper"
	ev := []plugin.ScoredKU{{KU: why, Score: 1}, {KU: defaults, Score: 0.6}}
	out := procedureMD(t, ev, task, symbolic.TaskTerms(task), guidance{}, srcCorpus{"viper/README.md": md})
	if !strings.Contains(out, "viper.SetDefault(") {
		t.Errorf("answer does not show SetDefault:\n%s", out)
	}
}

// TestSubheadingsAreExamples: code under a subheading before any
// description line is that subheading's example, and a subheading ends the
// example above it, so "upload a single file" shows the single-file code,
// not the multiple-files code that followed "How to curl:".
func TestSubheadingsAreExamples(t *testing.T) {
	const md = "### Upload files\n\n#### Single file\n\nThe file name should not be trusted.\n\n```go\nrouter.POST(\"/upload\", func(c *gin.Context) {\n  file, _ := c.FormFile(\"file\")\n  c.SaveUploadedFile(file, dst)\n})\n```\n\nHow to `curl`:\n\n```bash\ncurl -X POST http://localhost:8080/upload -F \"file=@test.zip\"\n```\n\n#### Multiple files\n\nSee the example.\n\n```go\nform, _ := c.MultipartForm()\nfiles := form.File[\"upload[]\"]\n```\n"
	k := &kus.KU{ID: "g::1", Title: "Upload files", SourceID: "gin/doc.md", CharStart: 0, CharEnd: len(md), Range: kus.Range{StartLine: 1}, TextBody: md}
	cases := []struct {
		task      string
		want, not string
	}{
		{"upload a single file with gin", "c.FormFile(\"file\")", "MultipartForm"},
		{"upload multiple files with gin", "c.MultipartForm()", "c.FormFile"},
	}
	for _, tc := range cases {
		t.Run(tc.task, func(t *testing.T) {
			out := procedureMD(t, []plugin.ScoredKU{{KU: k, Score: 1}}, tc.task, symbolic.TaskTerms(tc.task), guidance{brief: true}, srcCorpus{"gin/doc.md": md})
			if !strings.Contains(out, tc.want) || strings.Contains(out, tc.not) {
				t.Errorf("want %q and not %q in:\n%s", tc.want, tc.not, out)
			}
		})
	}
}

// TestPieceOfLongCodeIsCode: a code block too long for one unit is read in
// pieces; each piece reads as code between fences, never as prose.
func TestPieceOfLongCodeIsCode(t *testing.T) {
	code := strings.Repeat("fmt.Println(\"one line of a long example program\")\n", 120)
	src := parseMD(t, "long.md", "# Long\n\nThe whole program:\n\n```go\n"+code+"```\n")
	pieces := src.matching(isLeaf)
	if len(pieces) < 3 {
		t.Fatalf("got %d leaves, want the block in several pieces", len(pieces))
	}
	for i, k := range pieces {
		blocks := readBlocks(rawOf(k, srcCorpus{"long.md": src.md}))
		last := blocks[len(blocks)-1]
		if last.kind != kindCode || !strings.HasPrefix(last.lines[0], "```go") || last.lines[len(last.lines)-1] != "```" {
			t.Errorf("piece %d: last block %+v, want the code between its fences", i, last)
		}
		for _, b := range blocks {
			if b.kind != kindCode && i > 0 {
				t.Errorf("piece %d: %+v is not code", i, b)
			}
		}
	}
}

// TestNavigationLeftOut: a page's badges, table of contents and thematic
// breaks are not what it says: the answer's lead is its first sentence,
// and its examples hold no contents entry.
func TestNavigationLeftOut(t *testing.T) {
	src := parseMD(t, "mux/README.md", "# gorilla/mux\n\n![testing](https://example.com/badge.svg)\n[![codecov](https://example.com/c.svg)](https://codecov.io/x)\n\nPackage `gorilla/mux` implements a request router and dispatcher.\n\nThe main features are:\n\n* URL hosts, paths and query values can have variables with an optional regular expression.\n* Routes can be used as subrouters.\n\n---\n\n* [Install](#install)\n* [Serving Single Page Applications](#serving-single-page-applications) (e.g. React, Vue)\n* [Middleware](#middleware)\n\n---\n")
	md := solveMD(t, "implement", "How do I use path variables in gorilla mux?", "use path variables in gorilla mux", []mdSource{src}, src.units[0])
	checkMD(t, md, []string{"gorilla/mux [1]: Package `gorilla/mux` implements a request router", "can have variables"},
		[]string{"testing", "codecov", "---", "Install", "Single Page", "\n\n\n"})
}
