package gssymbolic

import "testing"

// TestSummaryItemOverExampleThatBorrowsItsWords: a list item before a
// page's first example that holds the task by itself ("`--run -` writes it
// to standard output") answers it; the example after it (a line ending in
// ':' and its table) holds only the summary's words, not the task.
func TestSummaryItemOverExampleThatBorrowsItsWords(t *testing.T) {
	src := parseMD(t, "README.md", "# tool\n\n## Searching: tool search\n\n"+
		"- `--run FILE` writes a TREC run, `qid Q0 docid rank score tag`, where `docid`\n"+
		"  is the file's path (`--run -` writes it to standard output; `--tag` sets the tag).\n"+
		"- `--qrels FILE` prints nDCG@10 over the judged queries.\n\n"+
		"A corpus of abstracts, measured end to end with `tool search --queries ... --qrels ...`:\n\n"+
		"| plugin | nDCG@10 |\n| --- | --- |\n| fast | 0.70 |\n| slow | 0.71 |\n")
	md := solveMD(t, "implement", "How do I have tool search write a TREC run to standard output?",
		"have tool search write a TREC run to standard output", []mdSource{src}, src.leaf(t, "Searching: tool search"))
	checkMD(t, md, []string{"--run -"}, []string{"| fast | 0.70 |"})
}
