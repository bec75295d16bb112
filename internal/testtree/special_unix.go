//go:build unix

package testtree

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// FIFO makes a named pipe at path (mode 0644), creating its missing parent
// folders; the test fails when it cannot. Opening it for reading blocks
// until a writer comes.
func FIFO(tb testing.TB, path string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		tb.Fatal(err)
	}
}
