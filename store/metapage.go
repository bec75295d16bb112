package store

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
)

// checkTruncation reads the two bbolt meta pages and fails with ErrCorrupt
// when the newest valid one describes more pages than the file holds. bbolt
// would otherwise fault while scanning the missing pages on a goroutine of
// its own, where the fault cannot be recovered. It also checks that the
// freelist page the meta names holds the ids its count says
// (freelistFits). Files whose meta pages are both invalid are left to
// bbolt, which reports them as invalid.
func checkTruncation(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // absent: bbolt creates it; other errors surface from bolt.Open
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil
	}
	best := bestMeta(f)
	if best == nil {
		return nil
	}
	if need := int64(best.pgid) * int64(best.pageSize); need > fi.Size() {
		return fmt.Errorf("%w: file is %d bytes but its pages need %d (truncated)", ErrCorrupt, fi.Size(), need)
	}
	if err := freelistFits(f, best); err != nil {
		// Read without the file's lock: a writer committing meanwhile
		// moves the meta on, and what was read is not the file's state.
		if m := bestMeta(f); m != nil && m.txid == best.txid {
			return err
		}
	}
	return nil
}

// freelistFits checks the count of the freelist page m names against the
// room its pages have. bbolt, opening a file for writing, allocates and
// reads as many page ids as the count says: a damaged count exhausts
// memory or reads past the file's mapping, both fatal to the process.
func freelistFits(f *os.File, m *boltMeta) error {
	if m.freelist == ^uint64(0) { // not synced
		return nil
	}
	if m.freelist < 2 || m.freelist >= m.pgid {
		return fmt.Errorf("%w: the freelist page %d is outside the file's %d pages", ErrCorrupt, m.freelist, m.pgid)
	}
	var hdr [24]byte
	if _, err := f.ReadAt(hdr[:], int64(m.freelist)*int64(m.pageSize)); err != nil {
		return nil // bbolt reports what it cannot read
	}
	_, _, overflow, err := freelistSpan(hdr[:], uint64(m.pageSize))
	if err != nil {
		return fmt.Errorf("%w: freelist page %d: %v", ErrCorrupt, m.freelist, err)
	}
	if m.freelist+uint64(overflow) >= m.pgid {
		return fmt.Errorf("%w: the freelist's %d overflow pages run past the file's %d pages", ErrCorrupt, overflow, m.pgid)
	}
	return nil
}

// bestMeta is the meta page bbolt opens f with: of its two meta pages, the
// valid one with the higher transaction id; nil when neither is valid.
func bestMeta(f *os.File) *boltMeta {
	buf := make([]byte, 4096)
	best := readMeta(f, 0, buf)
	if best == nil {
		// Page size unknown: try the common sizes for the second meta.
		for _, ps := range []int64{4096, 8192, 16384, 65536} {
			if m := readMeta(f, ps, buf); m != nil {
				return m
			}
		}
		return nil
	}
	if m := readMeta(f, int64(best.pageSize), buf); m != nil {
		best = newerMeta(best, m)
	}
	return best
}

// boltMeta is the part of a bbolt meta page the file checks need.
type boltMeta struct {
	pageSize uint32
	root     uint64 // the root bucket's tree
	freelist uint64 // the freelist page, all ones when none is synced
	pgid     uint64 // the file's page count (high water mark)
	txid     uint64
}

func newerMeta(a, b *boltMeta) *boltMeta {
	if a == nil || b.txid > a.txid {
		return b
	}
	return a
}

// readMeta decodes and checksums the meta page at off, or returns nil.
func readMeta(f *os.File, off int64, buf []byte) *boltMeta {
	n, _ := f.ReadAt(buf[:80], off)
	if n < 80 {
		return nil
	}
	m := buf[16:80]
	le := binary.LittleEndian
	if le.Uint32(m[0:4]) != 0xED0CDAED || le.Uint32(m[4:8]) != 2 {
		return nil
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != le.Uint64(m[56:64]) {
		return nil
	}
	ps := le.Uint32(m[8:12])
	if ps < 512 || ps > 1<<20 {
		return nil
	}
	return &boltMeta{pageSize: ps, root: le.Uint64(m[16:24]), freelist: le.Uint64(m[32:40]), pgid: le.Uint64(m[40:48]), txid: le.Uint64(m[48:56])}
}
