package store

import (
	"encoding/binary"
	"fmt"
	"os"
)

// bbolt's on-disk page format, as far as the page graph check reads it:
// a 16-byte header (id, flags, count, overflow), then count elements.
const (
	pageHeaderSize   = 16
	branchElemSize   = 16 // pos uint32, ksize uint32, pgid uint64
	leafElemSize     = 16 // flags uint32, pos uint32, ksize uint32, vsize uint32
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	bucketLeafFlag   = 0x01
	bucketHeaderSize = 16 // root pgid uint64, sequence uint64
	// maxTreeDepth bounds the levels of one bucket's tree. A B+tree of
	// 4 KiB pages holds more than any disk within a dozen levels; more
	// is a damaged page pointing back up the tree.
	maxTreeDepth = 32
)

// nestingBuckets are the top-level buckets whose entries are buckets of
// their own (one per plugin id or shared namespace): the check reads their
// leaves to find those buckets' trees. No other bucket of the store nests.
var nestingBuckets = map[string]bool{string(bucketPlugins): true, string(bucketShared): true}

// checkPageGraph walks the pages of every bucket's tree as they are on
// disk, before bbolt reads any of them, and fails with ErrCorrupt on a
// page id past the file's pages, a page that is not what its parent says
// it is, a page reached twice, a tree deeper than maxTreeDepth, or a page
// in use that the freelist calls free. bbolt
// trusts its page links: a branch page that points back at itself or an
// ancestor sends its cursor round forever (a read that never returns and
// grows its stack until the process dies, a fatal error no recover
// catches), so such a file must be refused before it is read.
//
// Without full, only branch pages are read (a few in a hundred), with the
// leaves of the root tree and of the nesting buckets: a page where a leaf
// should be is taken for one, each reached once and none of them a branch
// page of any tree. With full every leaf page is read as well, so that a
// page holding a branch where a leaf should be is refused too, and the
// buckets every leaf holds are checked in turn (stats --verify, and a file
// left by an unclean shutdown).
//
// The caller holds the file's lock, so no other process writes it.
func checkPageGraph(path string, full bool) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // bbolt, which has the file open, reports what fails here
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil
	}
	m := bestMeta(f)
	if m == nil {
		return nil // bbolt reports files without a valid meta page
	}
	if int64(m.pgid)*int64(m.pageSize) > fi.Size() {
		return nil // checkTruncation reports a truncated file
	}
	w := newPageWalker(f, m, full)
	err = w.bucket("", m.root, 0)
	if err == nil {
		err = w.leavesAreLeaves()
	}
	if err == nil {
		err = w.freePages(m.freelist)
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return nil
}

// bucket checks the tree of the bucket name at root and the buckets nested
// in it; level is its nesting (0: the file's root tree, whose entries are
// the top-level buckets). The leaves of the root tree and of the nesting
// buckets are read for the buckets they hold, and with full every leaf is.
func (w *pageWalker) bucket(name string, root uint64, level int) error {
	if level > maxBucketDepth {
		return fmt.Errorf("bucket %q: nested more than %d deep", name, maxBucketDepth)
	}
	type entry struct {
		name string
		root uint64
	}
	var nested []entry
	var collect func(key []byte, root uint64)
	if w.full || level == 0 || level == 1 && nestingBuckets[name] {
		collect = func(key []byte, root uint64) { nested = append(nested, entry{string(key), root}) }
	}
	if err := w.tree(root, collect); err != nil {
		if level == 0 {
			return err
		}
		return fmt.Errorf("bucket %q: %w", name, err)
	}
	for _, e := range nested {
		if err := w.bucket(e.name, e.root, level+1); err != nil {
			return err
		}
	}
	return nil
}

// pageWalker reads the pages of bucket trees once each.
type pageWalker struct {
	f    *os.File
	ps   int64
	hwm  uint64 // the file's page count: no page id reaches it
	full bool
	// seen has a bit set for every page reached (overflow pages
	// included); branches holds the branch pages, leaves the pages taken
	// for leaves unread.
	seen     []uint64
	branches map[uint64]bool
	leaves   []uint64
}

func newPageWalker(f *os.File, m *boltMeta, full bool) *pageWalker {
	return &pageWalker{f: f, ps: int64(m.pageSize), hwm: m.pgid, full: full,
		seen: make([]uint64, (m.pgid+63)/64), branches: map[uint64]bool{}}
}

