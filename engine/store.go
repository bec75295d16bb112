package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// SchemaVersion is the layout version of the knowledge base file. A file
// with another version is rebuilt from the workspace on open.
const SchemaVersion = 5 // 2: shared namespaces, stored counters; 3: stat bucket; 4: binary KUs; 5: KUs share text (kus.EncodeUnits)

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

// Stable error codes of the store.
const (
	CodeLocked  = "kb_locked"
	CodeCorrupt = "kb_corrupt"
	CodeOpen    = "kb_open_failed"
	// CodeReadOnly: the file cannot be written (its permissions, a
	// read-only file system); it can still be read.
	CodeReadOnly = "kb_read_only"
)

// StoreError is a failure to open or use the knowledge base file.
type StoreError struct {
	Code string
	Path string
	Err  error
}

func (e *StoreError) Error() string {
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

func (e *StoreError) Unwrap() error { return e.Err }

// ErrLocked, ErrCorrupt and ErrReadOnly can be matched with errors.Is.
var (
	ErrLocked   = errors.New("knowledge base locked")
	ErrCorrupt  = errors.New("knowledge base corrupt")
	ErrReadOnly = errors.New("knowledge base read-only")
)

// Is matches ErrLocked and ErrCorrupt (and sdk.ErrKBCorrupt, which the
// plugins see) by code.
func (e *StoreError) Is(target error) bool {
	return (target == ErrLocked && e.Code == CodeLocked) || (target == ErrReadOnly && e.Code == CodeReadOnly) ||
		((target == ErrCorrupt || target == sdk.ErrKBCorrupt) && e.Code == CodeCorrupt)
}

// SourceRecord is what the store keeps about one ingested source.
type SourceRecord struct {
	SourceID   string    `json:"sourceId"`
	Path       string    `json:"path,omitempty"` // absolute path; empty for built-in sources
	Size       int64     `json:"size"`
	ModTime    int64     `json:"modTime"` // unix nanoseconds
	Hash       string    `json:"hash"`    // hex SHA-256 of the text
	Title      string    `json:"title"`
	UnitIDs    []string  `json:"unitIds"`
	IngestedAt time.Time `json:"ingestedAt"`
}

// StoreOptions tune OpenStore.
type StoreOptions struct {
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
	opt    StoreOptions

	// marked is set once this process has marked the file dirty (keyDirty,
	// durably) for the writes it makes; Close clears the mark only then.
	// A run that writes nothing (an unchanged workspace's check) leaves the
	// file alone: no write transaction and no fdatasync at open or close.
	markMu sync.Mutex
	marked atomic.Bool

	// broken holds the error of a transaction that panicked on a damaged
	// page (guard); every later transaction fails with it.
	broken atomic.Pointer[StoreError]
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
		return &StoreError{Code: CodeReadOnly, Path: s.path, Err: errors.New("opened for reading only")}
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

// commitFailed classifies an error of bbolt's own commit (not of the
// transaction's code): bbolt allocates pages from the freelist stored in
// the file, and a damaged freelist makes it write at impossible offsets.
// The file's pages are checked then, and a damaged file is CodeCorrupt.
func (s *Store) commitFailed(err error) error {
	if errors.Is(err, ErrCorrupt) {
		return err
	}
	var problem error
	_ = s.guard(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			for cerr := range tx.Check() {
				if problem == nil {
					problem = cerr
				}
			}
			return nil
		})
	})
	if problem != nil {
		return &StoreError{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("%v; checking its pages: %v", err, problem)}
	}
	return err
}

// guard runs fn, a transaction, and turns a panic or a memory fault inside
// it into a CodeCorrupt error. bbolt trusts the bytes of its pages: a
// damaged branch or leaf page indexes out of range or fails an assertion;
// and the decoders of the stored records, the engine's and the plugins',
// run inside the same transactions. After a panic raised inside bbolt its
// own state (its locks, its freelist) cannot be trusted, so the store then
// refuses every later transaction with the same error until it is closed:
// the file has to be rebuilt.
func (s *Store) guard(fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if panicInBolt() {
				serr := &StoreError{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("reading a page failed: %v", r)}
				s.broken.CompareAndSwap(nil, serr)
				err = serr
				return
			}
			err = &StoreError{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("decoding a stored value failed: %v", r)}
		}
	}()
	return fn()
}

