package store

import (
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// Snapshot writes a consistent copy of the knowledge base to path (a new
// file) from one read transaction, so it can run while ingest commits.
func (s *Store) Snapshot(path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("snapshot %s: file exists", path)
	}
	err := s.view(func(tx *bolt.Tx) error { return tx.CopyFile(path, 0o644) })
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	return nil
}

// CopySnapshot writes a copy of the snapshot file at src to dst (a new
// file), for a caller that serves and changes the copy: a loaded snapshot
// stays as it was saved. The snapshot is opened read-only, so a damaged
// one fails here (CodeCorrupt) rather than when it is served.
func CopySnapshot(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return &Error{Code: CodeOpen, Path: src, Err: err}
	}
	if !fi.Mode().IsRegular() {
		return &Error{Code: CodeOpen, Path: src, Err: fmt.Errorf("not a regular file (%s)", fi.Mode().Type())}
	}
	s, err := Open(src, Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Snapshot(dst)
}
