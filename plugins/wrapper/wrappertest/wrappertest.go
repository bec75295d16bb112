package wrappertest

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	once sync.Once
	bin  string
	bErr error
	bOut []byte
	bDir string
)

// Binary builds testdata/testwrapper once per test process and returns its
// path. The first argument of the program picks a behaviour: echo (default),
// status <s>, hang (spawns a child, writes child.pid, never answers),
// sleep, flood, garbage, exit2, exit1-raw, exit3.
func Binary(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(file), "testdata", "testwrapper")
		bDir, bErr = os.MkdirTemp("", "mrpvm-testwrapper-")
		if bErr != nil {
			return
		}
		bin = filepath.Join(bDir, "testwrapper")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = src
		bOut, bErr = cmd.CombinedOutput()
	})
	if bErr != nil {
		t.Fatalf("build test wrapper: %v\n%s", bErr, bOut)
	}
	return bin
}

// Cleanup removes the built binary; call it from TestMain after m.Run.
func Cleanup() {
	if bDir != "" {
		os.RemoveAll(bDir)
	}
}

// Install copies the test wrapper to dir/rel (creating folders) as an
// executable file.
func Install(t testing.TB, dir, rel string) string {
	t.Helper()
	src := Binary(t)
	dst := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// CopyTree copies the folder src to dst (regular files and folders).
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
