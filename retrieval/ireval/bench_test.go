package ireval

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/bm25"
)

// benchIndex is the kb-fast index of SciFact shared by the benchmarks.
var benchIndex struct {
	once sync.Once
	err  error
	dir  string
	ds   *Dataset
	p    *Prepared
	db   *DB
	m    *BM25
}

func loadBench(b *testing.B) {
	b.Helper()
	dir := DefaultDir()
	if dir == "" {
		b.Skip("SciFact data not found (set MRPVM_SCIFACT)")
	}
	benchIndex.once.Do(func() {
		bi := &benchIndex
		if bi.ds, bi.err = Load(dir, "train"); bi.err != nil {
			return
		}
		if bi.p, bi.err = Prepare(bi.ds); bi.err != nil {
			return
		}
		if bi.dir, bi.err = os.MkdirTemp("", "ireval-bench"); bi.err != nil {
			return
		}
		if bi.db, bi.err = OpenDB(filepath.Join(bi.dir, "bench.db")); bi.err != nil {
			return
		}
		bi.m = &BM25{X: bm25.New(bm25.DefaultParams()), Tag: "kb-fast"}
		_, bi.err = Build(bi.db, bi.m, bi.p)
	})
	if benchIndex.err != nil {
		b.Fatal(benchIndex.err)
	}
}

// BenchmarkSearchKBFast answers the training queries round robin from the
// bbolt-backed index (top 100 sources); compare with BenchmarkExhaustive.
func BenchmarkSearchKBFast(b *testing.B) {
	loadBench(b)
	qs := benchIndex.ds.Queries
	st := benchIndex.db.Store(benchIndex.m.Name())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		q := qs[i%len(qs)]
		i++
		if err := st.View(func(kv plugin.KV) error {
			_, err := benchIndex.m.Search(kv, q.Text, 100)
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExhaustive scores every unit for every query (the baseline).
func BenchmarkExhaustive(b *testing.B) {
	loadBench(b)
	ex := NewExhaustive(bm25.DefaultParams(), benchIndex.p.Units)
	qs := benchIndex.ds.Queries
	b.ResetTimer()
	i := 0
	for b.Loop() {
		ex.Search(qs[i%len(qs)].Text, 100)
		i++
	}
}

// BenchmarkIndexKBFast measures cold kb-fast ingest of the corpus (one
// transaction per source), in bytes of Markdown per second.
func BenchmarkIndexKBFast(b *testing.B) {
	loadBench(b)
	p := benchIndex.p
	b.SetBytes(p.Bytes)
	for i := 0; b.Loop(); i++ {
		db, err := OpenDB(filepath.Join(b.TempDir(), "idx.db"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Build(db, &BM25{X: bm25.New(bm25.DefaultParams())}, p); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchIndex.db != nil {
		benchIndex.db.Close()
	}
	if benchIndex.dir != "" {
		os.RemoveAll(benchIndex.dir)
	}
	os.Exit(code)
}
