package gssymbolic

import "testing"

const unitBlocksMD = `# Units

## Writing units

A plugin file writes units by hand. Each Context Unit block starts with a heading followed by field lines. Symbolic facts use subject lines.

## Splitting

Pieces of a long Context Unit block are read one by one.

## Reading

The reader keeps every Context Unit block it finds.
`

// TestBestSentenceWithItsParagraphsOpening: a sentence a little way into
// its paragraph is shown after the sentence that opens the paragraph,
// which says what it is about, in place of a statement from elsewhere.
func TestBestSentenceWithItsParagraphsOpening(t *testing.T) {
	src := parseMD(t, "units.md", unitBlocksMD)
	md := solveMD(t, "define", "What is a Context Unit block?", "Context Unit block", []mdSource{src},
		src.leaf(t, "Writing units"), src.leaf(t, "Splitting"), src.leaf(t, "Reading"))
	checkMD(t, md, []string{"A plugin file writes units by hand. Each Context Unit block starts"}, []string{"keeps every"})
}
