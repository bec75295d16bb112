package gssymbolic

import (
	"strings"
	"testing"
)

const searchMD = "# Tool\n\n## Searching and measuring retrieval: `tool search`\n\n" +
	"`search` ranks the knowledge base with one retrieval strategy, without the rest of the loop.\n\n" +
	"```sh\ntool search \"How does chlorophyll absorb light?\"\ntool search --k 5 \"borrow checker\"\n```\n\n" +
	"```\n 1  1.0578  notes/rust-ownership.md:3  Rust ownership\n```\n\n" +
	"Each line is rank, score, `file:line` of the unit and its title.\n\n" +
	"**Batches and evaluation.** `--queries` reads BEIR queries (one JSON object per line) and ranks sources for each.\n\n" +
	"```sh\ntool search --queries queries.jsonl --run fast.trec --k 100\ntool search --queries queries.jsonl --qrels qrels.tsv\n```\n"

// TestProseCodeIsAnExample: in prose documentation the paragraph right
// above a code block says what it does, colon or not; a section showing
// several blocks answers a task with the block whose paragraph matches,
// after the section's opening sentence.
func TestProseCodeIsAnExample(t *testing.T) {
	src := parseMD(t, "README.md", searchMD)
	md := solveMD(t, "implement", "How do I evaluate retrieval on BEIR queries?", "evaluate retrieval on BEIR queries", []mdSource{src},
		src.leaf(t, "Searching and measuring retrieval: tool search"))
	checkMD(t, md, []string{"- **Batches and evaluation.** `--queries` reads BEIR queries (one JSON object per line) and ranks sources for each.\n\n  ```sh\n  tool search --queries queries.jsonl --run fast.trec --k 100\n",
		"[1]: `search` ranks the knowledge base"}, []string{"chlorophyll", "rust-ownership"})
}

const listFirstMD = "# Tool\n\n## Batch output\n\n" +
	"- `--run FILE` writes a TREC run, `qid Q0 docid rank score tag` (`--run -` writes it to standard output; `--tag` sets the tag).\n" +
	"- `--qrels FILE` prints nDCG@10 and MRR@10 over the judged queries.\n\n" +
	"Figures measured end to end with `tool search --queries ... --qrels ...`:\n\n" +
	"| plugin | nDCG@10 |\n| --- | --- |\n| fast | 0.70 |\n"

// TestListIsNoLead: a unit that opens with a list has no summary sentence
// to lead the answer with; a list item's first clause is not one.
func TestListIsNoLead(t *testing.T) {
	src := parseMD(t, "README.md", listFirstMD)
	md := solveMD(t, "implement", "How do I measure nDCG of the judged queries?", "measure nDCG of the judged queries", []mdSource{src}, src.leaf(t, "Batch output"))
	if first, _, _ := strings.Cut(md, "\n"); strings.Contains(first, "--run FILE") || strings.Contains(first, "]: -") {
		t.Errorf("the answer leads with a list item:\n%s", md)
	}
}

const redirectMD = "# Gin\n\n### Redirects\n\nIssuing a HTTP redirect is easy. Both internal and external locations are supported.\n\n" +
	"```go\nr.GET(\"/test\", func(c *gin.Context) {\n  c.Redirect(http.StatusMovedPermanently, \"http://www.google.com/\")\n})\n```\n\n" +
	"Issuing a HTTP redirect from POST. Refer to issue: #444\n\n" +
	"```go\nr.POST(\"/test\", func(c *gin.Context) {\n  c.Redirect(http.StatusFound, \"/foo\")\n})\n```\n\n" +
	"Issuing a Router redirect, use `HandleContext` like below.\n\n" +
	"```go\nr.GET(\"/test\", func(c *gin.Context) {\n    c.Request.URL.Path = \"/test2\"\n    r.HandleContext(c)\n})\n```\n"

// TestUndescribedCodeFollowsTheLead: the code a section shows right
// after its opening sentence is shown after that sentence, before the
// examples described by their own paragraphs, not between them.
func TestUndescribedCodeFollowsTheLead(t *testing.T) {
	src := parseMD(t, "gin/docs/doc.md", redirectMD)
	md := solveMD(t, "implement", "How do I redirect a request in gin?", "redirect a request in gin", []mdSource{src}, src.leaf(t, "Redirects"))
	lead, post := strings.Index(md, "StatusMovedPermanently"), strings.Index(md, "- Issuing a HTTP redirect from POST")
	if lead < 0 || post < 0 || lead > post {
		t.Errorf("the section's own code does not follow its opening sentence:\n%s", md)
	}
}

// TestFAQAnswerAndNestedLinks: a FAQ's answer is quoted without its "A:"
// label, and a link whose target holds parentheses leaves only its text.
func TestFAQAnswerAndNestedLinks(t *testing.T) {
	src := parseMD(t, "viper/README.md", "# Viper\n\n## FAQ\n\n### Why is it called “Viper”?\n\nA: Viper is designed to be a [companion](http://en.wikipedia.org/wiki/Viper_(G.I._Joe))\nto [Cobra](https://github.com/spf13/cobra). Together they make a powerful pair.\n")
	md := solveMD(t, "explain", "Why is it called Viper?", "it called Viper", []mdSource{src}, src.leaf(t, "Why is it called “Viper”?"))
	checkMD(t, md, []string{"Viper is designed to be a companion to Cobra."}, []string{"A: ", "Joe", ") to"})
}

// TestClauseQuotedAlone: a clause after a ";" quoted without the clause
// before it is marked as the rest of a sentence; quoted with it, it reads
// on.
func TestClauseQuotedAlone(t *testing.T) {
	src := parseMD(t, "docs/troubleshooting.md", "# Troubleshooting\n\n## A file is skipped\n\nA symlink whose target lies outside the workspace is never followed.\nA file or folder whose name is not valid UTF-8 is skipped with\n`file_name_not_utf8`; the message quotes the raw name so you can find and rename it.\n")
	md := solveMD(t, "describe", "What does the message quote?", "message quote raw rename", []mdSource{src}, src.leaf(t, "A file is skipped"))
	checkMD(t, md, []string{"… the message quotes the raw name"}, nil)
	md = solveMD(t, "describe", "Which file name is skipped, and what does the message quote?", "file name not valid UTF-8 skipped message quote raw name", []mdSource{src}, src.leaf(t, "A file is skipped"))
	checkMD(t, md, []string{"`file_name_not_utf8`; the message quotes the raw name"}, []string{"…"})
}
