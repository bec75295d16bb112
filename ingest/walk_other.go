//go:build !unix

package ingest

import (
	"os"
	"path/filepath"
)

// statIn returns a function that stats (without following a final
// symlink) the entry name of the open folder dir by its joined path, and
// reports its size and modification time.
func statIn(dir *os.File) func(name string) (size, modTime int64, err error) {
	base := dir.Name()
	return func(name string) (int64, int64, error) {
		info, err := os.Lstat(filepath.Join(base, name))
		if err != nil {
			return 0, 0, err
		}
		return info.Size(), info.ModTime().UnixNano(), nil
	}
}
