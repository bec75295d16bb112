package kus

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenSourceIDs gives some golden inputs the source id they are written for.
var goldenSourceIDs = map[string]string{"contextunits.md": "plugin::kb-demo"}

func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			id := goldenSourceIDs[name]
			if id == "" {
				id = "docs/" + name
			}
			doc, err := Parse(src, SourceInfo{SourceID: id, SourceName: name})
			require.NoError(t, err)
			checkInvariants(t, src, doc)
			got := dump(doc)
			golden := strings.TrimSuffix(f, ".md") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./kus -update to create golden files")
			assert.Equal(t, string(want), got)
		})
	}
}

// dump renders a document compactly for golden comparison.
func dump(doc *Document) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title: %s\ntags: %v\n", doc.Title, doc.Tags)
	for _, u := range doc.Units {
		fmt.Fprintf(&b, "\n%s\n  %s %s %s L%d:%d-L%d:%d chars %d-%d chunk %s [%d,%d]\n", u.ID, u.Level, u.KUType, u.Role,
			u.Range.StartLine, u.Range.StartCol, u.Range.EndLine, u.Range.EndCol, u.CharStart, u.CharEnd, u.ChunkID, u.ChunkIndex, u.UnitIndex)
		fmt.Fprintf(&b, "  title: %s\n  topic: %s\n", u.Title, u.Topic)
		if u.Claim != "" {
			fmt.Fprintf(&b, "  claim: %q\n", u.Claim)
		}
		if u.Procedure != "" {
			fmt.Fprintf(&b, "  procedure: %q\n", u.Procedure)
		}
		if u.TextBody != "" {
			fmt.Fprintf(&b, "  body: %q\n", u.TextBody)
		}
		if u.HasFact() {
			fmt.Fprintf(&b, "  fact: %s %s %s\n", u.SymbolicSubject, u.SymbolicRelation, u.SymbolicObject)
		}
		fmt.Fprintf(&b, "  parents: %v children: %v\n  acts: %v scopes: %v\n", u.ParentUnitIDs, u.ChildUnitIDs, u.UtilityActs, u.PhaseScopes)
	}
	for _, d := range doc.Diagnostics {
		fmt.Fprintf(&b, "\ndiag %d:%d sev=%d %s: %s", d.Line, d.Col, d.Severity, d.Code, d.Message)
	}
	b.WriteString("\n")
	return b.String()
}

// checkInvariants verifies what must hold for any input.
func checkInvariants(t testing.TB, src []byte, doc *Document) {
	t.Helper()
	if len(doc.Units) == 0 {
		t.Fatalf("no units")
	}
	if doc.Units[0].Level != LevelSummary {
		t.Fatalf("first unit is %s, want the source summary", doc.Units[0].Level)
	}
	byID := map[string]*KU{}
	lines := bytes.Count(src, []byte("\n")) + 1
	for _, u := range doc.Units {
		if byID[u.ID] != nil {
			t.Fatalf("duplicate id %s", u.ID)
		}
		byID[u.ID] = u
		if u.CharStart < 0 || u.CharEnd < u.CharStart || u.CharEnd > len(src) {
			t.Fatalf("%s: bad char range %d-%d (len %d)", u.ID, u.CharStart, u.CharEnd, len(src))
		}
		r := u.Range
		if r.StartLine < 1 || r.EndLine < r.StartLine || r.EndLine > lines || r.StartCol < 1 || r.EndCol < 1 {
			t.Fatalf("%s: bad range %+v (%d lines)", u.ID, r, lines)
		}
		if u.Hash == "" || u.SourceID == "" || u.Role == "" || len(u.PhaseScopes) == 0 {
			t.Fatalf("%s: missing hash/sourceId/role/scopes: %+v", u.ID, u)
		}
		if u.Claim != "" && u.Procedure != "" {
			t.Fatalf("%s: both claim and procedure", u.ID)
		}
		if u.Level == LevelLeaf && len(u.TextBody) > 2*LeafCap+8 {
			t.Fatalf("%s: leaf of %d bytes exceeds the cap", u.ID, len(u.TextBody))
		}
	}
	for _, u := range doc.Units {
		for _, c := range u.ChildUnitIDs {
			child := byID[c]
			if child == nil {
				t.Fatalf("%s: child %s missing", u.ID, c)
			}
			if len(child.ParentUnitIDs) == 0 || child.ParentUnitIDs[0] != u.ID {
				t.Fatalf("%s: child %s does not point back (%v)", u.ID, c, child.ParentUnitIDs)
			}
		}
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		want error
	}{
		{"invalid utf-8", []byte("# Title\n\nbad \xff\xfe bytes\n"), ErrNotUTF8},
		{"binary", []byte("\x7fELF\x00\x01\x02"), ErrBinary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.src, SourceInfo{SourceID: "x.md"})
			require.Error(t, err)
			assert.True(t, errors.Is(err, tt.want), "got %v", err)
			assert.Contains(t, err.Error(), "x.md")
		})
	}
}

