//go:build unix

package fsafe

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// readWithin fails the test when read does not return within a generous
// bound (the failure being guarded against is blocking forever).
func readWithin(t *testing.T, read func() ([]byte, error)) ([]byte, error) {
	t.Helper()
	type res struct {
		b   []byte
		err error
	}
	ch := make(chan res, 1)
	go func() { b, err := read(); ch <- res{b, err} }()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-time.After(20 * time.Second):
		t.Fatal("read blocked")
		return nil, nil
	}
}

// TestSpecialFiles refuses a FIFO (without blocking on it), a symlink to
// /dev/zero (without reading it) and a socket, inside the root or not.
func TestSpecialFiles(t *testing.T) {
	ws := t.TempDir()
	fifo := filepath.Join(ws, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(ws, "zero.md")
	symlink(t, "/dev/zero", zero)
	r, err := NewRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero} {
		_, err := readWithin(t, func() ([]byte, error) { return r.ReadFile(p, 1<<20) })
		if Code(err) == "" {
			t.Errorf("%s: %v, want a refusal", p, err)
		}
		_, err = readWithin(t, func() ([]byte, error) { return ReadFile("", p, 1<<20) })
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s unconfined: %v, want ErrNotRegular", p, err)
		}
		// The walk's path: the kind is checked on the open descriptor.
		_, err = readWithin(t, func() ([]byte, error) { return ReadRegular(p, 1<<20) })
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s regular read: %v, want ErrNotRegular", p, err)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := r.ReadFile(zero, 1<<20); Code(err) != CodeOutsideRoot {
			t.Errorf("zero confined: %v, want %s", err, CodeOutsideRoot)
		}
	}
}
