package gssymbolic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
)

// TestCutBlockKeepsTableHeader: a long block cut to the lines that bear
// on the task keeps the header of a table whose row it keeps.
func TestCutBlockKeepsTableHeader(t *testing.T) {
	lines := []string{"| Format | Description |", "| --- | --- |", "| multi | Multiple parameter instances. |", "| csv | Comma-separated values. |", ""}
	for i := 0; i < maxBlockLines; i++ {
		lines = append(lines, "unrelated line of prose")
	}
	got := strings.Join(cutBlock(lines, []string{"paramet"}), "\n")
	if !strings.HasPrefix(got, "| Format | Description |\n| --- | --- |\n| multi | Multiple parameter instances. |") {
		t.Errorf("cut table lost its header:\n%s", got)
	}
}

// TestCompoundWordMatchesItsParts: a name written as one word
// ("Querystring parameters") answers a task that writes it as two ("query
// string parameters") as well as a description holding both words
// elsewhere ("Avoid logging query strings").
func TestCompoundWordMatchesItsParts(t *testing.T) {
	src := parseMD(t, "gin/docs/doc.md", testdataMD(t, "gin-query.md"))
	// The unit of the whole page, which holds both sections.
	page := src.last(t, "the whole page", func(k *kus.KU) bool { return k.Title == "API Examples" })
	md := solveMD(t, "implement", "How do I read query string parameters in gin?", "read query string parameters in gin", []mdSource{src}, page)
	if i, j := strings.Index(md, "Querystring parameters"), strings.Index(md, "Avoid logging"); i < 0 || j >= 0 && j < i {
		t.Errorf("the answer does not lead with the querystring example:\n%s", md)
	}
	if got := compounds("read query string parameters"); len(got) == 0 {
		t.Errorf("compounds found none")
	}
}

// TestCutListKeepsTheItemsThatBearMost: a long list is cut to the items
// holding the most task terms, not every item sharing one common word
// with the task.
func TestCutListKeepsTheItemsThatBearMost(t *testing.T) {
	var lines []string
	lines = append(lines, "- **Errors** print the code `kb_locked` when a command fails.")
	lines = append(lines, "- **Shell completion** completes every command and flag.")
	for i := 0; i < maxListItems; i++ {
		lines = append(lines, "- an unrelated item")
	}
	got := strings.Join(cutList(lines, []string{"command", "fail", "kb_lock"}), "\n")
	checkMD(t, got, []string{"kb_locked"}, []string{"Shell completion", "unrelated"})
}

// TestCommentsLeftOut: an HTML comment over a code block (a test fixture
// of the docs) is not the section's summary, and the answer never quotes
// it; a comment inside the code is code and stays.
func TestCommentsLeftOut(t *testing.T) {
	src := parseMD(t, "docs/completion.md", "# Completion\n\n#### Custom auto-completion\n<!-- {\n  \"args\": [\"complete\"],\n  \"output\": \"laundry\"\n} -->\n```go\nfunc main() {\n\t<!-- kept -->\n\ttasks := []string{\"cook\", \"clean\"}\n}\n```\n")
	md := solveMD(t, "implement", "How do I write a custom auto-completion?", "write a custom auto-completion", []mdSource{src}, src.leaf(t, "Custom auto-completion"))
	checkMD(t, md, []string{"tasks := []string", "<!-- kept -->"}, []string{"\"args\"", "laundry\" }", "<!-- {"})
}

// TestCutBlockIdentifiers: a long code block cut to the task's lines keeps
// a line naming the task in an identifier ("DefaultText"), and never a
// blank line as the line before a kept one.
func TestCutBlockIdentifiers(t *testing.T) {
	lines := []string{"```go", "package main", "", "import (", "\t\"log\"", "", "\t\"github.com/urfave/cli/v2\"", ")", ""}
	for i := 0; i < 14; i++ {
		lines = append(lines, fmt.Sprintf("\tx%d := %d", i, i))
	}
	lines = append(lines, "\tapp := &cli.App{Flags: []cli.Flag{&cli.IntFlag{", "\t\tName: \"port\",", "\t\tDefaultText: \"random\",", "\t}}}", "```")
	got := strings.Join(cutBlock(lines, []string{"default", "text", "cli"}), "\n")
	if !strings.Contains(got, "DefaultText: \"random\"") {
		t.Errorf("the cut block lacks the DefaultText line:\n%s", got)
	}
	if strings.Contains(got, "```go\n\n") {
		t.Errorf("the cut block opens with a blank line:\n%s", got)
	}
}

