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

const storageMD = `# Storage

## How it is stored

One bbolt database per workspace holds the buckets meta, sources, kus and plugins, each with the records its readers need, kept in step by every ingest and every session of the editor. Each source is committed in one write transaction, so a killed process halfway through writing never leaves half a file.

## Robustness

A server killed halfway through writing an ingest leaves a consistent knowledge base.

## Recovery

After a process is killed halfway through writing, the next run finishes the ingest.
`

// TestLongOpeningIsNotATopicSentence: a long opening sentence says things
// of its own; it does not take the place of a statement from another unit.
func TestLongOpeningIsNotATopicSentence(t *testing.T) {
	src := parseMD(t, "storage.md", storageMD)
	md := solveMD(t, "describe", "What if the process gets killed halfway through writing?", "What if the process gets killed halfway through writing", []mdSource{src},
		src.leaf(t, "How it is stored"), src.leaf(t, "Robustness"), src.leaf(t, "Recovery"))
	checkMD(t, md, []string{"never leaves half a file", "consistent knowledge base", "finishes the ingest"}, []string{"holds the buckets"})
}