// tree walks the tree whose root page is root (0: an inline bucket, held
// in its parent's leaf). When buckets is set, the tree's leaves are read
// and buckets is called with the name and root page of each bucket they
// hold.
func (w *pageWalker) tree(root uint64, buckets func(key []byte, root uint64)) error {
	if root == 0 {
		return nil
	}
	depth, err := w.leafDepth(root)
	if err != nil {
		return err
	}
	return w.walk(root, 0, depth, buckets)
}

// leafDepth is the level of the leaves of the tree at root, read down its
// first branch elements: every leaf of a B+tree is on one level.
func (w *pageWalker) leafDepth(root uint64) (int, error) {
	id := root
	for depth := 0; depth <= maxTreeDepth; depth++ {
		p, err := w.read(id, 1)
		if err != nil {
			return 0, err
		}
		flags, count := binary.LittleEndian.Uint16(p[8:10]), binary.LittleEndian.Uint16(p[10:12])
		switch {
		case flags&leafPageFlag != 0:
			return depth, nil
		case flags&branchPageFlag == 0 || count == 0:
			return 0, fmt.Errorf("page %d: neither a branch nor a leaf page (flags %#x, %d elements)", id, flags, count)
		}
		id = binary.LittleEndian.Uint64(p[pageHeaderSize+8 : pageHeaderSize+16])
	}
	return 0, fmt.Errorf("page %d: its tree is more than %d levels deep", root, maxTreeDepth)
}

// walk checks page id at depth of a tree whose leaves are at leafDepth.
func (w *pageWalker) walk(id uint64, depth, leafDepth int, buckets func(key []byte, root uint64)) error {
	if depth == leafDepth && buckets == nil {
		if err := w.claim(id, 0); err != nil {
			return err
		}
		w.leaves = append(w.leaves, id)
		return nil
	}
	p, err := w.read(id, 1)
	if err != nil {
		return err
	}
	flags, count := binary.LittleEndian.Uint16(p[8:10]), int(binary.LittleEndian.Uint16(p[10:12]))
	overflow := binary.LittleEndian.Uint32(p[12:16])
	if err := w.claim(id, overflow); err != nil {
		return err
	}
	if overflow > 0 {
		if p, err = w.read(id, 1+int64(overflow)); err != nil {
			return err
		}
	}
	if depth == leafDepth {
		if flags&leafPageFlag == 0 {
			return fmt.Errorf("page %d: a leaf was expected (flags %#x)", id, flags)
		}
		return w.leafBuckets(id, p, count, buckets)
	}
	if flags&branchPageFlag == 0 || count == 0 {
		return fmt.Errorf("page %d: a branch page was expected (flags %#x, %d elements)", id, flags, count)
	}
	if pageHeaderSize+count*branchElemSize > len(p) {
		return fmt.Errorf("page %d: %d branch elements do not fit the page", id, count)
	}
	w.branches[id] = true
	for i := 0; i < count; i++ {
		e := p[pageHeaderSize+i*branchElemSize:]
		if err := w.walk(binary.LittleEndian.Uint64(e[8:16]), depth+1, leafDepth, buckets); err != nil {
			return err
		}
	}
	return nil
}

// leafBuckets calls buckets with each bucket element of leaf page p.
func (w *pageWalker) leafBuckets(id uint64, p []byte, count int, buckets func(key []byte, root uint64)) error {
	le := binary.LittleEndian
	if pageHeaderSize+count*leafElemSize > len(p) {
		return fmt.Errorf("page %d: %d leaf elements do not fit the page", id, count)
	}
	for i := 0; i < count; i++ {
		at := pageHeaderSize + i*leafElemSize
		e := p[at:]
		flags, pos, ksize, vsize := le.Uint32(e[0:4]), int(le.Uint32(e[4:8])), int(le.Uint32(e[8:12])), int(le.Uint32(e[12:16]))
		if flags&bucketLeafFlag == 0 {
			continue
		}
		start := at + pos
		if pos < 0 || ksize < 0 || vsize < bucketHeaderSize || start+ksize+vsize > len(p) || start+ksize+vsize < start {
			return fmt.Errorf("page %d: element %d lies outside the page", id, i)
		}
		buckets(p[start:start+ksize], le.Uint64(p[start+ksize:start+ksize+8]))
	}
	return nil
}

