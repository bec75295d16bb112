package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/workspace"
)

// documentSymbol returns a file's KU hierarchy, read from the overlay.
func (s *Server) documentSymbol(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: "+err.Error())
	}
	text, err := s.readText(p.TextDocument.URI)
	if err != nil {
		return []protocol.DocumentSymbol{}, nil
	}
	if len(text) > MaxDiagnosedBytes {
		// Refused rather than parsed: the same cap as diagnostics and the
		// ingest's default file size cap.
		return nil, rpcError(jsonrpc2.InvalidRequest, "doc_too_large",
			"the document has %d bytes; documents over %d bytes get no symbols", len(text), MaxDiagnosedBytes)
	}
	doc, err := kus.ParseContext(ctx, []byte(text), kus.SourceInfo{SourceID: filepath.Base(uriToPath(p.TextDocument.URI))})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return []protocol.DocumentSymbol{}, nil
	}
	return kuSymbols(text, doc), nil
}

// kuSymbols builds the symbol tree: the source summary at the top, its
// sections nested by parentUnitIds, leaves inside their sections.
func kuSymbols(text string, doc *kus.Document) []protocol.DocumentSymbol {
	byID := map[string]*kus.KU{}
	for _, u := range doc.Units {
		byID[u.ID] = u
	}
	var build func(u *kus.KU, depth int) protocol.DocumentSymbol
	build = func(u *kus.KU, depth int) protocol.DocumentSymbol {
		r := protocol.Range{
			Start: lineColPosition(text, u.Range.StartLine, u.Range.StartCol),
			End:   lineColPosition(text, u.Range.EndLine, u.Range.EndCol),
		}
		sel := r
		sel.End = lineColPosition(text, u.Range.StartLine, 1<<30)
		if sel.End.Line != sel.Start.Line || sel.End.Character < sel.Start.Character {
			sel.End = sel.Start
		}
		name := u.Title
		if name == "" {
			name = u.ID
		}
		detail := u.Level
		if u.Role != "" {
			detail += " · " + u.Role
		}
		sym := protocol.DocumentSymbol{Name: name, Detail: &detail, Kind: symbolKind(u), Range: r, SelectionRange: sel}
		if depth < 32 {
			for _, cid := range u.ChildUnitIDs {
				if c := byID[cid]; c != nil {
					sym.Children = append(sym.Children, build(c, depth+1))
				}
			}
		}
		return sym
	}
	out := []protocol.DocumentSymbol{}
	for _, u := range doc.Units {
		if len(u.ParentUnitIDs) == 0 || byID[u.ParentUnitIDs[0]] == nil {
			out = append(out, build(u, 0))
		}
	}
	return out
}

func symbolKind(u *kus.KU) protocol.SymbolKind {
	switch u.Level {
	case kus.LevelSummary:
		return protocol.SymbolKindFile
	case kus.LevelSection:
		return protocol.SymbolKindNamespace
	}
	return protocol.SymbolKindString
}

// workspaceSymbol searches KUs (BM25 ranked) in every folder.
func (s *Server) workspaceSymbol(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: "+err.Error())
	}
	type symbolInformation struct {
		Name          string              `json:"name"`
		Kind          protocol.SymbolKind `json:"kind"`
		Location      protocol.Location   `json:"location"`
		ContainerName string              `json:"containerName,omitempty"`
	}
	out := []symbolInformation{}
	for _, f := range s.folderList() {
		err := f.withWS(ctx, func(ws *workspace.Workspace) error {
			for _, h := range search(ctx, ws, p.Query, 50) {
				u, r := kuLocation(f, h.KU)
				if u == "" {
					continue
				}
				out = append(out, symbolInformation{Name: h.KU.Title, Kind: symbolKind(h.KU),
					Location: protocol.Location{URI: uri.URI(u), Range: r}, ContainerName: h.KU.SourceID})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// definition follows relative Markdown links, [[wiki links]] and KU ids.
func (s *Server) definition(ctx context.Context, raw json.RawMessage) (any, error) {
	p, t, _, f, err := s.termUnder(raw)
	if err != nil || f == nil {
		return nil, err
	}
	if t.kind == termLink || t.kind == termWiki {
		// Through the link index: a link that leaves the workspace is
		// never followed.
		d, ok, err := s.linkDocFor(ctx, p.TextDocument.URI)
		if err != nil || !ok {
			return nil, err
		}
		l := d.file.LinkAt(int(p.Position.Line), int(p.Position.Character))
		if l == nil {
			return nil, nil
		}
		res := f.links.Resolve(d.rel, *l)
		if res.Rel == "" || !res.Exists {
			return nil, nil
		}
		r := protocol.Range{}
		if res.Heading != nil {
			r = spanRange(res.Heading.Span)
		}
		return []protocol.Location{{URI: f.relURI(res.Rel), Range: r}}, nil
	}
	var locs []protocol.Location
	err = f.withWS(ctx, func(ws *workspace.Workspace) error {
		var ku *kus.KU
		if strings.Contains(t.wide, "::") {
			ku, _ = ws.KB.Store().KU(t.wide)
		}
		if ku != nil {
			if u, r := kuLocation(f, ku); u != "" {
				locs = append(locs, protocol.Location{URI: uri.URI(u), Range: r})
			}
		}
		return nil
	})
	if err != nil || len(locs) == 0 {
		return nil, err
	}
	return locs, nil
}
