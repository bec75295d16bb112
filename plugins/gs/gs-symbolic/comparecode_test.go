package gssymbolic

import (
	"strings"
	"testing"
)

// TestComparisonTableKeepsCodeOutOfCells: a comparison answered as a table
// of statements shows a code block after the table, fenced as written,
// never flattened into a cell; a paragraph that only names a func in
// prose stays prose.
func TestComparisonTableKeepsCodeOutOfCells(t *testing.T) {
	src := parseMD(t, "cli/docs/help.md", "# Help text\n\n## Customization\n\n"+
		"Help output can be changed by assigning a compatible func to a variable.\n\n"+
		"```go\nfunc main() {\n\t// reassign AppHelpTemplate, or replace HelpPrinter\n\tcli.AppHelpTemplate = \"custom\"\n\tcli.HelpPrinter = func(w io.Writer, templ string, data interface{}) {}\n}\n```\n")
	md := solveMD(t, "compare", "What is the difference between reassigning AppHelpTemplate and replacing cli.HelpPrinter?",
		"the difference between reassigning AppHelpTemplate and replacing cli.HelpPrinter", []mdSource{src},
		src.leaf(t, "Customization"))
	checkMD(t, md, []string{"| source | statement |", "| Customization [1] | Help output can be changed", "\n```go\nfunc main() {\n\t// reassign AppHelpTemplate"}, nil)
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "|") && strings.Contains(l, "```") {
			t.Fatalf("a code block stands in a table cell:\n%s", md)
		}
	}
}
