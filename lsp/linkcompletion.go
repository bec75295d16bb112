package lsp

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/markdown/links"
)

// maxLinkItems bounds a link completion list: the list is filtered by what
// was typed and marked incomplete when cut, so the client asks again as
// the user types (thousands of items cost more to send than to find).
const maxLinkItems = 100

// linkCompletion completes links in a Markdown document: after "[[" the
// workspace's files (by name, with their title as detail), after "](" the
// relative paths of every Markdown file, and after '#' in either the
// heading anchors of the target file. Files are filtered by what was typed
// (in the name, path or title; names starting with it first). ok is false
// when the cursor is in no link.
func (s *Server) linkCompletion(ctx context.Context, u, text string, pos protocol.Position) (*protocol.CompletionList, bool, error) {
	off := offsetOf(text, pos)
	ls := strings.LastIndexByte(text[:off], '\n') + 1
	prefix := text[ls:off]
	wiki := strings.LastIndex(prefix, "[[")
	inline := strings.LastIndex(prefix, "](")
	if wiki >= 0 && strings.Contains(prefix[wiki:], "]]") {
		wiki = -1
	}
	if inline >= 0 && strings.ContainsAny(prefix[inline+2:], ") ") {
		inline = -1
	}
	if wiki < 0 && inline < 0 {
		return nil, false, nil
	}
	d, ok, err := s.linkDocFor(ctx, u)
	if err != nil || !ok {
		return nil, false, err
	}
	isWiki := wiki > inline
	start := inline + 2
	if isWiki {
		start = wiki + 2
	}
	typed := prefix[start:]
	// The typed text is replaced: from the start of the link target (or of
	// the anchor) to the cursor.
	editRange := func(from int) protocol.Range {
		return protocol.Range{Start: positionOf(text, ls+from), End: pos}
	}
	out := []protocol.CompletionItem{}
	list := func(items []protocol.CompletionItem, incomplete bool) *protocol.CompletionList {
		return &protocol.CompletionList{IsIncomplete: incomplete, Items: items}
	}
	if file, _, has := strings.Cut(typed, "#"); has {
		var l links.Link
		if isWiki {
			l = links.Link{Kind: links.Wiki, Target: strings.TrimSpace(file)}
		} else {
			l = links.Link{Kind: links.Inline, Target: file}
		}
		t := d.f.links.Resolve(d.rel, l)
		f := d.f.links.File(t.Rel)
		if f == nil {
			return list(out, false), true, nil
		}
		r := editRange(start + len(file) + 1)
		for _, h := range f.Headings {
			newText := h.Anchor
			if isWiki {
				newText = h.Text
			}
			out = append(out, protocol.CompletionItem{Label: h.Text, Kind: protocol.CompletionItemKindReference,
				Detail: protocol.NewOptional(strings.Repeat("#", h.Level) + " " + t.Rel), FilterText: protocol.NewOptional(newText),
				TextEdit: &protocol.TextEdit{Range: r, NewText: newText}})
		}
		return list(out, false), true, nil
	}
	r := editRange(start)
	want := strings.ToLower(strings.TrimSpace(typed))
	files, shared := d.f.links.FilesWithShared()
	type cand struct {
		rank        int // 0: the label starts with the typed text, 1: contains it, 2: the title does
		label, sort string
		f           *links.File
	}
	var cands []cand
	for i, f := range files {
		var label string
		if isWiki {
			label = stemOf(f.Rel)
			if shared[i] {
				label = strings.TrimSuffix(f.Rel, path.Ext(f.Rel))
			}
		} else {
			if f.Rel == d.rel {
				continue
			}
			label = links.RelPath(path.Dir(d.rel), f.Rel)
		}
		rank := 0
		if want != "" {
			l := strings.ToLower(label)
			switch {
			case strings.HasPrefix(l, want) || strings.HasPrefix(strings.ToLower(stemOf(f.Rel)), want):
			case strings.Contains(l, want):
				rank = 1
			case strings.Contains(f.TitleLower, want):
				rank = 2
			default:
				continue
			}
		}
		cands = append(cands, cand{rank: rank, label: label, sort: f.Rel, f: f})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].rank < cands[j].rank })
	incomplete := len(cands) > maxLinkItems
	if incomplete {
		cands = cands[:maxLinkItems]
	}
	for i, c := range cands {
		detail := c.f.Title
		if detail == "" {
			detail = c.f.Rel
		}
		out = append(out, protocol.CompletionItem{Label: c.label, Kind: protocol.CompletionItemKindFile,
			Detail: protocol.NewOptional(detail), SortText: protocol.NewOptional(fmt.Sprintf("%05d", i)),
			FilterText: protocol.NewOptional(c.label + " " + c.f.Title),
			TextEdit:   &protocol.TextEdit{Range: r, NewText: c.label}})
	}
	return list(out, incomplete), true, nil
}

func stemOf(rel string) string {
	b := path.Base(rel)
	return strings.TrimSuffix(b, path.Ext(b))
}
