package store

import (
	"path/filepath"
	"testing"
)

func TestSnapshotCopiesAConsistentFile(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "kb.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snap := filepath.Join(dir, "snap.db")
	if err := s.Snapshot(snap); err != nil {
		t.Fatal(err)
	}
	if err := s.Snapshot(snap); err == nil {
		t.Fatal("a second snapshot overwrote the first")
	}
	c, err := Open(snap, Options{})
	if err != nil {
		t.Fatalf("open snapshot: %v", err)
	}
	defer c.Close()
	src, units, err := c.Counts()
	if err != nil || src != 0 || units != 0 {
		t.Fatalf("snapshot counts: %d %d %v", src, units, err)
	}
}