// brokenErr is the error of the panic that marked the store broken, if any.
func (s *Store) brokenErr() error {
	if e := s.broken.Load(); e != nil {
		return e
	}
	return nil
}

// corrupt reports a stored record that cannot be decoded.
func (s *Store) corrupt(err error) error {
	return &StoreError{Code: CodeCorrupt, Path: s.path, Err: err}
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

// DefaultDBPath returns the knowledge base path for a workspace:
// os.UserCacheDir()/mrpvm/<hash of the absolute workspace path>/kb.db.
func DefaultDBPath(workspace string) (string, error) {
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

// OpenStore opens (creating if needed) the knowledge base file at path.
// A file locked by another process fails within LockTimeout with CodeLocked;
// a damaged file fails with CodeCorrupt unless Rebuild is set.
func OpenStore(path string, opt StoreOptions) (*Store, error) {
	if opt.LockTimeout <= 0 {
		opt.LockTimeout = time.Second
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, &StoreError{Code: CodeOpen, Path: path, Err: err}
	}
	s := &Store{path: path, opt: opt}
	fi, statErr := os.Stat(path)
	if statErr == nil && !fi.Mode().IsRegular() {
		return nil, &StoreError{Code: CodeOpen, Path: path, Err: fmt.Errorf("not a regular file (%s)", fi.Mode().Type())}
	}
	if statErr == nil && !opt.ReadOnly {
		if err := checkWritable(path); err != nil {
			return nil, err
		}
	}
	if opt.Rebuild && !opt.ReadOnly {
		if err := s.moveAside(); err != nil {
			return nil, err
		}
	}
	_, statErr = os.Stat(path)
	fresh := errors.Is(statErr, os.ErrNotExist)
	db, err := openBolt(path, opt)
	if err != nil {
		return nil, classifyOpenError(path, err)
	}
	s.db = db
	if err := s.checkIntegrity(); err != nil {
		db.Close()
		return nil, err
	}
	if opt.ReadOnly {
		return s, nil
	}
	rebuilt, err := s.prepare()
	if err != nil {
		db.Close()
		return nil, err
	}
	s.Rebuilt = fresh || rebuilt || s.MovedAside != ""
	return s, nil
}

func openBolt(path string, opt StoreOptions) (db *bolt.DB, err error) {
	if err := checkTruncation(path); err != nil {
		return nil, err
	}
	defer func() {
		// A damaged file can make bbolt panic while reading its meta pages.
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	// The freelist is synced: without it every read-write open rebuilds it
	// by walking every page of the file, which faults the whole file into
	// memory (1.1 GB of resident pages for a 51,830-file workspace before a
	// single query ran).
	return bolt.Open(path, 0o644, &bolt.Options{
		Timeout:      opt.LockTimeout,
		ReadOnly:     opt.ReadOnly,
		FreelistType: bolt.FreelistMapType,
	})
}

func classifyOpenError(path string, err error) error {
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return &StoreError{Code: CodeLocked, Path: path, Err: err}
	case errors.Is(err, os.ErrPermission):
		return &StoreError{Code: CodeOpen, Path: path, Err: err}
	case errors.Is(err, ErrCorrupt), errors.Is(err, bolterrors.ErrInvalid),
		errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, bolterrors.ErrChecksum):
		return &StoreError{Code: CodeCorrupt, Path: path, Err: err}
	default:
		// bbolt reports a file too short to hold its meta pages as a plain error.
		if fi, statErr := os.Stat(path); statErr == nil && fi.Size() > 0 {
			return &StoreError{Code: CodeCorrupt, Path: path, Err: err}
		}
		return &StoreError{Code: CodeOpen, Path: path, Err: err}
	}
}

// checkIntegrity detects truncation cheaply on every open and walks the whole
// file after an unclean shutdown. Faults on a damaged mapping become errors.
func (s *Store) checkIntegrity() (err error) {
	fi, statErr := os.Stat(s.path)
	if statErr != nil {
		return &StoreError{Code: CodeOpen, Path: s.path, Err: statErr}
	}
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			err = &StoreError{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("%v", r)}
		}
	}()
	return s.view(func(tx *bolt.Tx) error {
		if tx.Size() > fi.Size() {
			return &StoreError{Code: CodeCorrupt, Path: s.path,
				Err: fmt.Errorf("file is %d bytes but its pages need %d (truncated)", fi.Size(), tx.Size())}
		}
		meta := tx.Bucket(bucketMeta)
		if meta == nil || meta.Get(keyDirty) == nil {
			return nil
		}
		for cerr := range tx.Check() {
			return &StoreError{Code: CodeCorrupt, Path: s.path, Err: cerr}
		}
		return nil
	})
}

