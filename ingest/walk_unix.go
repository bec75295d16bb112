//go:build unix

package ingest

import (
	"os"

	"golang.org/x/sys/unix"
)

// statIn returns a function that stats (without following a final
// symlink) the entry name of the open folder dir, relative to its
// descriptor, and reports its size and modification time.
func statIn(dir *os.File) func(name string) (size, modTime int64, err error) {
	fd := int(dir.Fd())
	return func(name string) (int64, int64, error) {
		var st unix.Stat_t
		err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		for err == unix.EINTR {
			err = unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		if err != nil {
			return 0, 0, err
		}
		return st.Size, unix.TimespecToNsec(st.Mtim), nil
	}
}