func TestParseEdgeCases(t *testing.T) {
	deepList := strings.Repeat("- ", 10000) + "deep item\n"
	deepQuote := strings.Repeat(">", 10000) + " deep quote\n"
	var nestedLines strings.Builder
	for i := 0; i < 2000; i++ {
		nestedLines.WriteString(strings.Repeat("  ", i))
		nestedLines.WriteString("- level\n")
	}
	tests := []struct {
		name      string
		src       string
		wantUnits int // 0 = don't check
		wantTitle string
		wantText  string // some leaf must contain this
	}{
		{name: "empty", src: "", wantUnits: 1, wantTitle: "x.md"},
		{name: "only whitespace", src: "\n\n   \n", wantUnits: 1, wantTitle: "x.md"},
		{name: "only heading", src: "# Lonely\n", wantUnits: 2, wantTitle: "Lonely"},
		{name: "deep list", src: deepList, wantText: "deep item"},
		{name: "deep quote", src: deepQuote, wantText: "deep quote"},
		{name: "deeply indented list", src: nestedLines.String(), wantText: "level"},
		{name: "crlf", src: "# A\r\n\r\nText one.\r\n", wantUnits: 3, wantTitle: "A", wantText: "Text one."},
		{name: "unclosed front matter", src: "---\ntitle: x\nno end\n", wantText: "no end"},
		{name: "unclosed fence", src: "# T\n\n```\ncode never closed\n", wantText: "code never closed"},
		{name: "heading levels skip", src: "### Deep first\n\ntext\n\n# Top\n\nmore\n", wantTitle: "Top"},
		{name: "setext", src: "Title\n=====\n\nBody text.\n", wantTitle: "Title", wantText: "Body text."},
		{name: "html", src: "<div>\nraw html\n</div>\n", wantText: "raw html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Parse([]byte(tt.src), SourceInfo{SourceID: "x.md"})
			require.NoError(t, err)
			checkInvariants(t, []byte(tt.src), doc)
			if tt.wantUnits > 0 {
				assert.Len(t, doc.Units, tt.wantUnits)
			}
			if tt.wantTitle != "" {
				assert.Equal(t, tt.wantTitle, doc.Title)
			}
			if tt.wantText != "" {
				found := false
				for _, u := range doc.Units {
					if u.Level == LevelLeaf && strings.Contains(u.TextBody, tt.wantText) {
						found = true
					}
				}
				assert.True(t, found, "no leaf contains %q", tt.wantText)
			}
		})
	}
}

func TestLongSectionsSplitIntoLeaves(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Long\n\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "Paragraph %d talks about retrieval and ranking of knowledge units in some detail.\n\n", i)
	}
	b.WriteString(strings.Repeat("word ", 3000) + "\n") // one huge paragraph on one line
	src := []byte(b.String())
	doc, err := Parse(src, SourceInfo{SourceID: "long.md"})
	require.NoError(t, err)
	checkInvariants(t, src, doc)
	leaves := 0
	for _, u := range doc.Units {
		if u.Level == LevelLeaf {
			leaves++
			assert.LessOrEqual(t, len(u.TextBody), 2*LeafCap)
			assert.Equal(t, "long.md::0::"+fmt.Sprint(u.UnitIndex), u.ID)
		}
	}
	assert.GreaterOrEqual(t, leaves, 4, "a long section must become several leaves")
	// Paragraphs are grouped, never one KU per paragraph.
	assert.Less(t, leaves, 30)
}