// prepare creates the buckets, rebuilds on a schema mismatch and marks the
// file dirty until Close. A file that is already in shape (current schema,
// every bucket, no dirty mark left by an unclean shutdown) is only read:
// the first write marks it dirty (markDirty).
func (s *Store) prepare() (rebuilt bool, err error) {
	ready := false
	if err := s.view(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				return nil
			}
		}
		meta := tx.Bucket(bucketMeta)
		ready = string(meta.Get(keySchema)) == strconv.Itoa(SchemaVersion) && meta.Get(keyDirty) == nil
		return nil
	}); err != nil {
		if errors.Is(err, ErrCorrupt) {
			return false, err
		}
		return false, &StoreError{Code: CodeOpen, Path: s.path, Err: err}
	}
	if ready {
		return false, nil
	}
	s.marked.Store(true) // this transaction marks the file
	err = s.guard(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			if meta := tx.Bucket(bucketMeta); meta != nil {
				if v := meta.Get(keySchema); v != nil && string(v) != strconv.Itoa(SchemaVersion) {
					rebuilt = true
					for _, name := range allBuckets {
						if tx.Bucket(name) != nil {
							if err := tx.DeleteBucket(name); err != nil {
								return err
							}
						}
					}
				}
			}
			for _, name := range allBuckets {
				if _, err := tx.CreateBucketIfNotExists(name); err != nil {
					return err
				}
			}
			meta := tx.Bucket(bucketMeta)
			if err := meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion))); err != nil {
				return err
			}
			return meta.Put(keyDirty, []byte("1"))
		})
	})
	if errors.Is(err, ErrCorrupt) {
		return false, err
	}
	if err != nil {
		return false, &StoreError{Code: CodeOpen, Path: s.path, Err: err}
	}
	return rebuilt, nil
}

// moveAside renames the file at s.path out of the way of a rebuild. It
// takes the file's lock first, as bbolt does on open, so the file of a
// running mrpvm (a language server) is never moved from under it: that
// fails with CodeLocked.
func (s *Store) moveAside() error {
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &StoreError{Code: CodeOpen, Path: s.path, Err: fmt.Errorf("move aside for rebuild: %w", err)}
	}
	defer f.Close() // releases the lock, after the rename
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return &StoreError{Code: CodeOpen, Path: s.path, Err: errors.New("move aside for rebuild: not a regular file")}
	}
	if err := lockExclusive(f, s.opt.LockTimeout); err != nil {
		if errors.Is(err, errLockHeld) {
			return &StoreError{Code: CodeLocked, Path: s.path, Err: err}
		}
		return &StoreError{Code: CodeOpen, Path: s.path, Err: fmt.Errorf("lock for rebuild: %w", err)}
	}
	aside := fmt.Sprintf("%s.corrupt-%s", s.path, time.Now().UTC().Format("20060102T150405"))
	if err := os.Rename(s.path, aside); err != nil {
		return &StoreError{Code: CodeOpen, Path: s.path, Err: fmt.Errorf("move aside for rebuild: %w", err)}
	}
	s.MovedAside = aside
	return nil
}

// errLockHeld is the cause of CodeLocked when another process holds the
// file's lock.
var errLockHeld = errors.New("the file lock is held by another process")

// checkWritable fails with CodeReadOnly when the existing file at path
// cannot be opened for writing: such a file is healthy, and only a
// read-only open (StoreOptions.ReadOnly) can use it.
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		return f.Close()
	}
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return &StoreError{Code: CodeReadOnly, Path: path, Err: err}
	}
	return nil // bbolt reports anything else
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
	if !s.db.IsReadOnly() && s.marked.Load() && s.broken.Load() == nil {
		s.db.NoSync = false
		errs = append(errs, s.db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketMeta).Delete(keyDirty)
		}))
	}
	errs = append(errs, s.db.Close())
	s.db = nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close %s: %w", s.path, err)
	}
	return nil
}

// PluginStore returns the private namespace of plugin id.
func (s *Store) PluginStore(id string) sdk.Store {
	return pluginStore{s: s, id: id}
}

