package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/store"
)

// Options say how to open a workspace's knowledge base: the file, and
// everything an ingest runs with (hooks, built-in sources, reader, walk
// rules), all fixed for the life of the KB.
type Options struct {
	// Workspace is the folder whose Markdown is the source text.
	Workspace string
	// Store is the knowledge base file, already open, for a caller that
	// builds the hooks from it (plugins get their namespaces from the
	// store). The KB owns it from Open on: KB.Close closes it, and so does
	// a failed Open. Nil: Open opens DBPath with StoreOptions.
	Store *store.Store
	// DBPath overrides store.DefaultPath(Workspace) when Store is nil.
	DBPath string
	// StoreOptions tune opening the file (lock timeout, read-only, rebuild)
	// when Store is nil.
	StoreOptions store.Options
	// MaxFileSize caps the size of a source file (DefaultMaxFileSize when 0).
	MaxFileSize int64
	// Hooks are told about every committed source (the kb-plugins' indexes).
	Hooks []SourceHook
	// HookTimeout bounds each hook call per started MiB of its source
	// (engine.json hookTimeoutMs); 0 leaves hooks unbounded.
	HookTimeout time.Duration
	// Virtual are sources with no file, such as plugin::<id> KUs.
	Virtual []VirtualSource
	// Reader reads workspace files in place of the Markdown reader (nil:
	// kus.ParseContext); built-in sources always use the Markdown reader.
	Reader SourceReader
	// Walk holds the exclude patterns and the file cap of every ingest.
	Walk WalkOptions
	// Now stamps ingestedAt; time.Now when nil.
	Now func() time.Time
}

// KB is an open knowledge base bound to one workspace: the store and the
// ingest that keeps it in step with the workspace's files.
type KB struct {
	store       *store.Store
	workspace   string
	root        *fsafe.Root // the workspace, for confined reads
	hooks       []SourceHook
	virtual     []VirtualSource
	reader      SourceReader
	walk        WalkOptions
	maxFileSize int64
	hookTimeout time.Duration
	now         func() time.Time
	// ingestMu serialises ingest runs, hook rebuilds and compaction.
	ingestMu sync.Mutex
	// hooksRun records the hook timeouts of the current run (ingestMu).
	hooksRun *hookRun
	// readFile reads a source with a size cap; replaced in tests.
	readFile func(path string, limit int64) ([]byte, error)
}

// Dir returns the absolute form of a workspace folder, or an error when it
// is not an existing folder.
func Dir(workspace string) (string, error) {
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return "", fmt.Errorf("workspace %s: %w", workspace, err)
	}
	if info, err := os.Stat(ws); err != nil {
		return "", fmt.Errorf("workspace: %w", err)
	} else if !info.IsDir() {
		return "", fmt.Errorf("workspace %s: not a folder", ws)
	}
	return ws, nil
}

// Open opens the knowledge base of a workspace with everything its ingests
// run with. It does not ingest.
func Open(opt Options) (kb *KB, err error) {
	if opt.Store != nil {
		defer func() {
			if err != nil {
				opt.Store.Close()
			}
		}()
	}
	ws, err := Dir(opt.Workspace)
	if err != nil {
		return nil, err
	}
	root, err := fsafe.NewRoot(ws)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	st := opt.Store
	if st == nil {
		path := opt.DBPath
		if path == "" {
			if path, err = store.DefaultPath(ws); err != nil {
				return nil, err
			}
		}
		if st, err = store.Open(path, opt.StoreOptions); err != nil {
			return nil, err
		}
	}
	kb = &KB{
		store:       st,
		workspace:   ws,
		root:        root,
		hooks:       opt.Hooks,
		virtual:     opt.Virtual,
		reader:      opt.Reader,
		walk:        opt.Walk,
		maxFileSize: opt.MaxFileSize,
		hookTimeout: opt.HookTimeout,
		now:         opt.Now,
		readFile:    readCapped,
		hooksRun:    newHookRun(opt.HookTimeout),
	}
	if kb.maxFileSize <= 0 {
		kb.maxFileSize = DefaultMaxFileSize
	}
	if kb.now == nil {
		kb.now = func() time.Time { return time.Now().UTC() }
	}
	return kb, nil
}

// Close closes the knowledge base file cleanly.
func (kb *KB) Close() error { return kb.store.Close() }

// Store returns the underlying store.
func (kb *KB) Store() *store.Store { return kb.store }

// Workspace returns the absolute workspace folder.
func (kb *KB) Workspace() string { return kb.workspace }

// sourceIDFor maps a file path to its source id (workspace-relative, forward slashes).
func (kb *KB) sourceIDFor(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(kb.workspace, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the workspace %s", path, kb.workspace)
	}
	return filepath.ToSlash(rel), nil
}

// Compact rewrites the knowledge base file bucket by bucket and replaces
// it in place (store.Store.Compact), waiting for any ingest in progress
// (RunOptions.Compact does the same at the end of a run).
func (kb *KB) Compact() error {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	return kb.store.Compact()
}

// maxSourceTextBytes bounds the source text SourceText hands out: answers
// quote passages, and a larger file is read for its KUs only.
const maxSourceTextBytes = 4 << 20

// SourceText returns the text of a stored source as it was ingested: a
// built-in source's text, or the file when it is still on disk unchanged
// (same hash) and at most 4 MiB. It returns nil for an unknown, changed,
// removed or larger source; callers fall back to the stored KUs.
func (kb *KB) SourceText(sourceID string) []byte {
	rec, err := kb.store.Source(sourceID)
	if err != nil || rec == nil || rec.Size > maxSourceTextBytes {
		return nil
	}
	return kb.sourceText(rec)
}

// sourceText returns a stored source's current text when it is still on
// disk unchanged (or virtual), else nil: hooks must cope with KUs alone.
func (kb *KB) sourceText(rec *store.SourceRecord) []byte {
	if rec.Path == "" {
		for _, v := range kb.virtual {
			if v.ID == rec.SourceID {
				return v.Text
			}
		}
		return nil
	}
	b, err := kb.root.ReadFile(rec.Path, kb.maxFileSize)
	if err != nil || hashText(b) != rec.Hash {
		return nil
	}
	return b
}
