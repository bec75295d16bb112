package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteLaysOutNestedFiles(t *testing.T) {
	root := Write(t, "-- a.md --\n# A\n-- docs/sub/b.md --\nbody\n")
	for name, want := range map[string]string{"a.md": "# A\n", "docs/sub/b.md": "body\n"} {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

func TestWriteFileReadsTheArchive(t *testing.T) {
	arch := filepath.Join(t.TempDir(), "ws.txtar")
	if err := os.WriteFile(arch, []byte("-- x/y.md --\nY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(WriteFile(t, arch), "x", "y.md"))
	if err != nil || string(got) != "Y\n" {
		t.Fatalf("x/y.md = %q, %v", got, err)
	}
}