// Source returns the record of one source, or nil.
func (s *Store) Source(id string) (*SourceRecord, error) {
	var rec *SourceRecord
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		rec, err = getSource(tx, id)
		return err
	})
	return rec, err
}

// Sources returns every source record, sorted by id.
func (s *Store) Sources() ([]*SourceRecord, error) {
	var out []*SourceRecord
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSources).ForEach(func(k, v []byte) error {
			rec := new(SourceRecord)
			if err := json.Unmarshal(v, rec); err != nil {
				return s.corrupt(fmt.Errorf("source %q: undecodable record: %w", k, err))
			}
			out = append(out, rec)
			return nil
		})
	})
	return out, err
}

// KU returns one unit by id, or nil.
func (s *Store) KU(id string) (*kus.KU, error) {
	var ku *kus.KU
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		ku, err = getKU(tx, id)
		return err
	})
	return ku, err
}

// SourceKUs returns the units of one source in document order.
func (s *Store) SourceKUs(sourceID string) ([]*kus.KU, error) {
	var out []*kus.KU
	err := s.view(func(tx *bolt.Tx) error {
		rec, err := getSource(tx, sourceID)
		if err != nil || rec == nil {
			return err
		}
		for _, id := range rec.UnitIDs {
			ku, err := getKU(tx, id)
			if err != nil {
				return err
			}
			if ku != nil {
				out = append(out, ku)
			}
		}
		return nil
	})
	return out, err
}

// Stats summarises the knowledge base.
type Stats struct {
	Sources    int            `json:"sources"`
	KUs        int            `json:"kus"`
	KUsByLevel map[string]int `json:"kusByLevel"`
	Plugins    []string       `json:"pluginIndexes"`
	DBBytes    int64          `json:"dbBytes"`
	DBPath     string         `json:"dbPath"`
}

// Stats counts sources and KUs by level.
func (s *Store) Stats() (*Stats, error) {
	st := &Stats{KUsByLevel: map[string]int{}, DBPath: s.path}
	err := s.view(func(tx *bolt.Tx) error {
		st.Sources = tx.Bucket(bucketSources).Stats().KeyN
		kusB := tx.Bucket(bucketKUs)
		get := func(id string) []byte { return kusB.Get([]byte(id)) }
		if err := kusB.ForEach(func(k, v []byte) error {
			var probe kus.KU
			if err := probe.UnmarshalBinaryFrom(v, get); err != nil {
				return s.corrupt(fmt.Errorf("ku %q: %w", k, err))
			}
			st.KUs++
			st.KUsByLevel[probe.Level]++
			return nil
		}); err != nil {
			return err
		}
		return tx.Bucket(bucketPlugins).ForEachBucket(func(k []byte) error {
			st.Plugins = append(st.Plugins, string(k))
			return nil
		})
	})
	sort.Strings(st.Plugins)
	if fi, statErr := os.Stat(s.path); statErr == nil {
		st.DBBytes = fi.Size()
	}
	return st, err
}

func getSource(tx *bolt.Tx, id string) (*SourceRecord, error) {
	v := tx.Bucket(bucketSources).Get([]byte(id))
	if v == nil {
		return nil, nil
	}
	rec := new(SourceRecord)
	if err := json.Unmarshal(v, rec); err != nil {
		return nil, &StoreError{Code: CodeCorrupt, Path: tx.DB().Path(), Err: fmt.Errorf("source %q: undecodable record: %w", id, err)}
	}
	return rec, nil
}

// getKU reads one KU; the fields it shares with other KUs of its source
// are read from them in the same transaction.
func getKU(tx *bolt.Tx, id string) (*kus.KU, error) {
	b := tx.Bucket(bucketKUs)
	v := b.Get([]byte(id))
	if v == nil {
		return nil, nil
	}
	ku := new(kus.KU)
	if err := ku.UnmarshalBinaryFrom(v, func(id string) []byte { return b.Get([]byte(id)) }); err != nil {
		return nil, &StoreError{Code: CodeCorrupt, Path: tx.DB().Path(), Err: fmt.Errorf("ku %q: %w", id, err)}
	}
	return ku, nil
}

// txKUReader reads KUs inside one transaction.
type txKUReader struct{ tx *bolt.Tx }

func (r txKUReader) KU(id string) (*kus.KU, error) { return getKU(r.tx, id) }

