package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/markdown/links"
)

// codeRequestFailed is the LSP error code of a request that was valid but
// could not be carried out (a refused rename).
const codeRequestFailed jsonrpc2.Code = -32803

// renameTarget finds the heading a rename at a position is about: the
// heading on that line, or the heading a link's anchor names.
func renameTarget(d linkDoc, line, col int) (rel string, h *links.Heading, rng protocol.Range, ok bool) {
	if h := d.file.HeadingAt(line); h != nil {
		return d.rel, h, spanRange(h.Span), true
	}
	if l := d.file.LinkAt(line, col); l != nil && l.HasAnchor {
		if t := d.f.links.Resolve(d.rel, *l); t.Heading != nil {
			return t.Rel, t.Heading, spanRange(l.AnchorSpan), true
		}
	}
	return "", nil, protocol.Range{}, false
}

// prepareRename says whether a rename can start at a position: on a
// heading, or on a link's anchor that names one.
func (s *Server) prepareRename(ctx context.Context, raw json.RawMessage) (any, error) {
	return onLinkDoc(s, ctx, raw, nil, func(p *protocol.PrepareRenameParams, d linkDoc) (any, error) {
		if d.tooLarge {
			return nil, tooLargeToRename()
		}
		_, h, rng, ok := renameTarget(d, int(p.Position.Line), int(p.Position.Character))
		if !ok {
			return nil, rpcError(codeRequestFailed, "rename_unsupported", "only a heading (or a link's #anchor) can be renamed here; rename files from the file explorer")
		}
		return &protocol.PrepareRenamePlaceholder{Range: rng, Placeholder: h.Text}, nil
	})
}

// rename renames a heading and updates every link to its anchor.
func (s *Server) rename(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.RenameParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d, ok, err := s.linkDocFor(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, rpcError(codeRequestFailed, "rename_unsupported", "not a Markdown file of a workspace folder")
	}
	if d.tooLarge {
		return nil, tooLargeToRename()
	}
	rel, h, _, ok := renameTarget(d, int(p.Position.Line), int(p.Position.Character))
	if !ok {
		return nil, rpcError(codeRequestFailed, "rename_unsupported", "only a heading (or a link's #anchor) can be renamed here")
	}
	edits, err := d.f.links.RenameHeading(rel, h.Line, p.NewName)
	if err != nil {
		// The index's errors start with the stable code rename_refused.
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	return workspaceEdit(d.f, edits), nil
}

// willRenameFiles returns the edits that keep the links to renamed (or
// moved) Markdown files and folders working.
func (s *Server) willRenameFiles(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.RenameFilesParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	byFolder := map[*folder][]links.FileMove{}
	for _, r := range p.Files {
		oldPath, newPath := uriToPath(r.OldURI), uriToPath(r.NewURI)
		f := s.folderFor(oldPath)
		if f == nil || !within(f.root, oldPath) || !within(f.root, newPath) {
			continue // moves across or out of folders are not followed
		}
		select {
		case <-f.linksReady:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		from, ok1 := f.links.Rel(oldPath)
		to, ok2 := f.links.Rel(newPath)
		if ok1 && ok2 {
			byFolder[f] = append(byFolder[f], links.FileMove{From: from, To: to})
		}
	}
	var out *protocol.WorkspaceEdit
	for f, moves := range byFolder {
		edits := f.links.RenameFiles(moves)
		if len(edits) == 0 {
			continue
		}
		we := workspaceEdit(f, edits)
		if out == nil {
			out = we
			continue
		}
		for u, e := range we.Changes {
			out.Changes[u] = append(out.Changes[u], e...)
		}
	}
	if out == nil {
		return nil, nil
	}
	return out, nil
}

// tooLargeToRename refuses a rename in a document the link index leaves
// out for its size.
func tooLargeToRename() error {
	return rpcError(codeRequestFailed, "rename_refused", "the document is too large to index (over %d bytes); its headings cannot be renamed", MaxDiagnosedBytes)
}
