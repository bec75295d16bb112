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
	return write(tb, txtar.Parse([]byte(archive)))
}

// WriteFile is Write for the archive in the file path.
func WriteFile(tb testing.TB, path string) string {
	tb.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return write(tb, a)
}

func write(tb testing.TB, a *txtar.Archive) string {
	tb.Helper()
	root := tb.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}
