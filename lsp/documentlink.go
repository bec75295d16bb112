package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// documentLink returns the links of a Markdown document whose targets
// exist in the workspace, pointing at the file (and the heading's line).
func (s *Server) documentLink(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.DocumentLinkParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d, ok, err := s.linkDocFor(ctx, string(p.TextDocument.URI))
	if err != nil || !ok {
		return []protocol.DocumentLink{}, err
	}
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
	return out, nil
}
