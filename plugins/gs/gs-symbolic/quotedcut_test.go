package gssymbolic

import (
	"slices"
	"strings"
	"testing"
)

// TestCutKeepsQuotedLines: a long program cut to the task's words keeps
// the line the prose over it quotes ("setting the `Required` field to
// `true`"), though that line holds no word of the task.
func TestCutKeepsQuotedLines(t *testing.T) {
	lines := []string{"```go", "func main() {", "\tapp := &cli.App{", "\t\tFlags: []cli.Flag{", "\t\t\t&cli.StringFlag{",
		"\t\t\t\tName:     \"lang\",", "\t\t\t\tRequired: true,", "\t\t\t},", "\t\t},"}
	for i := 0; i < maxProgramLines; i++ {
		lines = append(lines, "\t\tfmt.Println(output)")
	}
	lines = append(lines, "\t}", "}", "```")
	want := []string{"mandatori", "flag"}
	quoted := quotedTerms("You can make a flag required by setting the `Required` field to `true`.")
	if !slices.Contains(quoted, "requir") || !slices.Contains(quoted, "true") {
		t.Fatalf("quotedTerms = %v", quoted)
	}
	if got := strings.Join(cutHow(lines, want, quoted), "\n"); !strings.Contains(got, "Required: true,") {
		t.Errorf("the quoted line was cut:\n%s", got)
	}
	if got := strings.Join(cutBlock(lines, want), "\n"); strings.Contains(got, "Required: true,") {
		t.Errorf("with nothing quoted the line holds no task word and is cut:\n%s", got)
	}
}

// TestShortRowKeepsFirstSentence: a long cell cut to what bears on the
// question keeps its first sentence, which says what the row's key is,
// before the later sentence that shares a word with the question.
func TestShortRowKeepsFirstSentence(t *testing.T) {
	row := "| `hoverPlugin` | kb-plugin id | `\"kb-fast\"` | the kb-plugin that ranks for hover and workspace symbols (a corrupt index is rebuilt and the search retried, as for `mrpvm search`). " +
		"When it is not loaded (disabled in `plugins.json` or the editor's `mrpvm.plugins` setting), the first loaded kb-plugin of `defaultOrder.kb` ranks instead. " +
		"It is read once when the server starts. |"
	got := shortRow(row, []string{"hoverplugin", "engin", "json"})
	if !strings.Contains(got, "ranks for hover") {
		t.Errorf("the cell lost its first sentence: %s", got)
	}
	if !strings.Contains(got, "not loaded") || strings.Contains(got, "read once") {
		t.Errorf("the cell should keep the one later sentence that bears on the question: %s", got)
	}
}
