//go:build !unix

package store

import (
	"os"
	"time"
)

// lockExclusive is a no-op where bbolt's file lock is not flock: the
// rename of a file another process holds open fails there on its own.
func lockExclusive(*os.File, time.Duration) error { return nil }
