package engine

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