// Verify checks that the knowledge base is consistent: every source's KUs
// exist and every KU belongs to a recorded source. It returns the problems found.
func (s *Store) Verify() ([]string, error) {
	var problems []string
	err := s.view(func(tx *bolt.Tx) error {
		owned := map[string]bool{}
		if err := tx.Bucket(bucketSources).ForEach(func(k, v []byte) error {
			var rec SourceRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				problems = append(problems, fmt.Sprintf("source %s: undecodable record: %v", k, err))
				return nil
			}
			for _, id := range rec.UnitIDs {
				owned[id] = true
				if tx.Bucket(bucketKUs).Get([]byte(id)) == nil {
					problems = append(problems, fmt.Sprintf("source %s: missing KU %s", rec.SourceID, id))
				}
			}
			return nil
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketKUs).ForEach(func(k, _ []byte) error {
			if !owned[string(k)] {
				problems = append(problems, fmt.Sprintf("KU %s belongs to no source", k))
			}
			return nil
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketStat).ForEach(func(k, _ []byte) error {
			if tx.Bucket(bucketSources).Get(k) == nil {
				problems = append(problems, fmt.Sprintf("stat of %s belongs to no source", k))
			}
			return nil
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketSources).ForEach(func(k, _ []byte) error {
			if tx.Bucket(bucketStat).Get(k) == nil {
				problems = append(problems, fmt.Sprintf("source %s has no stat", k))
			}
			return nil
		}); err != nil {
			return err
		}
		c, err := readCounts(tx)
		if err != nil {
			return err
		}
		if n := tx.Bucket(bucketSources).Stats().KeyN; int64(n) != c.sources {
			problems = append(problems, fmt.Sprintf("source counter says %d, the bucket holds %d", c.sources, n))
		}
		if n := tx.Bucket(bucketKUs).Stats().KeyN; int64(n) != c.units {
			problems = append(problems, fmt.Sprintf("KU counter says %d, the bucket holds %d", c.units, n))
		}
		return nil
	})
	return problems, err
}

// checkTruncation reads the two bbolt meta pages and fails with ErrCorrupt
// when the newest valid one describes more pages than the file holds. bbolt
// would otherwise fault while scanning the missing pages on a goroutine of
// its own, where the fault cannot be recovered. Files whose meta pages are
// both invalid are left to bbolt, which reports them as invalid.
func checkTruncation(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // absent: bbolt creates it; other errors surface from bolt.Open
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil
	}
	const metaOffset = 16 // page header
	buf := make([]byte, 4096)
	var best *boltMeta
	for i := 0; i < 2; i++ {
		off := int64(0)
		if i == 1 {
			if best == nil {
				// Page size unknown: try the common sizes for the second meta.
				for _, ps := range []int64{4096, 8192, 16384, 65536} {
					if m := readMeta(f, ps, buf); m != nil {
						best = newerMeta(best, m)
						break
					}
				}
				continue
			}
			off = int64(best.pageSize)
		}
		if m := readMeta(f, off, buf); m != nil {
			best = newerMeta(best, m)
		}
	}
	if best == nil {
		return nil
	}
	if need := int64(best.pgid) * int64(best.pageSize); need > fi.Size() {
		return fmt.Errorf("%w: file is %d bytes but its pages need %d (truncated)", ErrCorrupt, fi.Size(), need)
	}
	return nil
}

// boltMeta is the part of a bbolt meta page the truncation check needs.
type boltMeta struct {
	pageSize uint32
	pgid     uint64
	txid     uint64
}

func newerMeta(a, b *boltMeta) *boltMeta {
	if a == nil || b.txid > a.txid {
		return b
	}
	return a
}

// readMeta decodes and checksums the meta page at off, or returns nil.
func readMeta(f *os.File, off int64, buf []byte) *boltMeta {
	n, _ := f.ReadAt(buf[:80], off)
	if n < 80 {
		return nil
	}
	m := buf[16:80]
	le := binary.LittleEndian
	if le.Uint32(m[0:4]) != 0xED0CDAED || le.Uint32(m[4:8]) != 2 {
		return nil
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != le.Uint64(m[56:64]) {
		return nil
	}
	ps := le.Uint32(m[8:12])
	if ps < 512 || ps > 1<<20 {
		return nil
	}
	return &boltMeta{pageSize: ps, pgid: le.Uint64(m[40:48]), txid: le.Uint64(m[48:56])}
}

// Counts returns the number of sources and KUs from the counters the
// commits keep in the meta bucket: no page of the sources or KUs is read.
func (s *Store) Counts() (sources, units int, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		c, err := readCounts(tx)
		sources, units = int(c.sources), int(c.units)
		return err
	})
	return sources, units, err
}

