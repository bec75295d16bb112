package lsp

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"go.lsp.dev/protocol"
)

// termKind says where a hovered term came from.
type termKind int

const (
	termWord    termKind = iota
	termLink             // a relative Markdown link target
	termWiki             // [[wiki link]]
	termHeading          // the text of the heading under the cursor
)

// term is what the cursor points at.
type term struct {
	kind termKind
	text string // the word, link target, wiki name or heading text
	wide string // the whitespace-delimited token (KU ids contain "::", "/", ".")
	rng  protocol.Range
}

var (
	mdLinkRe   = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	wikiLinkRe = regexp.MustCompile(`\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]`)
	headingRe  = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$`)
)

// termUnder decodes the params of a request at a position and finds the
// term there and the folder holding the document; f is nil when there is
// nothing to answer (the document cannot be read, holds no term at the
// position, or lies in no folder).
func (s *Server) termUnder(raw json.RawMessage) (p textDocumentPositionParams, t term, path string, f *folder, err error) {
	p, text, readable, err := s.positionText(raw)
	if err != nil || !readable {
		return p, t, "", nil, err
	}
	t, ok := termAt(text, offsetOf(text, p.Position))
	if !ok {
		return p, t, "", nil, nil
	}
	path = uriToPath(p.TextDocument.URI)
	return p, t, path, s.folderFor(path), nil
}

// termAt finds the term under a byte offset of text.
func termAt(text string, off int) (term, bool) {
	ls := strings.LastIndexByte(text[:off], '\n') + 1
	le := strings.IndexByte(text[off:], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += off
	}
	line := text[ls:le]
	col := off - ls
	rangeOf := func(a, b int) protocol.Range {
		return protocol.Range{Start: positionOf(text, ls+a), End: positionOf(text, ls+b)}
	}
	for _, m := range wikiLinkRe.FindAllStringSubmatchIndex(line, -1) {
		if col >= m[0] && col < m[1] {
			return term{kind: termWiki, text: strings.TrimSpace(line[m[2]:m[3]]), rng: rangeOf(m[0], m[1])}, true
		}
	}
	for _, m := range mdLinkRe.FindAllStringSubmatchIndex(line, -1) {
		if col >= m[0] && col < m[1] {
			target := line[m[2]:m[3]]
			if isRelativeLink(target) {
				return term{kind: termLink, text: target, rng: rangeOf(m[0], m[1])}, true
			}
		}
	}
	a, b := runAround(line, col, isWordRune)
	word := strings.Trim(line[a:b], "-_")
	wa, wb := runAround(line, col, func(r rune) bool { return !unicode.IsSpace(r) && !strings.ContainsRune("()[]<>\"'`,;", r) })
	wide := strings.TrimRight(line[wa:wb], ".:")
	if m := headingRe.FindStringSubmatch(line); m != nil && strings.TrimSpace(m[1]) != "" {
		return term{kind: termHeading, text: strings.TrimSpace(m[1]), wide: wide, rng: rangeOf(0, len(line))}, true
	}
	if word == "" {
		return term{}, false
	}
	return term{kind: termWord, text: word, wide: wide, rng: rangeOf(a, b)}, true
}

// cacheKey identifies what a term resolves to in a document (definitions
// in the document itself come first, links are relative to it) under a
// hover setting.
func (t term) cacheKey(docPath, mode string) string {
	return strconv.Itoa(int(t.kind)) + "\x00" + t.text + "\x00" + t.wide + "\x00" + docPath + "\x00" + mode
}

// isRelativeLink reports whether a link target is a relative file link.
func isRelativeLink(t string) bool {
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/") {
		return false
	}
	if i := strings.Index(t, ":"); i >= 0 && !strings.Contains(t[:i], "/") {
		return false // scheme: http:, mailto:, ...
	}
	return true
}
