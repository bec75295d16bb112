package lsp

import "go.lsp.dev/protocol"

// sectionFolds answers textDocument/foldingRange: a Markdown document
// folds by sections, each heading down to the last line before the next
// heading of the same or a higher level.
func sectionFolds(_ *Server, _ *protocol.FoldingRangeParams, d linkDoc) []protocol.FoldingRange {
	out := []protocol.FoldingRange{}
	for _, h := range d.file.Headings {
		if h.EndLine > h.Line {
			out = append(out, protocol.FoldingRange{StartLine: uint32(h.Line), EndLine: uint32(h.EndLine), Kind: protocol.FoldingRangeKindRegion})
		}
	}
	return out
}
