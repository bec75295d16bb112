package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/markdown/links"
)

// linkReferences answers textDocument/references in Markdown: on a heading,
// the links to its anchor; on a link, the links to what it points at (its
// heading when it has an anchor, else its file); elsewhere, the links to
// the file.
func linkReferences(_ *Server, p *protocol.ReferenceParams, d linkDoc) []protocol.Location {
	rel, anchor, decl := referenceTarget(d, int(p.Position.Line), int(p.Position.Character))
	out := []protocol.Location{}
	if p.Context.IncludeDeclaration && decl != nil {
		out = append(out, protocol.Location{URI: d.f.relURI(rel), Range: spanRange(decl.Span)})
	}
	for _, r := range d.f.links.LinksTo(rel, anchor) {
		out = append(out, protocol.Location{URI: d.f.relURI(r.Rel), Range: spanRange(r.Link.Whole)})
	}
	return out
}

// referenceTarget is what a position refers to: a file and, for a
// heading, its anchor (with the heading itself as the declaration).
func referenceTarget(d linkDoc, line, col int) (rel, anchor string, decl *links.Heading) {
	if h := d.file.HeadingAt(line); h != nil {
		return d.rel, h.Anchor, h
	}
	if l := d.file.LinkAt(line, col); l != nil {
		t := d.f.links.Resolve(d.rel, *l)
		if t.Rel != "" {
			if t.Heading != nil {
				return t.Rel, t.Heading.Anchor, t.Heading
			}
			return t.Rel, "", nil
		}
	}
	return d.rel, "", nil
}
