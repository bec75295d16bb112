//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockExclusive takes the lock bbolt takes on an open database file
// (flock, exclusive) on f, waiting at most timeout; errLockHeld when
// another process keeps it.
func lockExclusive(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if time.Now().After(deadline) {
			return errLockHeld
		}
		time.Sleep(50 * time.Millisecond)
	}
}
