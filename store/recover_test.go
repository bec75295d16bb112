package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

// A panic in the code a transaction runs (a decoder meeting a damaged
// value) is a kb_corrupt error, and the store stays usable: only a panic
// raised inside bbolt marks it broken.
func TestTransactionPanicIsKBCorrupt(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "kb.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var b []byte
	err = s.view(func(*bolt.Tx) error { _ = b[3]; return nil })
	if !errors.Is(err, ErrCorrupt) || !errors.Is(err, plugin.ErrKBCorrupt) {
		t.Fatalf("view panic: %v, want kb_corrupt", err)
	}
	err = s.PluginStore("p").Update(func(plugin.KV) error { panic("bad record") })
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("update panic: %v, want kb_corrupt", err)
	}
	if s.broken.Load() != nil {
		t.Fatal("a panic outside bbolt marked the store broken")
	}
	if err := s.view(func(*bolt.Tx) error { return nil }); err != nil {
		t.Fatalf("view after a recovered panic: %v", err)
	}
}

// TestDamagedLeafAfterCrashIsKBCorrupt: a file left dirty by a crash is
// checked in full when opened; a leaf page whose element points past the
// file's mapping must make that check report kb_corrupt, not kill the
// process with a memory fault in bbolt's checker goroutine.
func TestDamagedLeafAfterCrashIsKBCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	putKUs(t, s, 400, 40, 'v')
	if err := s.db.Close(); err != nil { // a crash: no clean Close, the file stays dirty
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A bbolt page starts with its id (8 bytes), flags (2), element count
	// (2) and overflow (4); a leaf page's elements follow, each its flags,
	// the offset of its key from the element, the key's and the value's
	// sizes (4 bytes each, little-endian).
	const page, leaf = 4096, 0x02
	damaged := false
	for p := 2; p < len(b)/page && !damaged; p++ {
		at := p * page
		if binary.LittleEndian.Uint16(b[at+8:]) != leaf || binary.LittleEndian.Uint16(b[at+10:]) < 2 {
			continue
		}
		binary.LittleEndian.PutUint32(b[at+16+16+4:], 0x7fff0000) // the second key, 2 GiB away
		damaged = true
	}
	if !damaged {
		t.Fatal("no leaf page to damage")
	}
	requireOpenCorrupt(t, writeFile(t, b), Options{})
}

// TestImpossibleWriteIsDamage: a write at a negative offset (a garbage page
// id) is a damaged file; a disk failure, which carries an errno, is not.
func TestImpossibleWriteIsDamage(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "w")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, negative := f.WriteAt([]byte("x"), -4096)
	if negative == nil || !impossibleWrite(fmt.Errorf("commit: %w", negative)) {
		t.Errorf("write at a negative offset (%v) is not taken for damage", negative)
	}
	full := &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	if impossibleWrite(full) {
		t.Errorf("a full disk (%v) is taken for damage", full)
	}
	if impossibleWrite(errors.New("tx closed")) {
		t.Error("an error without a path is taken for damage")
	}
}

// checkTx follows nested buckets only so deep: a damaged page can make a
// bucket hold itself, which without a bound recurses until the stack
// overflows and kills the process; nesting past the bound is damage.
func TestCheckTxBoundsBucketNesting(t *testing.T) {
	nest := func(levels int) error {
		db, err := bolt.Open(filepath.Join(t.TempDir(), "nest.db"), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucket([]byte("b"))
			for i := 1; i < levels && err == nil; i++ {
				b, err = b.CreateBucket([]byte("b"))
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return db.View(checkTx)
	}
	if err := nest(maxBucketDepth); err != nil {
		t.Fatalf("%d levels: %v, want none", maxBucketDepth, err)
	}
	if err := nest(maxBucketDepth + 1); err == nil {
		t.Fatalf("%d levels: no error, want the nesting reported", maxBucketDepth+1)
	}
}
