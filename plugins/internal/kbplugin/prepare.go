package kbplugin

import "github.com/mrpvm/mrpvm/kus"

// PrepareSource analyses and encodes a parsed source ahead of its
// transaction (ingest.SourcePreparer): BM25 analysis, HDC vectors and
// ThinkingDB facts land in the cores' content-hash caches, so OnSourceText
// then only writes. Safe on any goroutine; nothing is stored.
func (e *Engine) PrepareSource(sourceID string, doc *kus.Document) {
	if doc == nil || len(doc.Units) == 0 {
		return
	}
	e.bm.Prepare(doc.Units)
	if e.hd != nil {
		e.hd.Prepare(doc.Units)
	}
	if e.td != nil {
		e.td.Prepare(sourceID, doc.Units)
	}
}
