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
// its own, where the fault cannot be recovered. Files whose meta pages are
// both invalid are left to bbolt, which reports them as invalid.
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
	const metaOffset = 16 // page header
	buf := make([]byte, 4096)
	var best *boltMeta
	for i := 0; i < 2; i++ {
		off := int64(0)
		if i == 1 {
			if best == nil {
				// Page size unknown: try the common sizes for the second meta.
				for _, ps := range []int64{4096, 8192, 16384, 65536} {
					if m := readMeta(f, ps, buf); m != nil {
						best = newerMeta(best, m)
						break
					}
				}
				continue
			}
			off = int64(best.pageSize)
		}
		if m := readMeta(f, off, buf); m != nil {
			best = newerMeta(best, m)
		}
	}
	if best == nil {
		return nil
	}
	if need := int64(best.pgid) * int64(best.pageSize); need > fi.Size() {
		return fmt.Errorf("%w: file is %d bytes but its pages need %d (truncated)", ErrCorrupt, fi.Size(), need)
	}
	return nil
}

// boltMeta is the part of a bbolt meta page the truncation check needs.
type boltMeta struct {
	pageSize uint32
	pgid     uint64
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
	return &boltMeta{pageSize: ps, pgid: le.Uint64(m[40:48]), txid: le.Uint64(m[48:56])}
}
