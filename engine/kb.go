package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
)

// Config describes how to open a workspace's knowledge base.
type Config struct {
	// Workspace is the folder whose Markdown is the source text.
	Workspace string
	// DBPath overrides DefaultDBPath(Workspace).
	DBPath string
	// Store tunes opening the file (lock timeout, read-only, rebuild).
	Store StoreOptions
	// MaxFileSize caps the size of a source file (DefaultMaxFileSize when 0).
	MaxFileSize int64
	// Hooks are told about every committed source (the kb-plugins' indexes).
	Hooks []SourceHook
	// Virtual are sources with no file, such as plugin::<id> KUs.
	Virtual []VirtualSource
	// Now stamps ingestedAt; time.Now when nil.
	Now func() time.Time
	// Walk holds the exclude patterns and the file cap of every ingest.
	Walk WalkOptions
}

// KB is an open knowledge base bound to one workspace.
type KB struct {
	store       *Store
	workspace   string
	root        *fsafe.Root // the workspace, for confined reads
	hooks       []SourceHook
	virtual     []VirtualSource
	maxFileSize int64
	now         func() time.Time
	ingestMu    sync.Mutex
	walk        WalkOptions // under ingestMu
	// hookTimeout bounds each hook call (0: unbounded); hooksRun records
	// the timeouts of the current run. Both are guarded by ingestMu.
	hookTimeout time.Duration
	hooksRun    *hookRun
	// reader reads workspace files in place of the Markdown reader (nil:
	// kus.ParseContext); guarded by ingestMu.
	reader SourceReader
	// readFile reads a source with a size cap; replaced in tests.
	readFile func(path string, limit int64) ([]byte, error)
}

// Open opens the knowledge base of a workspace. It does not ingest.
func Open(cfg Config) (*KB, error) {
	ws, err := filepath.Abs(cfg.Workspace)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", cfg.Workspace, err)
	}
	if info, err := os.Stat(ws); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("workspace %s: not a folder", ws)
	}
	root, err := fsafe.NewRoot(ws)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	path := cfg.DBPath
	if path == "" {
		if path, err = DefaultDBPath(ws); err != nil {
			return nil, err
		}
	}
	store, err := OpenStore(path, cfg.Store)
	if err != nil {
		return nil, err
	}
	kb := &KB{
		store:       store,
		workspace:   ws,
		root:        root,
		hooks:       cfg.Hooks,
		virtual:     cfg.Virtual,
		maxFileSize: cfg.MaxFileSize,
		now:         cfg.Now,
		walk:        cfg.Walk,
		readFile:    readCapped,
		hooksRun:    newHookRun(0),
	}
	if kb.maxFileSize <= 0 {
		kb.maxFileSize = DefaultMaxFileSize
	}
	if kb.now == nil {
		kb.now = func() time.Time { return time.Now().UTC() }
	}
	return kb, nil
}

// Attach sets the ingest hooks and the virtual sources, for callers that
// need the open store to build them (plugins get their namespaces from it).
// Call it before the first Ingest.
func (kb *KB) Attach(hooks []SourceHook, virtual []VirtualSource) {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	kb.hooks = hooks
	kb.virtual = virtual
}

// SourceReader reads one workspace file into its KU hierarchy: the seed
// detector configured for the file (its normalizePersistentContext). It is
// called on the ingest's parse workers, concurrently for different files,
// with the file's valid UTF-8 text, which it must not change or keep. An
// error skips the file with a CodeParseFailed warning; the document's
// error and warning diagnostics are reported as the file's warnings.
type SourceReader func(ctx context.Context, info kus.SourceInfo, text []byte) (*kus.Document, error)

// SetReader sets the reader of the next ingests' workspace files (nil: the
// Markdown reader); built-in sources (plugin::<id>) always use the Markdown
// reader.
func (kb *KB) SetReader(r SourceReader) {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	kb.reader = r
}

// SetWalk sets the exclude patterns and the file cap of the next ingests,
// for callers that read them from the configuration after opening.
func (kb *KB) SetWalk(opt WalkOptions) {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	kb.walk = opt
}

// Close closes the knowledge base file cleanly.
func (kb *KB) Close() error { return kb.store.Close() }

// Store returns the underlying store.
func (kb *KB) Store() *Store { return kb.store }

