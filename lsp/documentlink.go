package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// resolvedLinks answers textDocument/documentLink: the links of a
// Markdown document whose targets exist in the workspace, pointing at the
// file (and the heading's line).
func resolvedLinks(_ *Server, _ *protocol.DocumentLinkParams, d linkDoc) []protocol.DocumentLink {
	out := []protocol.DocumentLink{}
	for _, l := range d.file.Links {
		t := d.f.links.Resolve(d.rel, l)
		if t.Rel == "" || !t.Exists {
			continue
		}
		target := d.f.relURI(t.Rel)
		if t.Heading != nil {
			target = uri.URI(fmt.Sprintf("%s#L%d", target, t.Heading.Line+1))
		}
		tip := t.Rel
		out = append(out, protocol.DocumentLink{Range: spanRange(l.Whole), Target: &target, Tooltip: &tip})
	}
	return out
}
