package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/workspace"
)

// hoverMode is the hover setting ("" : terms).
func (s *Server) hoverMode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.settings.Hover == "" {
		return HoverTerms
	}
	return s.settings.Hover
}

// hover answers textDocument/hover from the knowledge base: for a link,
// the unit that describes its target; for a plugin id or KU id, that
// plugin or unit; for a term (with the hover setting "terms"), the unit
// that defines or describes it — a page titled or named so, or a heading
// of that text — and nothing for a word that is merely used. While the
// first ingest runs the hover says "(indexing N/M)".
func (s *Server) hover(ctx context.Context, raw json.RawMessage) (any, error) {
	_, t, path, f, err := s.termUnder(raw)
	mode := s.hoverMode()
	if err != nil || f == nil || mode == HoverOff {
		return nil, err
	}
	select {
	case <-f.linksReady:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	key := t.cacheKey(path, mode)
	md, ok := f.hovers.get(key)
	if !ok {
		gen := f.hovers.generation()
		err = f.withWS(ctx, func(ws *workspace.Workspace) error {
			md = resolveHover(ctx, f, ws, path, t, mode)
			return nil
		})
		if err == nil && ctx.Err() == nil {
			f.hovers.put(gen, key, md)
		}
	}
	if err != nil || md == "" {
		return nil, err
	}
	if pt := f.partial(); pt != nil {
		md += "\n\n" + indexingNote(pt)
	}
	r := t.rng
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}, Range: &r}, nil
}
