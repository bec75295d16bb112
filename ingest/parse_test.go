package ingest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrpvm/mrpvm/internal/fsafe"
)

// TestReadCapped reads a source at and over the limit, and reports a
// missing file as fs.ErrNotExist and a folder as not regular (the buffer
// handling is tested in internal/fsafe).
func TestReadCapped(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	want := bytes.Repeat([]byte("abcdefghij"), 10)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := readCapped(p, 100); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("at the limit: %d bytes, %v", len(got), err)
	}
	if _, err := readCapped(p, 99); !errors.Is(err, errTooLarge) {
		t.Fatalf("over the limit: %v, want errTooLarge", err)
	}
	if _, err := readCapped(filepath.Join(dir, "missing.md"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	if _, err := readCapped(dir, 100); !errors.Is(err, fsafe.ErrNotRegular) {
		t.Fatalf("reading a folder: %v, want fsafe.ErrNotRegular", err)
	}
}
