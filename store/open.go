package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Open opens (creating if needed) the knowledge base file at path.
// A file locked by another process fails within LockTimeout with CodeLocked;
// a damaged file fails with CodeCorrupt unless Rebuild is set.
func Open(path string, opt Options) (*Store, error) {
	if opt.LockTimeout <= 0 {
		opt.LockTimeout = time.Second
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, &Error{Code: CodeOpen, Path: path, Err: err}
	}
	s := &Store{path: path, opt: opt}
	fi, statErr := os.Stat(path)
	if statErr == nil && !fi.Mode().IsRegular() {
		return nil, &Error{Code: CodeOpen, Path: path, Err: fmt.Errorf("not a regular file (%s)", fi.Mode().Type())}
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
	// The lock is held now: no other process writes the file while its
	// page links are checked, before bbolt follows any of them.
	if err := checkPageGraph(path, false); err != nil {
		db.Close()
		return nil, &Error{Code: CodeCorrupt, Path: path, Err: err}
	}
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

func openBolt(path string, opt Options) (db *bolt.DB, err error) {
	if err := checkTruncation(path); err != nil {
		return nil, err
	}
	// A damaged file can make bbolt panic while reading its meta pages, or
	// read past the mapping while loading a freelist whose count is
	// damaged: a memory fault, which is made a panic here so that it is
	// recovered as one.
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	// The freelist is synced: without it every read-write open rebuilds it
	// by walking every page of the file, which faults the whole file into
	// memory (docs/performance.md, Opening the file).
	return bolt.Open(path, 0o644, &bolt.Options{
		Timeout:      opt.LockTimeout,
		ReadOnly:     opt.ReadOnly,
		FreelistType: bolt.FreelistMapType,
	})
}

func classifyOpenError(path string, err error) error {
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return &Error{Code: CodeLocked, Path: path, Err: err}
	case errors.Is(err, os.ErrPermission):
		return &Error{Code: CodeOpen, Path: path, Err: err}
	case errors.Is(err, ErrCorrupt), errors.Is(err, bolterrors.ErrInvalid),
		errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, bolterrors.ErrChecksum):
		return &Error{Code: CodeCorrupt, Path: path, Err: err}
	default:
		// bbolt reports a file too short to hold its meta pages as a plain error.
		if fi, statErr := os.Stat(path); statErr == nil && fi.Size() > 0 {
			return &Error{Code: CodeCorrupt, Path: path, Err: err}
		}
		return &Error{Code: CodeOpen, Path: path, Err: err}
	}
}

// checkIntegrity detects truncation cheaply on every open and walks the whole
// file after an unclean shutdown. Faults on a damaged mapping become errors.
func (s *Store) checkIntegrity() (err error) {
	fi, statErr := os.Stat(s.path)
	if statErr != nil {
		return &Error{Code: CodeOpen, Path: s.path, Err: statErr}
	}
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			err = &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("%v", r)}
		}
	}()
	return s.view(func(tx *bolt.Tx) error {
		if tx.Size() > fi.Size() {
			return &Error{Code: CodeCorrupt, Path: s.path,
				Err: fmt.Errorf("file is %d bytes but its pages need %d (truncated)", fi.Size(), tx.Size())}
		}
		meta := tx.Bucket(bucketMeta)
		if meta == nil || meta.Get(keyDirty) == nil {
			return nil
		}
		if err := checkPageGraph(s.path, true); err != nil {
			return &Error{Code: CodeCorrupt, Path: s.path, Err: err}
		}
		if err := checkTx(tx); err != nil {
			return &Error{Code: CodeCorrupt, Path: s.path, Err: err}
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
		ready = bytes.Equal(meta.Get(keySchema), schemaTag) && meta.Get(keyDirty) == nil
		return nil
	}); err != nil {
		if errors.Is(err, ErrCorrupt) {
			return false, err
		}
		return false, &Error{Code: CodeOpen, Path: s.path, Err: err}
	}
	if ready {
		return false, nil
	}
	s.marked.Store(true) // this transaction marks the file
	err = s.guard(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			if meta := tx.Bucket(bucketMeta); meta != nil {
				if v := meta.Get(keySchema); v != nil && !bytes.Equal(v, schemaTag) {
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
			if err := meta.Put(keySchema, schemaTag); err != nil {
				return err
			}
			return meta.Put(keyDirty, []byte("1"))
		})
	})
	if errors.Is(err, ErrCorrupt) {
		return false, err
	}
	if err != nil {
		return false, &Error{Code: CodeOpen, Path: s.path, Err: err}
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
		return &Error{Code: CodeOpen, Path: s.path, Err: fmt.Errorf("move aside for rebuild: %w", err)}
	}
	defer f.Close() // releases the lock, after the rename
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return &Error{Code: CodeOpen, Path: s.path, Err: errors.New("move aside for rebuild: not a regular file")}
	}
	if err := lockExclusive(f, s.opt.LockTimeout); err != nil {
		if errors.Is(err, errLockHeld) {
			return &Error{Code: CodeLocked, Path: s.path, Err: err}
		}
		return &Error{Code: CodeOpen, Path: s.path, Err: fmt.Errorf("lock for rebuild: %w", err)}
	}
	aside := fmt.Sprintf("%s.corrupt-%s", s.path, time.Now().UTC().Format("20060102T150405"))
	if err := os.Rename(s.path, aside); err != nil {
		return &Error{Code: CodeOpen, Path: s.path, Err: fmt.Errorf("move aside for rebuild: %w", err)}
	}
	s.MovedAside = aside
	return nil
}

// errLockHeld is the cause of CodeLocked when another process holds the
// file's lock.
var errLockHeld = errors.New("the file lock is held by another process")

// checkWritable fails with CodeReadOnly when the existing file at path
// cannot be opened for writing: such a file is healthy, and only a
// read-only open (Options.ReadOnly) can use it.
func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		return f.Close()
	}
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return &Error{Code: CodeReadOnly, Path: path, Err: err}
	}
	return nil // bbolt reports anything else
}
