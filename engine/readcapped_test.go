package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestReadCapped reads files around the limit and around the scratch
// buffer's size, and reports a missing file as fs.ErrNotExist.
func TestReadCapped(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) (string, []byte) {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p, b
	}
	for _, tc := range []struct {
		size, limit int
		tooLarge    bool
	}{
		{0, 100, false}, {1, 100, false}, {100, 100, false}, {101, 100, true},
		{readBufSize - 1, 1 << 30, false}, {readBufSize, 1 << 30, false}, {readBufSize + 1, 1 << 30, false},
		{3*readBufSize + 7, 1 << 30, false}, {3 * readBufSize, 3*readBufSize - 1, true},
		{2*maxReadBuf + 5, 1 << 30, false}, {10, 10, false},
	} {
		p, want := write("f.md", tc.size)
		for round := 0; round < 2; round++ { // the second read reuses a pooled buffer
			got, err := readCapped(p, int64(tc.limit))
			if tc.tooLarge {
				if !errors.Is(err, errTooLarge) {
					t.Fatalf("size %d limit %d: err %v, want errTooLarge", tc.size, tc.limit, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("size %d limit %d: %v", tc.size, tc.limit, err)
			}
			if !bytes.Equal(got, want) || got == nil {
				t.Fatalf("size %d limit %d: read %d bytes, want %d", tc.size, tc.limit, len(got), len(want))
			}
		}
	}
	if _, err := readCapped(filepath.Join(dir, "missing.md"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	if _, err := readCapped(dir, 100); err == nil {
		t.Fatal("reading a folder did not fail")
	}
}
