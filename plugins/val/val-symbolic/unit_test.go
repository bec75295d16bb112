package valsymbolic

import (
	"fmt"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// sourced is a corpus that also holds the Markdown of its sources.
type sourced struct {
	corpus
	src map[string]string
}

func (c sourced) SourceText(id string) []byte { return []byte(c.src[id]) }

// TestKeyTermsMustCoOccurInOneUnit: a question about one thing is not
// answered by key terms scattered over several cited sources; one source
// covering them all, or a comparison drawing on one source per item, is.
func TestKeyTermsMustCoOccurInOneUnit(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"file number column print": 900, "mean life pbm scp rsync": 5})}
	life := plugin.ScoredKU{KU: plugintest.Claim("l::1", "pbmlife", "common/pbmlife.md", 3, "Apply Conway's rules of Life to a PBM image.")}
	stats := plugin.ScoredKU{KU: plugintest.Claim("d::1", "datamash", "linux/datamash.md", 3, "Get the mean of a column of numbers.")}
	both := plugin.ScoredKU{KU: plugintest.Claim("m::1", "mean life", "common/meanlife.md", 3, "Print the mean life of a file.")}
	scp := plugin.ScoredKU{KU: plugintest.Claim("s::1", "scp", "common/scp.md", 3, "Copy files between hosts over SSH.")}
	rsync := plugin.ScoredKU{KU: plugintest.Claim("r::1", "rsync", "common/rsync.md", 3, "Transfer files to or from a remote host.")}
	lifeStats := "\n\nSources:\n[1] pbmlife — common/pbmlife.md:3\n[2] datamash — linux/datamash.md:3\n"
	cases := []struct {
		name, act, target, answer string
		ev                        []plugin.ScoredKU
		want                      plugin.Status
	}{
		{"scattered over two sources", "define", "meaning of life",
			"Apply Conway's rules of Life to a PBM image. [1]\n- Get the mean of a column of numbers:\n\n`datamash mean` [2]" + lifeStats,
			[]plugin.ScoredKU{life, stats}, plugin.StatusRejected},
		{"lead-in citation owns what follows", "define", "meaning of life",
			"pbmlife [1]: Apply Conway's rules of Life to a PBM image.\n\ndatamash [2]: Get the mean of a column of numbers." + lifeStats,
			[]plugin.ScoredKU{life, stats}, plugin.StatusRejected},
		{"one source covers all", "define", "meaning of life",
			"Print the mean life of a file. [1] Get the mean of a column of numbers. [2]\n\nSources:\n[1] mean life — common/meanlife.md:3\n[2] datamash — linux/datamash.md:3\n",
			[]plugin.ScoredKU{both, stats}, plugin.StatusAccepted},
		{"a comparison draws on one source per item", "compare", "scp and rsync",
			"| item | what it does |\n| --- | --- |\n| scp | Copy files between hosts over SSH. [1] |\n| rsync | Transfer files to or from a remote host. [2] |\n\nSources:\n[1] scp — common/scp.md:3\n[2] rsync — common/rsync.md:3\n",
			[]plugin.ScoredKU{scp, rsync}, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: tc.act, Target: tc.target}}, Answer: tc.answer, Evidence: tc.ev})
			expect(t, res, tc.want, "no single source")
		})
	}
}

// markdownUnit is a knowledge base of ten units, each of the words terms
// in one of them, whose one source src holds the Markdown md; and the
// unit id, titled title, that spans the whole of md and claims claim.
func markdownUnit(id, src, title, md, claim, terms string) (sourced, plugin.ScoredKU) {
	c := sourced{corpus: corpus{n: 10, df: freq(terms, 1)}, src: map[string]string{src: md}}
	k := plugin.ScoredKU{KU: &kus.KU{ID: id, Title: title, SourceID: src,
		Range: kus.Range{StartLine: 1}, CharStart: 0, CharEnd: len(md), Claim: claim}}
	return c, k
}

// TestStatementsRestOnTheCitedMarkdown: a line the answer quotes from the
// Markdown of a unit it rests on (a label line its analysed fields leave
// out) is supported; one the Markdown lacks is not.
func TestStatementsRestOnTheCitedMarkdown(t *testing.T) {
	md := "## Querystring parameters\n\nHow to `curl`:\n\n```go\nc.Query(\"name\")\n```\n"
	c, k := markdownUnit("g::1", "gin/doc.md", "Querystring parameters", md, "Querystring parameters are read with Query.", "querystring parameters query")
	answer := func(line string) string {
		return "Querystring parameters [1]: Querystring parameters are read with Query.\n\n- " + line +
			"\n\n  ```go\n  c.Query(\"name\")\n  ```\n\nSources:\n[1] Querystring parameters — gin/doc.md:1\n"
	}
	in := plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: "read querystring parameters"}}, Evidence: []plugin.ScoredKU{k}}
	expectAnswers(t, c, in, "", "", []answerCase{
		{"quoted label line", answer("How to `curl`:"), nil, plugin.StatusAccepted},
		{"line the source lacks", answer("How to `wget`:"), nil, plugin.StatusRejected},
	})
}

