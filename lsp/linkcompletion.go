package lsp

import (
	"context"
	"path"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/markdown/links"
)

// linkCompletion completes links in a Markdown document: after "[[" the
// workspace's files (by name, with their title as detail), after "](" the
// relative paths of every Markdown file, and after '#' in either the
// heading anchors of the target file. ok is false when the cursor is in no
// link.
func (s *Server) linkCompletion(ctx context.Context, u, text string, pos protocol.Position) ([]protocol.CompletionItem, bool, error) {
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
			return out, true, nil
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
		return out, true, nil
	}
	r := editRange(start)
	files := d.f.links.Files()
	stems := map[string]int{}
	for _, f := range files {
		stems[stemOf(f.Rel)]++
	}
	for _, f := range files {
		var label string
		if isWiki {
			label = stemOf(f.Rel)
			if stems[label] > 1 {
				label = strings.TrimSuffix(f.Rel, path.Ext(f.Rel))
			}
		} else {
			if f.Rel == d.rel {
				continue
			}
			label = linkPath(path.Dir(d.rel), f.Rel)
		}
		detail := f.Title
		if detail == "" {
			detail = f.Rel
		}
		out = append(out, protocol.CompletionItem{Label: label, Kind: protocol.CompletionItemKindFile,
			Detail: protocol.NewOptional(detail), SortText: protocol.NewOptional(f.Rel),
			TextEdit: &protocol.TextEdit{Range: r, NewText: label}})
	}
	return out, true, nil
}

func stemOf(rel string) string {
	b := path.Base(rel)
	return strings.TrimSuffix(b, path.Ext(b))
}

// linkPath is the relative link from folder dir to rel.
func linkPath(dir, rel string) string {
	if dir == "." {
		return rel
	}
	a, b := strings.Split(dir, "/"), strings.Split(rel, "/")
	n := 0
	for n < len(a) && n < len(b)-1 && a[n] == b[n] {
		n++
	}
	return strings.Repeat("../", len(a)-n) + strings.Join(b[n:], "/")
}
