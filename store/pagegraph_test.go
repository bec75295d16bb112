package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

// TestCyclicPageLinksAreKBCorrupt: a branch page whose element points back
// at itself or at another branch page sends bbolt's cursor round forever
// (a read that never returns, or a stack overflow no recover catches).
// Opening such a file, and verifying it, must report kb_corrupt instead.
func TestCyclicPageLinksAreKBCorrupt(t *testing.T) {
	path, clean := kbFile(t, 3000, 200, 1)
	if err := checkPageGraph(path, true); err != nil {
		t.Fatalf("the undamaged file: %v", err)
	}
	branches := branchPages(t, path)
	if len(branches) < 2 {
		t.Fatalf("the file has %d branch pages, want a tree of three levels", len(branches))
	}
	const page = 4096
	// link points the first element of branch page from at page to.
	link := func(from, to uint64) string {
		b := append([]byte(nil), clean...)
		binary.LittleEndian.PutUint64(b[from*page+16+8:], to)
		return writeFile(t, b)
	}
	root, last := branches[0], branches[len(branches)-1]
	for name, bad := range map[string]string{
		"root to itself":          link(root, root),
		"last branch to itself":   link(last, last),
		"last branch to the root": link(last, root),
	} {
		t.Run(name, func(t *testing.T) {
			requireOpenCorrupt(t, bad, Options{ReadOnly: true})
			if err := checkPageGraph(bad, true); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("full check: %v, want kb_corrupt", err)
			}
		})
	}
}

// branchPages lists the branch pages of the kus bucket's tree, its root
// first, down its first elements, read from an undamaged file.
func branchPages(t *testing.T, path string) []uint64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := metaOf(t, path)
	w := newPageWalker(f, m, false)
	var kus uint64
	if err := w.tree(m.root, func(key []byte, root uint64) {
		if string(key) == string(bucketKUs) {
			kus = root
		}
	}); err != nil {
		t.Fatal(err)
	}
	var out []uint64
	var walk func(id uint64)
	walk = func(id uint64) {
		p, err := w.read(id, 1)
		if err != nil {
			t.Fatal(err)
		}
		if binary.LittleEndian.Uint16(p[8:10])&branchPageFlag == 0 {
			return
		}
		out = append(out, id)
		walk(binary.LittleEndian.Uint64(p[16+8:]))
	}
	walk(kus)
	return out
}

// BenchmarkCheckPageGraph times the page-link check every open runs (and
// the full one of stats --verify) on a file of 100,000 records in one
// bucket and a few namespaces.
func BenchmarkCheckPageGraph(b *testing.B) {
	path, _ := kbFile(b, 100_000, 200, 1, "kb-fast", "kb-balanced", "kb-thinkingdb")
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, full := range []bool{false, true} {
		b.Run(fmt.Sprintf("full=%v", full), func(b *testing.B) {
			for b.Loop() {
				if err := checkPageGraph(path, full); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(fi.Size())/(1<<20), "MiB")
		})
	}
}

// TestPageGraphCheckSurvivesAnyDamage: the check reads raw page bytes, so
// whatever a damaged file holds it returns nil or an error, never panics
// (every offset it reads is bounded by the page it reads).
func TestPageGraphCheckSurvivesAnyDamage(t *testing.T) {
	_, clean := kbFile(t, 2000, 100, 1, "kb-fast")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		b := append([]byte(nil), clean...)
		// Damage a page past the meta pages: a few bytes of its header
		// and elements, random or all ones.
		at := 2*4096 + rng.IntN(len(b)-2*4096-64)
		at -= at % 4096
		at += rng.IntN(64)
		for j := range 1 + rng.IntN(16) {
			b[at+j] = byte(rng.UintN(256))
			if i%2 == 1 {
				b[at+j] = 0xff
			}
		}
		bad := writeFile(t, b)
		for _, full := range []bool{false, true} {
			if err := checkPageGraph(bad, full); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("damage %d at %d: %v, want nil or kb_corrupt", i, at, err)
			}
		}
	}
}

// TestPageInUseAndFreeIsKBCorrupt: a freelist that calls a page of a tree
// free would hand it to the next write, which would overwrite it and
// spread the damage, and one that names a page past the file's pages would
// make that write fail inside bbolt; such a file is refused when it is
// opened.
func TestPageInUseAndFreeIsKBCorrupt(t *testing.T) {
	path, b := kbFile(t, 500, 100, 3) // a few commits leave free pages behind
	m := metaOf(t, path)
	const page = 4096
	at := int(m.freelist) * page
	if binary.LittleEndian.Uint16(b[at+10:]) == 0 {
		t.Fatal("the file has no free page to turn into a page in use")
	}
	// The freelist's first id becomes the root page of the file's root
	// tree, which every read goes through; or a page past the file's
	// pages, which the next write would be handed (bbolt then panicked in
	// the commit, as late as the clean-shutdown mark of Close).
	for name, id := range map[string]uint64{"in use": m.root, "past the file": 1 << 40} {
		t.Run(name, func(t *testing.T) {
			d := append([]byte(nil), b...)
			binary.LittleEndian.PutUint64(d[at+16:], id)
			requireOpenCorrupt(t, writeFile(t, d), Options{})
		})
	}
}

// TestDamagedFreelistCountIsKBCorrupt: bbolt loads the freelist when it
// opens a file for writing, trusting its count; a damaged count makes it
// allocate that many ids or read past the file's mapping, either fatal to
// the process, where kb_corrupt must come back.
func TestDamagedFreelistCountIsKBCorrupt(t *testing.T) {
	path, b := kbFile(t, 0, 0, 0)
	at := int(metaOf(t, path).freelist) * 4096
	// A count of 0xFFFF says the real count is the first element.
	binary.LittleEndian.PutUint16(b[at+10:], 0xFFFF)
	binary.LittleEndian.PutUint64(b[at+16:], 1<<40)
	requireOpenCorrupt(t, writeFile(t, b), Options{})
}

// putKUs writes n KU records of size bytes of fill in one transaction.
func putKUs(t testing.TB, s *Store, n, size int, fill byte) {
	t.Helper()
	if err := s.update(func(tx *bolt.Tx) error {
		for i := range n {
			if err := tx.Bucket(bucketKUs).Put(fmt.Appendf(nil, "ku-%07d", i), bytes.Repeat([]byte{fill}, size)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// kbFile writes a knowledge base file holding n KU records of size bytes,
// written rounds times (each commit leaves the pages it replaced free),
// and a record in the namespace of each of plugins, closes it cleanly and
// returns its path and its bytes.
func kbFile(t testing.TB, n, size, rounds int, plugins ...string) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kb.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for round := range rounds {
		putKUs(t, s, n, size, byte('a'+round))
	}
	for _, id := range plugins {
		if err := s.PluginStore(id).Update(func(kv plugin.KV) error { return kv.Put([]byte("k"), []byte("v")) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// metaOf is the meta page bbolt opens the file at path with.
func metaOf(t testing.TB, path string) *boltMeta {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := bestMeta(f)
	if m == nil {
		t.Fatalf("%s: no valid meta page", path)
	}
	return m
}

// writeFile writes b to a new file and returns its path.
func writeFile(t testing.TB, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bad.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// requireOpenCorrupt fails t unless opening path with opt is kb_corrupt.
func requireOpenCorrupt(t *testing.T, path string, opt Options) {
	t.Helper()
	if s, err := Open(path, opt); !errors.Is(err, ErrCorrupt) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("open: %v, want kb_corrupt", err)
	}
}
