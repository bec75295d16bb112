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

// TestFrontMatterValues checks what a real YAML or TOML parser reads where
// a line-by-line reader went wrong, and that the body keeps its offsets.
func TestFrontMatterValues(t *testing.T) {
	cases := []struct {
		name, src string
		title     string
		tags      []string
		codes     []string
	}{
		{"doubled quote", "---\ntitle: 'It''s'\n---\nBody.\n", "It's", nil, nil},
		{"comma in a quoted tag", "---\ntags: [a, \"b, c\"]\n---\nBody.\n", "", []string{"a", "b, c"}, nil},
		{"folded title", "---\ntitle: >-\n  Folded\n  title\n---\nBody.\n", "Folded title", nil, nil},
		{"literal title", "---\ntitle: |\n  One\n---\nBody.\n", "One", nil, nil},
		{"tags as a string", "---\ntags: x, y\n---\nBody.\n", "", []string{"x", "y"}, nil},
		{"number title", "---\ntitle: 2024\n---\nBody.\n", "2024", nil, nil},
		{"toml", "+++\ntitle = \"T\"\ntags = [\"a\", \"b\"]\n+++\nBody.\n", "T", []string{"a", "b"}, nil},
		{"toml dots do not close", "+++\ntitle = \"T\"\n...\n", "", nil, nil},
		{"bom and crlf", "\ufeff---\r\ntitle: B\r\n---\r\nBody.\r\n", "B", nil, nil},
		{"yaml list is not a mapping", "---\n- a\n- b\n---\nBody.\n", "", nil, []string{"2:" + CodeFrontMatterInvalid}},
		{"bad toml", "+++\ntitle = \n+++\nBody.\n", "", nil, []string{"2:" + CodeFrontMatterInvalid}},
		{"bad yaml line", "---\na: 1\nb: 2\nmore: : x\n---\nBody.\n", "", nil, []string{"4:" + CodeFrontMatterInvalid}},
		{"empty", "---\n---\nBody.\n", "", nil, nil},
		{"not at the start", "\n---\ntitle: x\n---\n", "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &reader{src: []byte(c.src), doc: &Document{}}
			title, tags, body := r.readFrontMatter()
			assert.Equal(t, c.title, title)
			assert.Equal(t, c.tags, tags)
			var codes []string
			for _, d := range r.doc.Diagnostics {
				codes = append(codes, fmt.Sprintf("%d:%s", d.Line, d.Code))
				assert.Equal(t, SeverityWarning, d.Severity)
			}
			assert.Equal(t, c.codes, codes)
			if i := strings.Index(c.src, "Body."); i >= 0 && body > 0 {
				assert.LessOrEqual(t, body, i, "the body starts after the block")
				assert.Equal(t, 0, strings.Count(c.src[body:i], "\n"), "the body starts on the line after the block")
			}
		})
	}
}

// TestFrontMatterHuge reads 20 MB files: an opening line with no closing
// one, a 20 MB block (reported, not parsed) and a small block before a
// 20 MB body (the scan stops at the block's end).
func TestFrontMatterHuge(t *testing.T) {
	const size = 20 << 20
	filler := bytes.Repeat([]byte("key: value\n"), size/11)

	r := &reader{src: append([]byte("---\n"), filler...), doc: &Document{}}
	_, _, body := r.readFrontMatter()
	assert.Zero(t, body, "no closing line: not front matter")
	assert.Empty(t, r.doc.Diagnostics)

	src := append(append([]byte("---\n"), filler...), "---\nBody.\n"...)
	r = &reader{src: src, doc: &Document{}}
	title, _, body := r.readFrontMatter()
	assert.Empty(t, title)
	assert.Equal(t, len(src)-len("Body.\n"), body)
	require.Len(t, r.doc.Diagnostics, 1)
	assert.Equal(t, CodeFrontMatterTooLarge, r.doc.Diagnostics[0].Code)

	src = append([]byte("---\ntitle: Big\n---\n"), bytes.Repeat([]byte("Some body text.\n"), size/16)...)
	r = &reader{src: src, doc: &Document{}}
	title, _, body = r.readFrontMatter()
	assert.Equal(t, "Big", title)
	assert.Equal(t, len("---\ntitle: Big\n---\n"), body)
}