// counts are the stored number of sources and KUs (or a change to them).
type counts struct{ sources, units int64 }

var keyCounts = []byte("counts")

func readCounts(tx *bolt.Tx) (counts, error) {
	var c counts
	v := tx.Bucket(bucketMeta).Get(keyCounts)
	if v == nil {
		return c, nil
	}
	var n1, n2 int
	c.sources, n1 = binary.Varint(v)
	if n1 > 0 {
		c.units, n2 = binary.Varint(v[n1:])
	}
	if n1 <= 0 || n2 <= 0 || c.sources < 0 || c.units < 0 {
		return counts{}, &StoreError{Code: CodeCorrupt, Path: tx.DB().Path(), Err: errors.New("undecodable source and KU counters")}
	}
	return c, nil
}

// addCounts adds d to the stored counters inside a write transaction.
func addCounts(tx *bolt.Tx, d counts) error {
	if d == (counts{}) {
		return nil
	}
	c, err := readCounts(tx)
	if err != nil {
		return err
	}
	c.sources += d.sources
	c.units += d.units
	v := binary.AppendVarint(binary.AppendVarint(nil, c.sources), c.units)
	return tx.Bucket(bucketMeta).Put(keyCounts, v)
}

// encodeKU is the stored form of a KU.
func encodeKU(u *kus.KU) ([]byte, error) {
	v, err := u.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encode ku %s: %w", u.ID, err)
	}
	return v, nil
}

// encodeKUs encodes a source's units, sharing the text they repeat
// (kus.EncodeUnits): they are stored and deleted together.
func encodeKUs(units []*kus.KU) [][]byte {
	return kus.EncodeUnits(units)
}

// fileStat is what the ingest check compares to decide a file is unchanged.
type fileStat struct {
	size, modTime int64
}

// putFileStat records rec's size and mtime in the stat bucket.
func putFileStat(tx *bolt.Tx, rec *SourceRecord) error {
	b := tx.Bucket(bucketStat)
	b.FillPercent = appendFill
	v := binary.AppendVarint(binary.AppendVarint(make([]byte, 0, 16), rec.Size), rec.ModTime)
	if err := b.Put([]byte(rec.SourceID), v); err != nil {
		return fmt.Errorf("store stat of %s: %w", rec.SourceID, err)
	}
	return nil
}

// statEntry is one source's stored size and mtime.
type statEntry struct {
	id string
	fileStat
}

// fileStatList returns the size and mtime of every source sorted by source
// id (bytewise, as bbolt keeps them). The ids are substrings of one string
// made for the whole list: a workspace of 50,000 files costs two
// allocations, not 50,000 map entries.
func (s *Store) fileStatList() ([]statEntry, error) {
	var out []statEntry
	err := s.view(func(tx *bolt.Tx) error {
		c, err := readCounts(tx) // a size hint: the sources stored
		if err != nil {
			c = counts{}
		}
		type entry struct {
			end int
			fileStat
		}
		n := int(min(c.sources, 1<<24))
		keys := make([]byte, 0, 32*n)
		ents := make([]entry, 0, n)
		err = tx.Bucket(bucketStat).ForEach(func(k, v []byte) error {
			size, n1 := binary.Varint(v)
			if n1 <= 0 {
				return &StoreError{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("stat of source %s undecodable", k)}
			}
			mt, n2 := binary.Varint(v[n1:])
			if n2 <= 0 {
				return &StoreError{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("stat of source %s undecodable", k)}
			}
			keys = append(keys, k...)
			ents = append(ents, entry{end: len(keys), fileStat: fileStat{size: size, modTime: mt}})
			return nil
		})
		if err != nil {
			return err
		}
		all, start := string(keys), 0
		out = make([]statEntry, len(ents))
		for i, e := range ents {
			out[i] = statEntry{id: all[start:e.end], fileStat: e.fileStat}
			start = e.end
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read source stats: %w", err)
	}
	return out, nil
}
