package gssymbolic

import (
	"testing"
)

// TestComparisonRowEndsItsSentence: a row whose statement stops at a ";"
// goes on with the clauses of its sentence ("it is not damaged, so do not
// rebuild it"), joined as written.
func TestComparisonRowEndsItsSentence(t *testing.T) {
	src := parseMD(t, "docs/troubleshooting.md", "# Troubleshooting\n\n"+
		"## The knowledge base file is damaged\n\nA damaged or truncated file is reported with the code `kb_corrupt`. Run the rebuild.\n\n"+
		"## The knowledge base file is read-only\n\nA knowledge base file you cannot write is reported with the code\n`kb_read_only`; it is not damaged, so do not rebuild it. Make it writable.\n")
	md := solveMD(t, "compare", "What's the difference between kb_corrupt and kb_read_only?", "the difference between kb_corrupt and kb_read_only",
		[]mdSource{src}, src.leaf(t, "The knowledge base file is damaged"), src.leaf(t, "The knowledge base file is read-only"))
	checkMD(t, md, []string{"reported with the code `kb_read_only`; it is not damaged, so do not rebuild it."}, []string{"; … it is"})
}

// TestQuotedWholeItem: a list item quoted on a line of its own keeps the
// lines it wraps over, which its first line alone would cut mid-sentence.
func TestQuotedWholeItem(t *testing.T) {
	s := statement{kind: kindItem, md: []string{"- A damaged file fails with `kb_corrupt`; `mrpvm ingest", "  --rebuild` moves it aside and rebuilds. Reading it is `kb_corrupt` too. Never a crash."}}
	if got, want := quotedWhole(s), "- A damaged file fails with `kb_corrupt`; `mrpvm ingest --rebuild` moves it aside and rebuilds."; got != want {
		t.Fatalf("quotedWhole = %q, want %q", got, want)
	}
	s = statement{kind: kindSentence, md: []string{"A sentence stays as written."}}
	if got := quotedWhole(s); got != s.md[0] {
		t.Fatalf("quotedWhole = %q, want %q", got, s.md[0])
	}
}
