package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// compactTxSize bounds the bytes bolt.Compact writes per transaction.
const compactTxSize = 64 << 20

// compactWait bounds the wait for a moment without open transactions.
var compactWait = 2 * time.Second

// errBusy reports a compaction given up because the store kept being used.
var errBusy = errors.New("store in use")

// ErrClosed is the error of a store whose file could not be opened again
// after a compaction: every later transaction fails.
var ErrClosed = errors.New("knowledge base file closed")

// Compact rewrites the knowledge base file bucket by bucket and replaces
// it in place for every user of the store. A caller that writes (the
// ingest) serialises its runs with it.
//
// A bulk ingest commits each group of sources in one transaction, and
// bbolt writes each transaction's pages side by side: KUs, the shared BM25
// index, kb-balanced's vectors and kb-thinkingdb's facts of the same
// sources end up interleaved. A query reads the small hot namespaces
// (vectors, facts, postings), but the kernel maps the file around each page
// it reads (fault-around, large folios), so a search over interleaved
// pages maps far more of the file than it reads. Compacting copies bucket
// by bucket, so every namespace becomes contiguous. It costs a copy of the
// file and maps the whole old file while it copies (figures in
// docs/performance.md, Compaction).
//
// It gives up (nothing changed) when another goroutine writes meanwhile or
// keeps a transaction open for long; readers wait only for the swap itself.
// When the compacted file cannot be opened again the store is closed and
// the error matches ErrClosed.
func (s *Store) Compact() error {
	return s.compact()
}

// compact writes the copy to path+".compact" and swaps it in (see Compact).
func (s *Store) compact() error {
	if s.db.IsReadOnly() {
		return nil
	}
	tmp := s.path + ".compact"
	_ = os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o644, &bolt.Options{Timeout: time.Second, NoSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return fmt.Errorf("compact %s: %w", s.path, err)
	}
	discard := func(err error) error {
		dst.Close()
		os.Remove(tmp)
		return fmt.Errorf("compact %s: %w", s.path, err)
	}
	// The transaction id the copy reflects: a later write makes it stale.
	var txid int
	s.swapMu.RLock()
	src := s.db
	err = src.View(func(tx *bolt.Tx) error { txid = tx.ID(); return nil })
	if err == nil {
		err = bolt.Compact(dst, src, compactTxSize)
	}
	s.swapMu.RUnlock()
	if err != nil {
		return discard(err)
	}
	if err := dst.Sync(); err != nil {
		return discard(err)
	}
	if err := dst.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("compact %s: %w", s.path, err)
	}

	// Swap when no transaction is open. TryLock does not stop new readers
	// while it waits, so a reader nested in another one cannot deadlock.
	deadline := time.Now().Add(compactWait)
	for !s.swapMu.TryLock() {
		if time.Now().After(deadline) {
			os.Remove(tmp)
			return fmt.Errorf("compact %s: %w", s.path, errBusy)
		}
		time.Sleep(time.Millisecond)
	}
	defer s.swapMu.Unlock()
	var now int
	if err := s.db.View(func(tx *bolt.Tx) error { now = tx.ID(); return nil }); err != nil || now != txid {
		os.Remove(tmp)
		if err == nil {
			err = errBusy // written meanwhile: the copy is stale
		}
		return fmt.Errorf("compact %s: %w", s.path, err)
	}
	noSync := s.db.NoSync
	if err := s.db.Close(); err != nil {
		os.Remove(tmp)
		return s.reopen(fmt.Errorf("compact %s: close: %w", s.path, err), noSync)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		os.Remove(tmp)
		return s.reopen(fmt.Errorf("compact %s: %w", s.path, err), noSync)
	}
	syncDir(filepath.Dir(s.path))
	return s.reopen(nil, noSync)
}

// reopen opens s.path again after compact closed it (swapMu held).
func (s *Store) reopen(cause error, noSync bool) error {
	db, err := openBolt(s.path, s.opt)
	if err != nil {
		s.db = nil
		return errors.Join(cause, fmt.Errorf("reopen %s: %w: %w", s.path, ErrClosed, err))
	}
	db.NoSync = noSync
	s.db = db
	return cause
}

// syncDir makes a rename in dir durable (best effort).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