func TestIDsStableAndHashesTrackContent(t *testing.T) {
	src := []byte("# A\n\nOne.\n\n# B\n\nTwo.\n")
	d1, err := Parse(src, SourceInfo{SourceID: "s.md"})
	require.NoError(t, err)
	d2, err := Parse(src, SourceInfo{SourceID: "s.md", IngestedAt: time.Unix(5, 0)})
	require.NoError(t, err)
	require.Equal(t, len(d1.Units), len(d2.Units))
	for i := range d1.Units {
		assert.Equal(t, d1.Units[i].ID, d2.Units[i].ID)
		assert.Equal(t, d1.Units[i].Hash, d2.Units[i].Hash, "the hash ignores ingestion time")
	}
	d3, err := Parse([]byte("# A\n\nOne changed.\n\n# B\n\nTwo.\n"), SourceInfo{SourceID: "s.md"})
	require.NoError(t, err)
	assert.NotEqual(t, d1.Units[2].Hash, d3.Units[2].Hash)
	assert.Equal(t, d1.Units[4].Hash, d3.Units[4].Hash, "an unchanged leaf keeps its hash")
}

func TestRangesPointAtText(t *testing.T) {
	src := []byte("# Head\n\nalpha beta\n\n## Sub\n\n- gamma\n- delta\n")
	doc, err := Parse(src, SourceInfo{SourceID: "r.md"})
	require.NoError(t, err)
	lines := strings.Split(string(src), "\n")
	for _, u := range doc.Units {
		if u.Level != LevelLeaf {
			continue
		}
		first := lines[u.Range.StartLine-1][u.Range.StartCol-1:]
		assert.True(t, strings.HasPrefix(first, "alpha") || strings.HasPrefix(first, "- gamma"), "%s starts at %q", u.ID, first)
		assert.Equal(t, string(src[u.CharStart:u.CharEnd]), sliceByRange(lines, u.Range))
	}
}

func sliceByRange(lines []string, r Range) string {
	if r.StartLine == r.EndLine {
		return lines[r.StartLine-1][r.StartCol-1 : r.EndCol-1]
	}
	out := []string{lines[r.StartLine-1][r.StartCol-1:]}
	for l := r.StartLine; l < r.EndLine-1; l++ {
		out = append(out, lines[l])
	}
	out = append(out, lines[r.EndLine-1][:r.EndCol-1])
	return strings.Join(out, "\n")
}

func TestHugeFileIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB parse skipped in -short mode")
	}
	var b bytes.Buffer
	for i := 0; b.Len() < 50<<20; i++ {
		if i%50 == 0 {
			fmt.Fprintf(&b, "## Section %d\n\n", i)
		}
		b.WriteString("A sentence of filler text about knowledge units, retrieval and editors. It repeats.\n\n")
	}
	doc, err := Parse(b.Bytes(), SourceInfo{SourceID: "big.md"})
	require.NoError(t, err)
	assert.Greater(t, len(doc.Units), 10000)
}

// FuzzParse checks that no input crashes the reader or breaks the
// hierarchy's invariants.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/golden/*.md")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("> - > 1. ```\n> x\n"))
	f.Add([]byte("## Context Unit a\nSourceId: b\nChunkId:\n"))
	f.Add([]byte("---\ntitle: t\n---\n| a |\n| - |\n| b |\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src, SourceInfo{SourceID: "f.md"})
		if err != nil {
			if !errors.Is(err, ErrNotUTF8) && !errors.Is(err, ErrBinary) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		checkInvariants(t, src, doc)
	})
}
