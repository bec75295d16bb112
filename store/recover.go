package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"syscall"

	bolt "go.etcd.io/bbolt"
)

// panicInBolt reports whether the panic being recovered was raised inside
// bbolt (its page decoders and assertions) rather than in the code a
// transaction runs. It must be called from the deferred function that
// recovers: until that returns, the goroutine's stack still holds the
// frames of the panic, and the first one after the runtime's own is where
// it was raised.
func panicInBolt() bool {
	st := debug.Stack()
	i := bytes.Index(st, []byte("\npanic("))
	if i < 0 {
		return false
	}
	lines := bytes.Split(st[i+1:], []byte("\n"))
	for _, line := range lines[1:] {
		if len(line) == 0 || line[0] == '\t' || bytes.HasPrefix(line, []byte("runtime.")) {
			continue
		}
		return bytes.HasPrefix(line, []byte("go.etcd.io/bbolt"))
	}
	return false
}

// commitFailed classifies an error of bbolt's own commit (not of the
// transaction's code): bbolt allocates pages from the freelist stored in
// the file, and a damaged freelist makes it write at impossible offsets.
// A write at an offset the operating system refuses before trying it (a
// negative one, from a garbage page id) is such a damage by itself, since
// the page check need not reach a damaged freelist; otherwise the file's
// pages are checked, and a damaged file is CodeCorrupt.
func (s *Store) commitFailed(err error) error {
	if errors.Is(err, ErrCorrupt) {
		return err
	}
	if impossibleWrite(err) {
		return &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("%w: the file's page numbers are damaged", err)}
	}
	var problem error
	_ = s.guard(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			problem = checkTx(tx)
			return nil
		})
	})
	if problem != nil {
		return &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("%v; checking its pages: %v", err, problem)}
	}
	return err
}

// impossibleWrite reports whether err is a write the operating system
// refused without an errno: os.File.WriteAt rejects a negative offset itself,
// which bbolt only asks for when a page id read from the file is garbage.
// Failures of the disk or the file system (ENOSPC, EIO, ...) carry an errno
// and are not damage.
func impossibleWrite(err error) bool {
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Op != "writeat" && pe.Op != "write" {
		return false
	}
	var errno syscall.Errno
	return !errors.As(pe.Err, &errno)
}

// checkTx checks the pages of tx and returns the first problem found.
// bbolt's own checker (Tx.Check) reads the pages in a goroutine of its own,
// where a memory fault on a damaged page (a leaf element pointing past the
// mapping) cannot be recovered and kills the process; so every key is
// read and compared with the one before it here first, in the caller's
// goroutine, where guard and checkIntegrity turn such a fault into
// CodeCorrupt.
func checkTx(tx *bolt.Tx) error {
	if err := tx.ForEach(func(name []byte, b *bolt.Bucket) error { return readBucket(name, b, 1) }); err != nil {
		return err
	}
	var first error
	for cerr := range tx.Check() { // drained: bbolt's goroutine waits on every send
		if first == nil {
			first = cerr
		}
	}
	return first
}

// maxBucketDepth bounds the nesting of buckets readBucket follows. The
// store and its plugins nest a few levels; a damaged page can make a
// bucket hold itself, which without a bound recurses until the stack
// overflows, a fatal error no recover catches.
const maxBucketDepth = 32

// readBucket reads every key of b and of its nested buckets, in order;
// depth is b's nesting level (1 for a top-level bucket).
func readBucket(name []byte, b *bolt.Bucket, depth int) error {
	if depth > maxBucketDepth {
		return fmt.Errorf("bucket %q: nested more than %d deep", name, maxBucketDepth)
	}
	var prev []byte
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			return fmt.Errorf("bucket %q: keys out of order", name)
		}
		prev = k
		if v == nil {
			if sub := b.Bucket(k); sub != nil {
				if err := readBucket(k, sub, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// guard runs fn, a transaction, and turns a panic or a memory fault inside
// it into a CodeCorrupt error. bbolt trusts the bytes of its pages: a
// damaged branch or leaf page indexes out of range or fails an assertion;
// and the decoders of the stored records, the store's and the plugins',
// run inside the same transactions. After a panic raised inside bbolt its
// own state (its locks, its freelist) cannot be trusted, so the store then
// refuses every later transaction with the same error until it is closed:
// the file has to be rebuilt.
func (s *Store) guard(fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if panicInBolt() {
				serr := &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("reading a page failed: %v", r)}
				s.broken.CompareAndSwap(nil, serr)
				err = serr
				return
			}
			err = &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("decoding a stored value failed: %v", r)}
		}
	}()
	return fn()
}

// brokenErr is the error of the panic that marked the store broken, if any.
func (s *Store) brokenErr() error {
	if e := s.broken.Load(); e != nil {
		return e
	}
	return nil
}

// corrupt reports a stored record that cannot be decoded.
func (s *Store) corrupt(err error) error {
	return &Error{Code: CodeCorrupt, Path: s.path, Err: err}
}

// PanicError is the error of code run inside a transaction (the ingest
// hook named who) that panicked with r: a panic raised by bbolt while that
// code read the file is a damaged file (CodeCorrupt, with the rebuild
// hint); any other is the code's own failure. It must be called from the
// deferred function that recovered r, like panicInBolt.
func (s *Store) PanicError(who string, r any) error {
	if panicInBolt() {
		return &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("%s: reading a page failed: %v", who, r)}
	}
	return fmt.Errorf("panic: %v", r)
}
