package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

func readAll(t *testing.T, root string, want map[string]string) {
	t.Helper()
	for name, text := range want {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != text {
			t.Errorf("%s = %q, want %q", name, got, text)
		}
	}
}

func TestWriteLaysOutNestedFiles(t *testing.T) {
	root := Write(t, "-- a.md --\n# A\n-- docs/sub/b.md --\nbody\n")
	readAll(t, root, map[string]string{"a.md": "# A\n", "docs/sub/b.md": "body\n"})
}

func TestUnpackReadsTheArchive(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "ws.txtar")
	WriteFile(t, arch, "-- x/y.md --\nY\n")
	readAll(t, Unpack(t, arch), map[string]string{"x/y.md": "Y\n"})
}

func TestWriteFilesBelowAnExistingFolder(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"top.md": "T", "deep/er/x.md": "X"}
	WriteFiles(t, root, files)
	readAll(t, root, files)
}
