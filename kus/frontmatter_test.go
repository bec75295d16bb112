package kus

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
