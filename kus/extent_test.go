package kus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
