package gssymbolic

import "testing"

// TestSummaryItemOverExampleThatBorrowsItsWords: a list item before a
// page's first example that holds the task by itself ("`--run -` writes it
// to standard output") answers it; the example after it (a line ending in
// ':' and its table) holds only the summary's words, not the task.
func TestSummaryItemOverExampleThatBorrowsItsWords(t *testing.T) {
	src := parseMD(t, "README.md", testdataMD(t, "tool-search-run.md"))
	md := solveMD(t, "implement", "How do I have tool search write a TREC run to standard output?",
		"have tool search write a TREC run to standard output", []mdSource{src}, src.leaf(t, "Searching: tool search"))
	checkMD(t, md, []string{"--run -"}, []string{"| fast | 0.70 |"})
}