// TestCutBlockWholeItems: a long list cut to the task's lines keeps each
// item it keeps whole, from its marker to its last wrapped line, and not
// the wrapped end of the item above.
func TestCutBlockWholeItems(t *testing.T) {
	var lines []string
	for i := 0; i < 5; i++ {
		lines = append(lines, fmt.Sprintf("- **Rule %d** says one thing", i), "  over several wrapped lines", "  that end here.")
	}
	lines = append(lines, "- **Shell completion**: `mrpvm completion bash` prints a", "  script. It completes commands and", "  flags, the stages and plugin ids.")
	for i := 5; i < 10; i++ {
		lines = append(lines, fmt.Sprintf("- **Rule %d** says one thing", i), "  over several wrapped lines", "  that end here.")
	}
	got := cutBlock(lines, []string{"shell", "complet"})
	want := []string{"- **Shell completion**: `mrpvm completion bash` prints a", "  script. It completes commands and", "  flags, the stages and plugin ids."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("cutBlock kept\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShortProgramWhole: an example holding one short program and a
// sentence about it is shown whole, the lines that do the task with the
// ones that name it; a longer block is still cut.
func TestShortProgramWhole(t *testing.T) {
	prog := []string{"```go", "package main", "", "import (", "\t\"log\"", "\t\"os\"", "", "\t\"github.com/urfave/cli/v2\"", ")", "", "func main() {", "\tapp := &cli.App{", "\t\tFlags: []cli.Flag{", "\t\t\t&cli.StringFlag{", "\t\t\t\tName:    \"lang\",", "\t\t\t\tAliases: []string{\"l\"},", "\t\t\t\tValue:   \"english\",", "\t\t\t},", "\t\t},", "\t}", "", "\tif err := app.Run(os.Args); err != nil {", "\t\tlog.Fatal(err)", "\t}", "}", "```", "", "That flag can then be set with `--lang spanish` or `-l spanish`."}
	if got := cutBlock(prog, []string{"flag", "short", "alia"}); len(got) != len(prog) {
		t.Errorf("a %d-line program was cut to %d lines:\n%s", len(prog), len(got), strings.Join(got, "\n"))
	}
	long := append([]string{"```"}, prog[1:25]...)
	for i := 0; i < 30; i++ {
		long = append(long, fmt.Sprintf("  --option-%d  does thing %d", i, i))
	}
	long = append(long, "```")
	if got := cutBlock(long, []string{"flag", "short", "alia"}); len(got) >= len(long) {
		t.Errorf("a %d-line block was not cut", len(long))
	}
}

// TestCutBlockPrefersLinesWithMoreTaskWords: when more lines of a long
// block hold a task term than an answer shows, the lines that hold more
// of the task's terms are kept, wherever they stand.
func TestCutBlockPrefersLinesWithMoreTaskWords(t *testing.T) {
	lines := []string{"```go"}
	for i := 0; i < 50; i++ {
		lines = append(lines, fmt.Sprintf("srv.Timeout%d = %d // timeout %d", i, i, i))
	}
	lines = append(lines, "srv.ReadTimeout = 5 // read timeout", "```")
	got := strings.Join(cutBlock(lines, []string{"read", "timeout"}), "\n")
	if !strings.Contains(got, "read timeout") {
		t.Errorf("the line holding both task terms was cut:\n%s", got)
	}
	if strings.Contains(got, "timeout 0") {
		t.Errorf("a line holding one task term was kept over the one holding both:\n%s", got)
	}
}
