package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"
)

// referenceLenses answers textDocument/codeLens: "N references" on every
// heading of a Markdown document that links point at. The lens carries no
// command the server runs; the count is its whole content.
func referenceLenses(_ *Server, _ *protocol.CodeLensParams, d linkDoc) []protocol.CodeLens {
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
	return out
}
