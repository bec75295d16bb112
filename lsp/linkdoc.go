package lsp

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/markdown/links"
)

// linkDoc is a Markdown document of a folder with its link index entry.
type linkDoc struct {
	f    *folder
	rel  string
	file *links.File
	// tooLarge marks a document over MaxDiagnosedBytes: it is not indexed
	// and file is empty (links to it and from the others still work).
	tooLarge bool
}

// linkDocFor waits for the link index of u's folder and returns u's entry
// (ok false: not a Markdown file of a workspace folder).
func (s *Server) linkDocFor(ctx context.Context, u string) (linkDoc, bool, error) {
	path := uriToPath(u)
	if path == "" || !ingest.IsSourceFile(path) {
		return linkDoc{}, false, nil
	}
	f := s.folderFor(path)
	if f == nil || !within(f.root, path) {
		return linkDoc{}, false, nil
	}
	select {
	case <-f.linksReady:
	case <-ctx.Done():
		return linkDoc{}, false, ctx.Err()
	}
	rel, ok := f.links.Rel(path)
	if !ok {
		return linkDoc{}, false, nil
	}
	file := f.links.File(rel)
	if file == nil {
		// Not indexed yet (a new file never saved): index what there is.
		text, err := s.readText(u)
		if errors.Is(err, fsafe.ErrTooLarge) || err == nil && len(text) > MaxDiagnosedBytes {
			return linkDoc{f: f, rel: rel, file: &links.File{Rel: rel}, tooLarge: true}, true, nil
		}
		if err != nil {
			return linkDoc{}, false, nil
		}
		file = s.updateLinks(f, rel, text)
	}
	return linkDoc{f: f, rel: rel, file: file}, true, nil
}

// spanRange converts an index span to an LSP range.
func spanRange(sp links.Span) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(sp.Line), Character: uint32(sp.Start)},
		End:   protocol.Position{Line: uint32(sp.Line), Character: uint32(sp.End)},
	}
}

func (f *folder) relURIString(rel string) string { return pathToURI(f.links.Abs(rel)) }

// relURI is the file: URI of a folder-relative path.
func (f *folder) relURI(rel string) uri.URI { return uri.URI(pathToURI(f.links.Abs(rel))) }

// decode unmarshals LSP params with the protocol package's codec.
func decode(raw json.RawMessage, v any) error {
	if err := protocol.Unmarshal(raw, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: "+err.Error())
	}
	return nil
}

// onLinkDoc is the shape of a request about one Markdown document: it
// decodes the params (any protocol params naming a textDocument), waits for
// the document's link index entry and calls fn with both. When the document
// is none of a folder's Markdown files the answer is none, unchanged.
func onLinkDoc[P any](s *Server, ctx context.Context, raw json.RawMessage, none any, fn func(p *P, d linkDoc) (any, error)) (any, error) {
	var p P
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	u, _ := textDocumentURI(raw) // decode accepted raw: it is a JSON object
	d, ok, err := s.linkDocFor(ctx, u)
	if err != nil || !ok {
		return none, err
	}
	return fn(&p, d)
}

// linkDocRequest is the handler of a request whose answer is a list
// computed from one Markdown document's link index entry (empty when the
// document is none of a folder's Markdown files).
func linkDocRequest[P, R any](fn func(s *Server, p *P, d linkDoc) []R) requestHandler {
	return func(s *Server, ctx context.Context, raw json.RawMessage) (any, error) {
		return onLinkDoc(s, ctx, raw, []R{}, func(p *P, d linkDoc) (any, error) { return fn(s, p, d), nil })
	}
}