// TestUnitsCoverTheirMarkup checks that a leaf opening (or closing) with a
// block's markup covers that markup: its byte range, and so its line range
// and raw text, starts at a fence, an indentation, a marker or a pipe and
// ends after a closing fence, a closing pipe, closing #s or an underline.
func TestUnitsCoverTheirMarkup(t *testing.T) {
	cases := []struct {
		name, body string
		text       string // the leaf's text body, markup left out
		last       bool   // body ends the file (an unclosed fence runs to the end)
	}{
		{"fenced code with info string", "```go\nfunc main() {}\n```", "func main() {}", false},
		{"fenced code without info string", "```\nmake build\n```", "make build", false},
		{"tilde fence closed by a longer fence", "~~~~sh\nls -l\n~~~~~~", "ls -l", false},
		{"unclosed fence", "```sh\nls -l", "ls -l", true},
		{"fenced code then prose", "```go\nx := 1\n```\n\nThat sets x.", "x := 1\n\nThat sets x.", false},
		{"prose then fenced code", "Set x:\n\n```go\nx := 1\n```", "Set x:\n\nx := 1", false},
		{"indented code", "    go build ./...\n    go test ./...", "go build ./...\ngo test ./...", false},
		{"table", "| flag | meaning |\n| --- | --- |\n| -v | verbose |", "flag | meaning\n-v | verbose", false},
		{"block quote", "> Note: keep it.\n> Always.", "Note: keep it. Always.", false},
		{"block quote opening with an empty line", ">\n> Note: keep it.", "Note: keep it.", false},
		{"bullet list", "- one\n- two", "- one\n- two", false},
		{"ordered list", "1. one\n2. two", "1. one\n2. two", false},
		{"list item opening with a blank line", "-\n  late item", "- late item", false},
		{"list item opening with code", "- ```sh\n  ls\n  ```\n- two", "- \nls\n- two", false},
		{"quoted code", "> ```\n> q\n> ```", "q", false},
		{"HTML block", "<div>\nhtml\n</div>", "<div>\nhtml\n</div>", false},
		{"HTML comment closed on a later line", "<!--\nhidden\n-->", "<!--\nhidden", false},
		{"ATX heading with closing #s in a quote", "> ## Note ##\n> text", "Note\ntext", false},
		{"setext heading in a list item", "- Title\n  -----", "- Title", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "# S\n\n" + c.body + "\n"
			if !c.last {
				src += "\n# After\n\nmore\n"
			}
			doc, err := Parse([]byte(src), SourceInfo{SourceID: "m.md"})
			require.NoError(t, err)
			checkInvariants(t, []byte(src), doc)
			leaf := leafUnder(t, doc, "S")
			assert.Equal(t, c.body, src[leaf.CharStart:leaf.CharEnd], "raw text")
			assert.Equal(t, c.text, leaf.TextBody, "text body")
			lines := strings.Count(c.body, "\n")
			last := c.body[strings.LastIndexByte(c.body, '\n')+1:]
			assert.Equal(t, Range{StartLine: 3, StartCol: 1, EndLine: 3 + lines, EndCol: len(last) + 1}, leaf.Range)
		})
	}
}

// leafUnder returns the one leaf of the section titled title.
func leafUnder(t *testing.T, doc *Document, title string) *KU {
	t.Helper()
	var found *KU
	for _, u := range doc.Units {
		if u.Level == LevelLeaf && u.Title == title {
			require.Nil(t, found, "more than one leaf under %q", title)
			found = u
		}
	}
	require.NotNil(t, found, "no leaf under %q", title)
	return found
}

// TestFoldedHeadingsKeepTheirMarkup checks the headings a file with more
// than SectionCap headings keeps as leaf text: a leaf opening with an ATX
// heading starts at its #s, one ending with a setext heading ends after the
// underline.
func TestFoldedHeadingsKeepTheirMarkup(t *testing.T) {
	body := "## Note ##\n\ntext\n\nSub\n---"
	src := "# S\n\n" + body + "\n\n" + strings.Repeat("# A heading that fills its own line\n", SectionCap-1)
	doc, err := Parse([]byte(src), SourceInfo{SourceID: "m.md"})
	require.NoError(t, err)
	leaf := doc.Units[2]
	require.Equal(t, "S", leaf.Title)
	require.Equal(t, LevelLeaf, leaf.Level)
	assert.Equal(t, body, src[leaf.CharStart:leaf.CharEnd])
	assert.Equal(t, Range{StartLine: 3, StartCol: 1, EndLine: 8, EndCol: 4}, leaf.Range)
}

// TestSplitCodeBlockKeepsItsFences checks a fenced block too long for one
// leaf: its first piece starts at the opening fence, its last ends after
// the closing fence.
func TestSplitCodeBlockKeepsItsFences(t *testing.T) {
	code := strings.Repeat("fmt.Println(\"a line of example code\")\n", 2*LeafCap/38)
	src := "# S\n\n```go\n" + code + "```\n\n# After\n\nmore\n"
	doc, err := Parse([]byte(src), SourceInfo{SourceID: "m.md"})
	require.NoError(t, err)
	var leaves []*KU
	for _, u := range doc.Units {
		if u.Level == LevelLeaf && u.Title == "S" {
			leaves = append(leaves, u)
		}
	}
	require.Greater(t, len(leaves), 1, "the block is split")
	first, last := leaves[0], leaves[len(leaves)-1]
	assert.True(t, strings.HasPrefix(src[first.CharStart:first.CharEnd], "```go\nfmt.Println"), "%q", src[first.CharStart:first.CharEnd])
	assert.True(t, strings.HasSuffix(src[last.CharStart:last.CharEnd], "code\")\n```"), "%q", src[last.CharStart:last.CharEnd])
	assert.Equal(t, 3, first.Range.StartLine)
	assert.Equal(t, 4+strings.Count(code, "\n"), last.Range.EndLine)
}

// TestSplitIndentedCodeKeepsItsIndentation checks an indented code block
// too long for one leaf: every piece covers its lines from their start, so
// each reads as indented code.
func TestSplitIndentedCodeKeepsItsIndentation(t *testing.T) {
	code := strings.Repeat("    fmt.Println(\"a line of example code\")\n", 2*LeafCap/38)
	src := "# S\n\n" + code + "\n# After\n\nmore\n"
	doc, err := Parse([]byte(src), SourceInfo{SourceID: "m.md"})
	require.NoError(t, err)
	n := 0
	for _, u := range doc.Units {
		if u.Level == LevelLeaf && u.Title == "S" {
			n++
			raw := src[u.CharStart:u.CharEnd]
			assert.True(t, strings.HasPrefix(raw, "    fmt.Println("), "%s starts %q", u.ID, raw[:min(len(raw), 20)])
			assert.True(t, strings.HasSuffix(raw, "code\")"), "%s ends %q", u.ID, raw[max(0, len(raw)-20):])
			assert.Equal(t, 1, u.Range.StartCol)
		}
	}
	require.Greater(t, n, 1, "the block is split")
}
