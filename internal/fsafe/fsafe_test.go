package fsafe

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrpvm/mrpvm/internal/testtree"
)

func write(t *testing.T, p string, b []byte) { testtree.WriteFile(t, p, string(b)) }

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// TestRootReadFile reads through the root's own symlinks and refuses the
// ones leading out, folders, files over the cap and missing files.
func TestRootReadFile(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	secret := filepath.Join(base, "secret.txt")
	write(t, secret, []byte("TOP SECRET"))
	write(t, filepath.Join(ws, "docs", "a.md"), []byte("# A\n"))
	write(t, filepath.Join(ws, "big.md"), bytes.Repeat([]byte("x"), 101))
	symlink(t, "docs/a.md", filepath.Join(ws, "inside.md"))
	symlink(t, "docs", filepath.Join(ws, "docs2"))
	symlink(t, secret, filepath.Join(ws, "key.md"))
	symlink(t, "../secret.txt", filepath.Join(ws, "rel.md"))
	symlink(t, base, filepath.Join(ws, "up"))
	symlink(t, filepath.Join(ws, "key.md"), filepath.Join(ws, "chain.md"))

	r, err := NewRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"docs/a.md", "inside.md", "docs2/a.md"} {
		b, err := r.ReadFile(filepath.Join(ws, p), 100)
		if err != nil || string(b) != "# A\n" {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	for _, p := range []string{"key.md", "rel.md", "up/secret.txt", "chain.md"} {
		b, err := r.ReadFile(filepath.Join(ws, p), 100)
		if !errors.Is(err, ErrOutsideRoot) || Code(err) != CodeOutsideRoot || b != nil {
			t.Errorf("%s: %q, %v; want %s", p, b, err, CodeOutsideRoot)
		}
	}
	if _, err := r.ReadFile(filepath.Join(ws, "docs"), 100); Code(err) != CodeNotRegular {
		t.Errorf("folder: %v", err)
	}
	if _, err := r.ReadFile(filepath.Join(ws, "big.md"), 100); Code(err) != CodeTooLarge {
		t.Errorf("big: %v", err)
	}
	if _, err := r.ReadFile(filepath.Join(ws, "none.md"), 100); !errors.Is(err, fs.ErrNotExist) || Code(err) != "" {
		t.Errorf("missing: %v", err)
	}
	// Without a root only the kind and the size are checked.
	if b, err := ReadFile("", filepath.Join(ws, "key.md"), 100); err != nil || string(b) != "TOP SECRET" {
		t.Errorf("unconfined: %q, %v", b, err)
	}
	if _, err := ReadFile(ws, filepath.Join(ws, "key.md"), 100); Code(err) != CodeOutsideRoot {
		t.Errorf("confined by name: %v", err)
	}
}

// TestReadRegular reads files around the limit and around the scratch
// buffer's size, and refuses folders.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		size, limit int
		tooLarge    bool
	}{
		{0, 100, false}, {1, 100, false}, {100, 100, false}, {101, 100, true},
		{readBufSize - 1, 1 << 30, false}, {readBufSize, 1 << 30, false}, {readBufSize + 1, 1 << 30, false},
		{3*readBufSize + 7, 1 << 30, false}, {3 * readBufSize, 3*readBufSize - 1, true},
		{2*maxReadBuf + 5, 1 << 30, false}, {10, 10, false},
	} {
		want := make([]byte, tc.size)
		for i := range want {
			want[i] = byte('a' + i%26)
		}
		p := filepath.Join(dir, "f.md")
		write(t, p, want)
		for round := 0; round < 2; round++ { // the second read reuses a pooled buffer
			got, err := ReadRegular(p, int64(tc.limit))
			if tc.tooLarge {
				if !errors.Is(err, ErrTooLarge) {
					t.Fatalf("size %d limit %d: err %v, want ErrTooLarge", tc.size, tc.limit, err)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, want) || got == nil {
				t.Fatalf("size %d limit %d: read %d bytes, %v", tc.size, tc.limit, len(got), err)
			}
		}
	}
	if _, err := ReadRegular(dir, 100); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("folder: %v", err)
	}
}

func TestDescribeNamesEachFileType(t *testing.T) {
	for mode, want := range map[fs.FileMode]string{
		fs.ModeDir:                        "a folder",
		fs.ModeNamedPipe:                  "a FIFO",
		fs.ModeSocket:                     "a socket",
		fs.ModeDevice | fs.ModeCharDevice: "a character device",
		fs.ModeDevice:                     "a device",
		fs.ModeSymlink:                    "a symlink",
		fs.ModeIrregular:                  "a special file",
	} {
		if got := describe(mode | 0o644); got != want {
			t.Errorf("describe(%v) = %q, want %q", mode, got, want)
		}
	}
}
