package testtree

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// Write writes the files of the txtar archive into a new temporary folder
// of tb and returns the folder. Names are slash-separated paths relative
// to the folder; missing parent folders are created.
func Write(tb testing.TB, archive string) string {
	tb.Helper()
	return unpack(tb, txtar.Parse([]byte(archive)))
}

// Unpack is Write for the archive in the file path.
func Unpack(tb testing.TB, path string) string {
	tb.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return unpack(tb, a)
}

func unpack(tb testing.TB, a *txtar.Archive) string {
	tb.Helper()
	root := tb.TempDir()
	for _, f := range a.Files {
		WriteFile(tb, filepath.Join(root, filepath.FromSlash(f.Name)), string(f.Data))
	}
	return root
}

// WriteFiles writes each of files, a slash-separated path relative to root
// and its text, below root.
func WriteFiles(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for name, text := range files {
		WriteFile(tb, filepath.Join(root, filepath.FromSlash(name)), text)
	}
}

// WriteFile writes text to the file path (mode 0644), creating its missing
// parent folders; the test fails when it cannot.
func WriteFile(tb testing.TB, path, text string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}
