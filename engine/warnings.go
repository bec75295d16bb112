package engine

import "github.com/mrpvm/mrpvm/kus"

// FileWarning is one problem the reader found in a file it ingested: a
// position, a stable code (kus.Code*) and a message.
type FileWarning struct {
	Path    string `json:"path"`
	Line    int    `json:"line"` // 1-based
	Col     int    `json:"col"`  // 1-based
	Code    string `json:"code"`
	Message string `json:"message"`
}

// addWarnings adds the error and warning diagnostics of the document p
// committed; informational ones (a file split at a section limit) are not
// problems of the file.
func (r *IngestReport) addWarnings(p parsed) {
	if p.doc == nil {
		return
	}
	for _, d := range p.doc.Diagnostics {
		if d.Severity != kus.SeverityError && d.Severity != kus.SeverityWarning {
			continue
		}
		r.Warnings = append(r.Warnings, FileWarning{Path: p.displayPath(), Line: d.Line, Col: d.Col, Code: d.Code, Message: d.Message})
	}
}
