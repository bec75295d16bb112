package fsafe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Size caps of what is read from a workspace.
const (
	// MaxSourceBytes caps a Markdown source (and other document text).
	MaxSourceBytes = 8 << 20
	// MaxConfigBytes caps configuration files, manifests, descriptors and
	// ignore files.
	MaxConfigBytes = 1 << 20
)

// Scratch buffers of ReadRegular: most files fit the first one, and one
// over maxReadBuf is not kept.
const (
	readBufSize = 64 << 10
	maxReadBuf  = 1 << 20
)

// Stable codes of refused reads.
const (
	CodeOutsideRoot = "outside_workspace"
	CodeNotRegular  = "not_regular_file"
	CodeTooLarge    = "file_too_large"
)

// Sentinel errors of refused reads; an *Error wraps one of them.
var (
	ErrOutsideRoot = errors.New("resolves outside the workspace")
	ErrNotRegular  = errors.New("not a regular file")
	ErrTooLarge    = errors.New("file too large")
)

// Error is a refused read.
type Error struct {
	Path   string
	Err    error  // ErrOutsideRoot, ErrNotRegular or ErrTooLarge
	Detail string // what was found instead, for the message
}

func (e *Error) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %v (%s)", e.Path, e.Err, e.Detail)
}

func (e *Error) Unwrap() error { return e.Err }

// Code returns the stable code of a refused read, or "" when err is not a
// refusal (a missing file, a permission error).
func Code(err error) string {
	switch {
	case errors.Is(err, ErrOutsideRoot):
		return CodeOutsideRoot
	case errors.Is(err, ErrNotRegular):
		return CodeNotRegular
	case errors.Is(err, ErrTooLarge):
		return CodeTooLarge
	}
	return ""
}

// CodeOr returns Code(err), or fallback when err is not a refusal.
func CodeOr(err error, fallback string) string {
	if c := Code(err); c != "" {
		return c
	}
	return fallback
}

// Root is a folder that reads are confined to.
type Root struct {
	dir  string // absolute, as given
	real string // dir with every symlink resolved
}

// NewRoot resolves dir (which must exist) for confined reads.
func NewRoot(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, err)
	}
	return &Root{dir: abs, real: real}, nil
}

// Dir returns the root folder as given (absolute).
func (r *Root) Dir() string { return r.dir }

// Real returns the root folder with its symlinks resolved.
func (r *Root) Real() string { return r.real }

// Contains reports whether real, a path with no symlink left in it, lies
// in the root.
func (r *Root) Contains(real string) bool {
	return within(r.real, real)
}

func within(root, p string) bool {
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}

// Resolve returns path with every symlink resolved, or an *Error wrapping
// ErrOutsideRoot when that lies outside the root. A missing file fails
// with an error matching fs.ErrNotExist.
func (r *Root) Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if !r.Contains(real) {
		return "", &Error{Path: path, Err: ErrOutsideRoot, Detail: "resolves to " + real + ", outside " + r.dir}
	}
	return real, nil
}

// ReadFile reads path, which must resolve inside the root to a regular
// file of at most limit bytes. A missing file fails with an error matching
// fs.ErrNotExist.
func (r *Root) ReadFile(path string, limit int64) ([]byte, error) {
	return readVia(path, limit, r.Resolve)
}

// ReadFile reads path confined to the folder root (root "" : anywhere, for
// trusted locations such as the user's configuration folder), refusing
// what is not a regular file of at most limit bytes.
func ReadFile(root, path string, limit int64) ([]byte, error) {
	if root == "" {
		return readVia(path, limit, filepath.EvalSymlinks)
	}
	r, err := NewRoot(root)
	if err != nil {
		return nil, err
	}
	return r.ReadFile(path, limit)
}

// readVia reads path after resolve has resolved its symlinks (and refused
// what it must). Most probes are for files that do not exist (.gitignore of
// every folder): one lstat answers them without resolving the whole path.
func readVia(path string, limit int64, resolve func(string) (string, error)) ([]byte, error) {
	if _, err := os.Lstat(path); err != nil {
		return nil, err
	}
	real, err := resolve(path)
	if err != nil {
		return nil, err
	}
	return readResolved(path, real, limit)
}

// readResolved reads real (path with its symlinks resolved) after an
// lstat shows a regular file: a device node is never opened, since opening
// some has effects of its own.
func readResolved(path, real string, limit int64) ([]byte, error) {
	info, err := os.Lstat(real)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(path, info.Mode(), info.Size(), limit); err != nil {
		return nil, err
	}
	b, err := ReadRegular(real, limit)
	if e, ok := err.(*Error); ok {
		e.Path = path
	}
	return b, err
}

// checkRegular fails unless mode is a regular file's and size at most
// limit.
func checkRegular(path string, mode fs.FileMode, size, limit int64) error {
	if !mode.IsRegular() {
		return notRegular(path, mode)
	}
	if size > limit {
		return tooLarge(path, size, limit)
	}
	return nil
}

func notRegular(path string, mode fs.FileMode) *Error {
	return &Error{Path: path, Err: ErrNotRegular, Detail: describe(mode)}
}

func tooLarge(path string, size, limit int64) *Error {
	if size < 0 {
		return &Error{Path: path, Err: ErrTooLarge, Detail: fmt.Sprintf("over the %d-byte limit", limit)}
	}
	return &Error{Path: path, Err: ErrTooLarge, Detail: fmt.Sprintf("%d bytes is over the %d-byte limit", size, limit)}
}

// describe names a non-regular file type.
func describe(mode fs.FileMode) string {
	t := mode.Type()
	for _, ft := range fileTypes {
		if t&ft.bit != 0 {
			return ft.name
		}
	}
	return "a special file"
}

// fileTypes names the file types describe tells apart, the first match
// winning (a character device also has fs.ModeDevice).
var fileTypes = []struct {
	bit  fs.FileMode
	name string
}{
	{fs.ModeDir, "a folder"},
	{fs.ModeNamedPipe, "a FIFO"},
	{fs.ModeSocket, "a socket"},
	{fs.ModeCharDevice, "a character device"},
	{fs.ModeDevice, "a device"},
	{fs.ModeSymlink, "a symlink"},
}
