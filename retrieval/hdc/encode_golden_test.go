package hdc

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// update rewrites testdata/encode.golden from the current encoder:
// go test ./retrieval/hdc -run EncodeUnitsGolden -update. Review
// the diff before committing: every stored vector of a knowledge base
// depends on the encoding, so a change needs a new index version.
var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current encoder")

// goldenDocs parses the fixed input texts of testdata/encode: technical
// text with context units that have claims and procedures.
func goldenDocs(t *testing.T) []*kus.Document {
	return kvtest.GoldenDocs(t, filepath.Join("testdata", "encode"))
}

// encodingLines renders the encoding of one source: a line with the
// SHA-256 of its stored record, then one line a unit with its role, acts
// and the SHA-256 of its topic and content vectors (every bit counts).
func encodingLines(source string, units []Unit, record []byte) []string {
	lines := []string{fmt.Sprintf("source %s record %x", source, sha256.Sum256(record))}
	for _, u := range units {
		lines = append(lines, fmt.Sprintf("  unit %s role %d acts %d topic %x content %x",
			u.ID, u.Role, u.Acts, sha256.Sum256(vectorBytes(&u.Topic)), sha256.Sum256(vectorBytes(&u.Content))))
	}
	return lines
}

func vectorBytes(v *Vector) []byte {
	b := make([]byte, 0, len(v)*8)
	for _, w := range v {
		b = fmt.Appendf(b, "%016x", w)
	}
	return b
}

// TestEncodeUnitsGolden pins the encoding bit for bit: the encoder's
// optimisations (shared analyses, vectors generated inside the bundling
// loop, carry-save counters) must not change a single bit of what the
// golden file records.
func TestEncodeUnitsGolden(t *testing.T) {
	e := DefaultParams().Encoder
	var lines []string
	units, multi := 0, 0
	for _, d := range goldenDocs(t) {
		// Half of the sources with their texts analysed by BM25 first (as
		// at ingest), half without.
		if len(d.Units)%2 == 0 {
			analyseLikeBM25(d.Units)
		}
		got := e.EncodeUnits(d.Units)
		// The stored record, encoded in pooled memory that held the
		// previous source's units, is the record of the units.
		record := e.record(d.Units)
		require.Equal(t, encodeUnits(got), record, d.Source.SourceID)
		lines = append(lines, encodingLines(d.Source.SourceID, got, record)...)
		for _, u := range d.Units {
			n := 0
			for _, s := range []string{u.Claim, u.Procedure, u.TextBody} {
				if s != "" {
					n++
				}
			}
			if n > 1 {
				multi++
			}
		}
		units += len(got)
	}
	t.Logf("%d units (%d with several content parts)", units, multi)
	require.Positive(t, multi, "the texts exercise joined content")

	kvtest.RequireGolden(t, filepath.Join("testdata", "encode.golden"), lines, *update)
}

// refTerms returns the terms of s, without the parts of compound words.
func refTerms(a *text.Analyzer, s string) []string {
	var terms []string
	a.Each(s, func(t text.Token) {
		if !t.Part {
			terms = append(terms, t.Term)
		}
	})
	return terms
}

// repoDocs parses the Markdown files of this repository: real technical
// text, with context units that have claims and procedures.
func repoDocs(t *testing.T) []*kus.Document {
	t.Helper()
	var docs []*kus.Document
	for _, f := range kvtest.RepoMarkdown(t) {
		if f.Doc != nil {
			docs = append(docs, f.Doc)
		}
	}
	require.NotEmpty(t, docs)
	sort.Slice(docs, func(i, j int) bool { return docs[i].Source.SourceID < docs[j].Source.SourceID })
	return docs
}

// TestTermsOfJoinedParts checks what the content encoding relies on: the
// terms of texts joined by a newline are the texts' terms one after the
// other, whatever the texts end and start with.
func TestTermsOfJoinedParts(t *testing.T) {
	a := text.English()
	edges := []string{"", "x", "kb-", "-", "--", "--flag", "-v", "[e]dit", "e[x]", "[x", "x]", "]", "1,", "000",
		"1.", ".5", "it'", "'s", "’s", "TNF-α", "α", "κB", "x86-64", "snake_", "_case", "東京", "ไทย", "é", "\u0301",
		"word.", "(", "\"", "=", "https://x.y/z", "3.14", "1,000", "v1.2.3"}
	texts := edges
	for _, d := range repoDocs(t) {
		for _, u := range d.Units {
			texts = append(texts, u.Claim, u.Procedure, u.TextBody)
		}
	}
	for i, x := range texts {
		for j, y := range texts {
			if i >= len(edges) && j >= len(edges) && (i+j)%97 != 0 {
				continue // every edge pair, a sample of the real pairs
			}
			if x == "" || y == "" {
				continue
			}
			want := refTerms(a, x+"\n"+y)
			got := append(append([]string(nil), refTerms(a, x)...), refTerms(a, y)...)
			require.Equal(t, want, got, "%q + %q", x, y)
		}
	}
}

// TestRecordConcurrent encodes sources from several goroutines at once
// (as the ingest's parse workers do): the pooled scratch space is never
// shared.
func TestRecordConcurrent(t *testing.T) {
	e := DefaultParams().Encoder
	docs := repoDocs(t)
	kvtest.RequireSameConcurrently(t, len(docs), func(i int) []byte { return e.record(docs[i].Units) })
}
