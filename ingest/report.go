package ingest

import (
	"fmt"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
)

// Ingest issue codes. Warnings skip a file; errors make the run fail.
const (
	CodeTooLarge = fsafe.CodeTooLarge
	// CodeNotRegular skips a source that is a FIFO, device or socket.
	CodeNotRegular = fsafe.CodeNotRegular
	// CodeOutsideRoot skips a symlink resolving outside the workspace.
	CodeOutsideRoot = fsafe.CodeOutsideRoot
	// CodeNameNotUTF8 skips a file or folder whose name is not valid
	// UTF-8: source ids, JSON output and URIs could not name it.
	CodeNameNotUTF8 = "file_name_not_utf8"
	CodeNotUTF8     = "not_utf8"
	CodeBinary      = "binary_file"
	CodeVanished    = "file_vanished"
	CodeReadFailed  = "read_failed"
	CodeParseFailed = "parse_failed"
	CodeHookFailed  = "hook_failed"
	CodeCommit      = "commit_failed"
	// CodeCompact is a warning: the knowledge base stays as it was, only
	// less compact (RunOptions.Compact).
	CodeCompact = "compact_failed"
)

// DefaultMaxFileSize is the size cap above which a file is skipped.
const DefaultMaxFileSize = fsafe.MaxSourceBytes

// FileError is one problem met while ingesting.
type FileError struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Warning marks a skipped file that does not make the run fail.
	Warning bool `json:"-"`
}

func (e FileError) Error() string { return fmt.Sprintf("%s: %s: %s", e.Path, e.Code, e.Message) }

// Report summarises one ingest run.
type Report struct {
	Files     int `json:"files"`     // workspace files (re)ingested this run
	Unchanged int `json:"unchanged"` // workspace files found unchanged
	// PluginSources counts built-in sources (plugin::<id>) re-ingested
	// because a plugin's KUs changed; unchanged ones are not counted.
	PluginSources int         `json:"pluginSources"`
	Removed       int         `json:"removed"` // sources removed with their KUs
	KUs           int         `json:"kus"`     // total KUs in the knowledge base
	Errors        []FileError `json:"errors"`
	// Warnings are the problems the reader found in the files parsed in
	// this run (a Context Unit block with a bad role, say): the files were
	// ingested, as well as they could be read.
	Warnings []FileWarning `json:"warnings"`
	Seconds  float64       `json:"seconds"`
}

// Failed reports whether any issue was an error rather than a skipped file.
func (r *Report) Failed() bool {
	for _, e := range r.Errors {
		if !e.Warning {
			return true
		}
	}
	return false
}

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
func (r *Report) addWarnings(p parsed) {
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

// committed counts a source whose KUs were committed, with its warnings.
func (r *Report) committed(p parsed) {
	r.addWarnings(p)
	if p.path == "" {
		r.PluginSources++
		return
	}
	r.Files++
}
