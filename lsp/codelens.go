package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
)

// codeLens puts "N references" on every heading of a Markdown document
// that links point at. The lens carries no command the server runs; the
// count is its whole content.
func (s *Server) codeLens(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeLensParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d, ok, err := s.linkDocFor(ctx, string(p.TextDocument.URI))
	if err != nil || !ok {
		return []protocol.CodeLens{}, err
	}
	counts := d.f.links.Counts(d.rel)
	out := []protocol.CodeLens{}
	for _, h := range d.file.Headings {
		n := counts[h.Anchor]
		if n == 0 {
			continue
		}
		title := fmt.Sprintf("%d references", n)
		if n == 1 {
			title = "1 reference"
		}
		out = append(out, protocol.CodeLens{Range: spanRange(h.Span), Command: protocol.Command{Title: title}})
	}
	return out, nil
}