// TestCitationGroupsStandAsWords: "[n]" inside quoted code (an array type,
// an index) is not a citation, so the code around it is not split into
// statements checked against the wrong source.
func TestCitationGroupsStandAsWords(t *testing.T) {
	cases := []struct {
		line  string
		cites [][]int // per statement
	}{
		{"Addresses [2]string `form:\"addresses\"` [1]", [][]int{{1}}},
		{"x := args[1] [2]", [][]int{{2}}},
		{"First claim [1]. Second claim [2][3].", [][]int{{1}, {2, 3}}},
		{"| scp | copies files [1] |", [][]int{{1}}},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			var got [][]int
			for _, s := range statements(tc.line) {
				got = append(got, s.cites)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.cites) {
				t.Fatalf("cites %v, want %v", got, tc.cites)
			}
		})
	}
}

// TestNumbersRestOnTheCitedMarkdown: a number the answer quotes from the
// Markdown of the unit it cites is grounded; one it makes up is not.
func TestNumbersRestOnTheCitedMarkdown(t *testing.T) {
	md := "## Ollama\n\nmrpvm asks `localhost:11434` when the probe is on.\n"
	c, k := markdownUnit("o::1", "docs/llm.md", "Ollama", md, "mrpvm asks a local Ollama when the probe is on.", "ollama probe localhost")
	answer := func(port string) string {
		return "mrpvm asks `localhost:" + port + "` when the Ollama probe is on. [1]\n\nSources:\n[1] Ollama — docs/llm.md:1\n"
	}
	expectAnswers(t, c, plugin.ValidateInput{Intents: intent("ollama probe"), Evidence: []plugin.ScoredKU{k}}, "", "11435", []answerCase{
		{"number in the cited Markdown", answer("11434"), nil, plugin.StatusAccepted},
		{"number nowhere", answer("11435"), nil, plugin.StatusRejected},
	})
}

// duLikePage and awkLikePage are cut from tldr-pages' du and awk pages.
const (
	duLikePage = "# du\n\n> Disk usage: estimate and summarize file and directory space usage.\n\n" +
		"- Show the total space a folder takes up:\n\n`du {{[-s|--summarize]}} {{path/to/folder}}`\n"
	awkLikePage = "# awk\n\n> A versatile programming language for working on files.\n\n" +
		"- Print the fifth column in a space-separated file:\n\n`awk '{print $5}' {{path/to/file}}`\n"
)

// TestEachSourceOfExamplesAnswers: a question answered with the examples
// of several pages is answered by each of them; a page quoted for a word
// it shares with the question in another sense ("space" of a
// space-separated file) makes the answer wrong. A question that asks
// which things there are gathers them from several pages.
func TestEachSourceOfExamplesAnswers(t *testing.T) {
	du, awk := page(t, "common/du.md", duLikePage), page(t, "linux/awk.md", awkLikePage)
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"space": 40, "folder total take": 60, "column print fifth file": 300})},
		src: map[string]string{"common/du.md": duLikePage, "linux/awk.md": awkLikePage}}
	both := "- Show the total space a folder takes up [1]:\n\n  `du {{[-s|--summarize]}} {{path/to/folder}}`\n\n" +
		"- Print the fifth column in a space-separated file [2]:\n\n  `awk '{print $5}' {{path/to/file}}`\n\n" +
		"Sources:\n[1] du — common/du.md:3\n[2] awk — linux/awk.md:3\n"
	one := "- Show the total space a folder takes up [1]:\n\n  `du {{[-s|--summarize]}} {{path/to/folder}}`\n\n" +
		"Sources:\n[1] du — common/du.md:3\n"
	ev := []plugin.ScoredKU{{KU: du, Score: 1, Level: kus.LevelSummary}, {KU: awk, Score: 0.5, Level: kus.LevelSummary}}
	for _, tc := range []struct {
		name, prompt, act, target, answer string
		want                              plugin.Status
	}{
		{"a page for another sense", "How much space does a folder take up in total?", "explain", "How much space does a folder take up in total", both, plugin.StatusRejected},
		{"the page that answers", "How much space does a folder take up in total?", "explain", "How much space does a folder take up in total", one, plugin.StatusAccepted},
		{"which things there are", "Which commands show the space a folder takes?", "identify", "commands show the space a folder takes", both, plugin.StatusAccepted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: tc.prompt},
				Intents: []plugin.Intent{{ID: "i1", Act: tc.act, Target: tc.target}}, Answer: tc.answer, Evidence: ev})
			expect(t, res, tc.want, "its examples do something else")
		})
	}
}