// Workspace returns the absolute workspace folder.
func (kb *KB) Workspace() string { return kb.workspace }

// SourceIDFor maps a file path to its source id (workspace-relative, forward slashes).
func (kb *KB) SourceIDFor(path string) (string, error) {
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

// HookVersioner is implemented by hooks whose index format can change; a
// new version makes the engine rebuild that hook's index from stored KUs.
type HookVersioner interface {
	HookVersion() string
}

func hookVersion(h SourceHook) string {
	if v, ok := h.(HookVersioner); ok {
		return v.HookVersion()
	}
	return "1"
}

func hookMetaKey(id string) []byte { return []byte("hook:" + id) }

// backfillHooks rebuilds the index of every hook that is new to this file
// or whose version changed, from the KUs already stored.
func (kb *KB) backfillHooks(ctx context.Context) error {
	for _, h := range kb.hooks {
		var current []byte
		if err := kb.store.view(func(tx *bolt.Tx) error {
			current = append([]byte(nil), tx.Bucket(bucketMeta).Get(hookMetaKey(h.HookID()))...)
			return nil
		}); err != nil {
			return err
		}
		if string(current) == hookVersion(h) {
			continue
		}
		if err := kb.RebuildHook(ctx, h.HookID()); err != nil {
			return err
		}
	}
	return nil
}

// RepairHook rebuilds one hook's private index from the stored KUs, waiting
// for any ingest in progress; used when a plugin reports its index corrupt.
func (kb *KB) RepairHook(ctx context.Context, id string) error {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	hr := kb.beginHookRun()
	defer kb.endHookRun(hr, nil)
	return kb.RebuildHook(ctx, id)
}

// RebuildHook drops one hook's private index and rebuilds it from the
// stored KUs, one transaction per source (used for new hooks and for a
// corrupt plugin bucket).
func (kb *KB) RebuildHook(ctx context.Context, id string) error {
	var hook SourceHook
	for _, h := range kb.hooks {
		if h.HookID() == id {
			hook = h
		}
	}
	if hook == nil {
		return fmt.Errorf("rebuild index: no hook %q", id)
	}
	if err := kb.store.update(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketPlugins)
		if root.Bucket([]byte(id)) != nil {
			if err := root.DeleteBucket([]byte(id)); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Delete(hookMetaKey(id))
	}); err != nil {
		return fmt.Errorf("rebuild index %s: %w", id, err)
	}
	recs, err := kb.store.Sources()
	if err != nil {
		return err
	}
	kb.store.db.NoSync = len(recs) > 1
	for _, rec := range recs {
		if err := ctx.Err(); err != nil {
			return kb.finish(err)
		}
		err := kb.store.update(func(tx *bolt.Tx) error {
			doc := &kus.Document{Source: kus.SourceInfo{SourceID: rec.SourceID}, Title: rec.Title}
			for _, uid := range rec.UnitIDs {
				u, err := getKU(tx, uid)
				if err != nil {
					return err
				}
				if u != nil {
					doc.Units = append(doc.Units, u)
				}
			}
			b, err := ensurePluginBucket(tx, id)
			if err != nil {
				return err
			}
			ev := &SourceEvent{Kind: SourceUpserted, SourceID: rec.SourceID, Path: rec.Path,
				Text: kb.sourceText(rec), Doc: doc, KV: boltKV{b}, KUs: txKUReader{tx}}
			if kb.hooksRun.isDisabled(id) {
				return &hookError{hook: id, err: errors.New("disabled after repeated timeouts; the rebuild resumes on the next ingest")}
			}
			if err := kb.callHook(ctx, hook, ev); err != nil {
				return &hookError{hook: id, err: err}
			}
			return nil
		})
		if err != nil {
			return kb.finish(fmt.Errorf("rebuild index %s: source %s: %w", id, rec.SourceID, err))
		}
	}
	if err := kb.finish(nil); err != nil {
		return err
	}
	return kb.store.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(hookMetaKey(id), []byte(hookVersion(hook)))
	})
}

// sourceText returns a stored source's current text when it is still on
// disk unchanged (or virtual), else nil: hooks must cope with KUs alone.
func (kb *KB) sourceText(rec *SourceRecord) []byte {
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

// ErrNoSource is returned for an unknown source id.
var ErrNoSource = errors.New("no such source")
