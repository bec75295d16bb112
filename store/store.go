package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/kus"
)

// SchemaVersion is the layout version of the knowledge base file. A file
// with another version, or whose KUs another Markdown reader made
// (kus.ReaderVersion), is rebuilt from the workspace on open.
// Raise it whenever the buckets or the stored form of a record or KU change.
const SchemaVersion = 5

// schemaTag is the meta value naming the layout and the reader of a file.
var schemaTag = []byte(strconv.Itoa(SchemaVersion) + "/kus-" + strconv.Itoa(kus.ReaderVersion))

// Bucket names. Keys are designed for ordered cursor scans.
var (
	bucketMeta    = []byte("meta")    // schema, clean-shutdown flag, hook versions
	bucketSources = []byte("sources") // sourceId -> SourceRecord (JSON)
	bucketKUs     = []byte("kus")     // kuId -> kus.KU (binary form, kus.EncodeUnits; read with getKU)
	bucketPlugins = []byte("plugins") // one nested bucket per plugin id
	// bucketShared holds namespaces the built-in kb-plugins share (one BM25
	// index of the workspace instead of one per plugin).
	bucketShared = []byte("shared")
	// bucketStat keeps sourceId -> (size, mtime) of every source, the
	// part of its record the ingest check compares, in a few hundred small
	// pages instead of the thousands the full records fill.
	bucketStat = []byte("stat")
)

// appendFill is the page fill of buckets whose keys mostly arrive in
// ascending order (KU ids and source ids of a sorted walk, index segments):
// bbolt's default of one half leaves every page split behind an append
// half empty for good.
const appendFill = 0.9

// allBuckets are the top-level buckets.
var allBuckets = [][]byte{bucketMeta, bucketSources, bucketKUs, bucketPlugins, bucketShared, bucketStat}

var (
	keySchema = []byte("schema")
	keyDirty  = []byte("dirty")
)

// Options tune Open.
type Options struct {
	// LockTimeout bounds the wait for another process's lock (default 1s).
	LockTimeout time.Duration
	// ReadOnly opens the file for reading only (shared lock).
	ReadOnly bool
	// Rebuild moves an existing (possibly corrupt) file aside and starts anew.
	Rebuild bool
}

// Store is the knowledge base file.
type Store struct {
	db   *bolt.DB
	path string
	// Rebuilt is set when the file was created anew (fresh, schema change or --rebuild).
	Rebuilt bool
	// MovedAside names the file a rebuild moved the old database to, if any.
	MovedAside string

	stateMu sync.Mutex
	state   map[string]any // SharedState by namespace

	// swapMu is held for reading by every transaction (view, update) and
	// for writing while compact replaces db with the compacted file.
	swapMu sync.RWMutex
	opt    Options

	// marked is set once this process has marked the file dirty (keyDirty,
	// durably) for the writes it makes; Close clears the mark only then.
	// A run that writes nothing (an unchanged workspace's check) leaves the
	// file alone: no write transaction and no fdatasync at open or close.
	markMu sync.Mutex
	marked atomic.Bool

	// broken holds the error of a transaction that panicked on a damaged
	// page (guard); every later transaction fails with it.
	broken atomic.Pointer[Error]
}

// view runs a read transaction. A damaged page is reported as CodeCorrupt
// (guard), never as a panic.
func (s *Store) view(fn func(*bolt.Tx) error) error {
	s.swapMu.RLock()
	defer s.swapMu.RUnlock()
	if err := s.brokenErr(); err != nil {
		return err
	}
	return s.guard(func() error { return s.db.View(fn) })
}

// update runs a write transaction; the first one of the process marks
// the file dirty before it. A damaged page is reported as CodeCorrupt.
func (s *Store) update(fn func(*bolt.Tx) error) error {
	s.swapMu.RLock()
	defer s.swapMu.RUnlock()
	if err := s.brokenErr(); err != nil {
		return err
	}
	if s.opt.ReadOnly {
		return &Error{Code: CodeReadOnly, Path: s.path, Err: errors.New("opened for reading only")}
	}
	err := s.guard(func() error {
		if err := s.markDirty(); err != nil {
			return err
		}
		var fnErr error
		err := s.db.Update(func(tx *bolt.Tx) error { fnErr = fn(tx); return fnErr })
		if err != nil && err != fnErr {
			return s.commitFailed(err)
		}
		return err
	})
	return err
}

// markDirty records keyDirty, durably, before the first write of the
// process (the caller holds swapMu): should the process die before Close,
// the next open checks the whole file. The mark is synced even when the
// writes that follow are not (NoSync), so a crash cannot lose it.
func (s *Store) markDirty() error {
	if s.marked.Load() {
		return nil
	}
	s.markMu.Lock()
	defer s.markMu.Unlock()
	if s.marked.Load() {
		return nil
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyDirty, []byte("1"))
	}); err != nil {
		return fmt.Errorf("mark %s in use: %w", s.path, s.commitFailed(err))
	}
	if s.db.NoSync {
		if err := s.db.Sync(); err != nil {
			return fmt.Errorf("mark %s in use: sync: %w", s.path, err)
		}
	}
	s.marked.Store(true)
	return nil
}

func (s *Store) sharedState(name string, mk func() any) any {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if v, ok := s.state[name]; ok {
		return v
	}
	if s.state == nil {
		s.state = map[string]any{}
	}
	v := mk()
	s.state[name] = v
	return v
}

// DefaultPath returns the knowledge base path for a workspace:
// os.UserCacheDir()/mrpvm/<hash of the absolute workspace path>/kb.db.
func DefaultPath(workspace string) (string, error) {
	abs, err := filepath.Abs(workspace)
	if err != nil {
		return "", fmt.Errorf("workspace path %s: %w", workspace, err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("user cache directory: %w", err)
	}
	sum := sha256.Sum256([]byte(filepath.Clean(abs)))
	return filepath.Join(cache, "mrpvm", hex.EncodeToString(sum[:8]), "kb.db"), nil
}

// DeferSync lets the following write transactions skip their fsync until
// Flush: a run that commits many sources pays one sync at the end instead
// of one per transaction. A crash before Flush can lose those
// transactions, never the dirty mark (markDirty syncs it), so the next open
// checks the whole file.
func (s *Store) DeferSync() { s.db.NoSync = true }

// Flush ends DeferSync: commits are durable again, and what the deferred
// ones left in the page cache is synced.
func (s *Store) Flush() error {
	if !s.db.NoSync {
		return nil
	}
	s.db.NoSync = false
	if err := s.db.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", s.path, err)
	}
	return nil
}

// ReadOnly reports whether the file was opened for reading only: every
// write fails with CodeReadOnly.
func (s *Store) ReadOnly() bool { return s.opt.ReadOnly }

// Path returns the file's path.
func (s *Store) Path() string { return s.path }

// Close syncs, marks a clean shutdown and closes the file.
func (s *Store) Close() error {
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	if s.db == nil {
		return nil
	}
	var errs []error
	// A broken store keeps its dirty mark: the next open checks every page.
	// So does one whose last write fails, inside bbolt too (guard).
	if !s.db.IsReadOnly() && s.marked.Load() && s.broken.Load() == nil {
		s.db.NoSync = false
		errs = append(errs, s.guard(func() error {
			return s.db.Update(func(tx *bolt.Tx) error {
				return tx.Bucket(bucketMeta).Delete(keyDirty)
			})
		}))
	}
	errs = append(errs, s.db.Close())
	s.db = nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close %s: %w", s.path, err)
	}
	return nil
}
