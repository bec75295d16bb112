package store

import (
	"errors"
	"fmt"

	"github.com/mrpvm/mrpvm/plugin"
)

// Stable error codes of the store.
const (
	CodeLocked  = "kb_locked"
	CodeCorrupt = "kb_corrupt"
	CodeOpen    = "kb_open_failed"
	// CodeReadOnly: the file cannot be written (its permissions, a
	// read-only file system); it can still be read.
	CodeReadOnly = "kb_read_only"
)

// Error is a failure to open or use the knowledge base file.
type Error struct {
	Code string
	Path string
	Err  error
}

func (e *Error) Error() string {
	switch e.Code {
	case CodeLocked:
		return fmt.Sprintf("%s: %s: the knowledge base is in use by another mrpvm process (is an editor's language server running on this workspace?)", e.Code, e.Path)
	case CodeReadOnly:
		return fmt.Sprintf("%s: %s: the knowledge base file cannot be written (%v); it can only be read as it is, so it cannot be brought up to date: make it writable or choose another file with --db", e.Code, e.Path, e.Err)
	case CodeCorrupt:
		return fmt.Sprintf("%s: %s: the knowledge base file is damaged (%v); run `mrpvm ingest --rebuild` to move it aside and rebuild it from the workspace", e.Code, e.Path, e.Err)
	default:
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Path, e.Err)
	}
}

func (e *Error) Unwrap() error { return e.Err }

// ErrLocked, ErrCorrupt and ErrReadOnly can be matched with errors.Is.
var (
	ErrLocked   = errors.New("knowledge base locked")
	ErrCorrupt  = errors.New("knowledge base corrupt")
	ErrReadOnly = errors.New("knowledge base read-only")
)

// Is matches ErrLocked and ErrCorrupt (and plugin.ErrKBCorrupt, which the
// plugins see) by code.
func (e *Error) Is(target error) bool {
	return (target == ErrLocked && e.Code == CodeLocked) || (target == ErrReadOnly && e.Code == CodeReadOnly) ||
		((target == ErrCorrupt || target == plugin.ErrKBCorrupt) && e.Code == CodeCorrupt)
}
