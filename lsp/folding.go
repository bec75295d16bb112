package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// foldingRange folds a Markdown document by sections: each heading down to
// the last line before the next heading of the same or a higher level.
func (s *Server) foldingRange(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.FoldingRangeParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d, ok, err := s.linkDocFor(ctx, string(p.TextDocument.URI))
	if err != nil || !ok {
		return []protocol.FoldingRange{}, err
	}
	out := []protocol.FoldingRange{}
	for _, h := range d.file.Headings {
		if h.EndLine > h.Line {
			out = append(out, protocol.FoldingRange{StartLine: uint32(h.Line), EndLine: uint32(h.EndLine), Kind: protocol.FoldingRangeKindRegion})
		}
	}
	return out, nil
}
