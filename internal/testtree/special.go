package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Link makes path a symbolic link to target, creating path's missing
// parent folders; the test fails when it cannot.
func Link(tb testing.TB, target, path string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		tb.Fatal(err)
	}
}

// LinkDevZero makes path a symbolic link to /dev/zero, a file without end,
// when the system has one, and reports whether it did.
func LinkDevZero(tb testing.TB, path string) bool {
	tb.Helper()
	if _, err := os.Stat("/dev/zero"); err != nil {
		return false
	}
	Link(tb, "/dev/zero", path)
	return true
}
