package mrpvmbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

// Build compiles ./cmd/mrpvm of the module holding this package into dir
// and returns the binary's path.
func Build(dir string) (string, error) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	bin := filepath.Join(dir, "mrpvm")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/mrpvm")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/mrpvm: %w\n%s", err, out)
	}
	return bin, nil
}

var (
	sharedDir string
	shared    = sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "mrpvm-test-")
		if err != nil {
			return "", err
		}
		sharedDir = dir
		return Build(dir)
	})
)

// Shared returns the binary of the whole test process: the first call
// builds it into a new temporary folder, which Cleanup removes; a failed
// build is the error of every call.
func Shared() (string, error) { return shared() }

// Cleanup removes the folder Shared built into, if any: a TestMain calls
// it once the tests have run.
func Cleanup() {
	if sharedDir != "" {
		os.RemoveAll(sharedDir)
	}
}