// leavesAreLeaves checks the pages taken for leaves without reading them
// against every branch page of every tree, and with full reads each one's
// header.
func (w *pageWalker) leavesAreLeaves() error {
	for _, id := range w.leaves {
		if w.branches[id] {
			return fmt.Errorf("page %d: a branch page where a leaf was expected", id)
		}
		if !w.full {
			continue
		}
		hdr, err := w.read(id, 1)
		if err != nil {
			return err
		}
		if binary.LittleEndian.Uint16(hdr[8:10])&leafPageFlag == 0 {
			return fmt.Errorf("page %d: a leaf was expected (flags %#x)", id, binary.LittleEndian.Uint16(hdr[8:10]))
		}
	}
	return nil
}

// freelistPageFlag marks bbolt's freelist page.
const freelistPageFlag = 0x10

// freePages checks the freelist page at id (none when all ones: the
// freelist is not synced) against the pages the trees reached: a page in
// use that the freelist calls free would be handed to the next write and
// overwritten, the damage spreading; a free page past the file's pages
// would make that write fail inside bbolt.
func (w *pageWalker) freePages(id uint64) error {
	if id == ^uint64(0) {
		return nil
	}
	p, err := w.read(id, 1)
	if err != nil {
		return fmt.Errorf("freelist: %w", err)
	}
	count, at, overflow, err := freelistSpan(p, uint64(w.ps))
	if err != nil {
		return fmt.Errorf("freelist page %d: %v", id, err)
	}
	if overflow > 0 {
		if p, err = w.read(id, 1+int64(overflow)); err != nil {
			return fmt.Errorf("freelist: %w", err)
		}
	}
	le := binary.LittleEndian
	for i := range count {
		free := le.Uint64(p[at+8*i:])
		switch {
		case free < 2 || free >= w.hwm:
			// The next write would be handed a page that is not there.
			return fmt.Errorf("freelist page %d: free page %d is outside the file's %d pages", id, free, w.hwm)
		case w.seen[free/64]&(1<<(free%64)) != 0:
			return fmt.Errorf("page %d: in use and in the freelist", free)
		}
	}
	return nil
}

// freelistSpan reads the header of a freelist page (hdr, at least its
// first 24 bytes): how many ids it holds, where the first stands from the
// page's start and how many overflow pages follow it. It fails when hdr is
// no freelist page or its count does not fit its pages of pageSize bytes.
func freelistSpan(hdr []byte, pageSize uint64) (count, at uint64, overflow uint32, err error) {
	le := binary.LittleEndian
	if flags := le.Uint16(hdr[8:10]); flags&freelistPageFlag == 0 {
		return 0, 0, 0, fmt.Errorf("not a freelist page (flags %#x)", flags)
	}
	count, at, overflow = uint64(le.Uint16(hdr[10:12])), pageHeaderSize, le.Uint32(hdr[12:16])
	if count == 0xFFFF {
		// A long freelist keeps its count in its first element.
		count, at = le.Uint64(hdr[pageHeaderSize:]), pageHeaderSize+8
	}
	if room := ((uint64(overflow)+1)*pageSize - at) / 8; count > room {
		return 0, 0, 0, fmt.Errorf("it says %d free pages, its pages hold at most %d", count, room)
	}
	return count, at, overflow, nil
}

// claim records page id and its overflow pages as reached, failing when
// one was reached before or lies past the file's pages.
func (w *pageWalker) claim(id uint64, overflow uint32) error {
	for i := uint64(0); i <= uint64(overflow); i++ {
		p := id + i
		switch {
		case id < 2 || p >= w.hwm || p < id:
			return fmt.Errorf("page %d: outside the file's %d pages", p, w.hwm)
		case w.seen[p/64]&(1<<(p%64)) != 0:
			return fmt.Errorf("page %d: reached twice", p)
		}
		w.seen[p/64] |= 1 << (p % 64)
	}
	return nil
}

// read returns n pages from page id on, checking that the first holds its
// own id.
func (w *pageWalker) read(id uint64, n int64) ([]byte, error) {
	if id < 2 || id >= w.hwm || n < 1 || id+uint64(n) > w.hwm {
		return nil, fmt.Errorf("page %d: outside the file's %d pages", id, w.hwm)
	}
	p := make([]byte, n*w.ps)
	if _, err := w.f.ReadAt(p, int64(id)*w.ps); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	if got := binary.LittleEndian.Uint64(p[0:8]); got != id {
		return nil, fmt.Errorf("page %d: its header says page %d", id, got)
	}
	return p, nil
}
