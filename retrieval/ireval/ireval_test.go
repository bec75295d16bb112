package ireval

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/retrieval/bm25"
	"github.com/mrpvm/mrpvm/retrieval/hdc"
	"github.com/mrpvm/mrpvm/retrieval/thinkingdb"
)

// trainSet loads and prepares SciFact's training split; the test is
// skipped when the data is not found.
func trainSet(t *testing.T) (*Dataset, *Prepared) {
	t.Helper()
	dir := DefaultDir()
	if dir == "" {
		t.Skip("SciFact data not found (set MRPVM_SCIFACT)")
	}
	ds, err := Load(dir, "train")
	require.NoError(t, err)
	p, err := Prepare(ds)
	require.NoError(t, err)
	return ds, p
}

func TestMetrics(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 2}
	tests := []struct {
		name   string
		ranked []string
		ndcg   float64
		recall float64
		rr     float64
	}{
		// ideal: 3/log2(2) + 1/log2(3) = 3.63093
		{"ideal", []string{"b", "a"}, 1, 1, 1},
		// dcg: 1/1 + 3/log2(3) = 2.89279 -> 0.79671
		{"swapped", []string{"a", "b"}, 0.7967075809905066, 1, 1},
		// dcg: 3/log2(3) = 1.89279 -> 0.52130; rr 1/2
		{"second", []string{"x", "b"}, 0.52129602861432, 0.5, 0.5},
		{"none", []string{"x", "y"}, 0, 0, 0},
		{"empty", nil, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.ndcg, NDCG(tc.ranked, rel, 10), 1e-12)
			assert.InDelta(t, tc.recall, Recall(tc.ranked, rel, 100), 1e-12)
			assert.InDelta(t, tc.rr, RR(tc.ranked, rel, 10), 1e-12)
		})
	}
	m := Evaluate(map[string][]string{"q1": {"b", "a"}}, Qrels{"q1": rel, "q2": {"z": 1}, "q3": {"z": 0}})
	assert.Equal(t, 2, m.Queries)
	assert.InDelta(t, 0.5, m.NDCG10, 1e-12)
}

// TestSciFact builds every method's index into a real bbolt file and
// evaluates it on the SciFact training queries, then reports ingest and
// query speed: each method alone, all three in one transaction per source
// (as the engine's ingest runs the kb-plugin hooks), one saved file
// re-indexed in a durable transaction, and BM25 against a naive exhaustive
// scorer in the same run. It runs only with MRPVM_IREVAL=1 and when the data
// is present; MRPVM_IREVAL_COPIES=N adds a run over N copies of the corpus.
func TestSciFact(t *testing.T) {
	if os.Getenv("MRPVM_IREVAL") == "" || testing.Short() {
		t.Skip("set MRPVM_IREVAL=1 to run the SciFact evaluation")
	}
	ds, p := trainSet(t)
	mb := float64(p.Bytes) / 1e6
	t.Logf("corpus: %d docs, %.1f MB Markdown, kus.Parse %v; %d train queries", len(ds.Docs), mb, p.Parse.Round(time.Millisecond), len(ds.Queries))

	db, err := OpenDB(filepath.Join(t.TempDir(), "eval.db"))
	require.NoError(t, err)
	defer db.Close()

	ms := Methods()
	results := map[string]Metrics{}
	var fastTotal time.Duration
	for _, m := range ms {
		took, err := Build(db, m, p)
		require.NoError(t, err)
		size, _ := db.Size()
		run, cold, err := Run(db, m, ds.Queries, 100) // first pass: caches fill
		require.NoError(t, err)
		_, warm, err := Run(db, m, ds.Queries, 100)
		require.NoError(t, err)
		met := Evaluate(run, ds.Qrels)
		results[m.Name()] = met
		t.Logf("%-14s %s", m.Name(), met)
		t.Logf("%-14s index %v (%.2f MB/s, %.0f docs/s), db file %.1f MB | 809 queries: cold %v (p50 %v p95 %v), warm %v (p50 %v p95 %v)",
			"", took.Round(time.Millisecond), mb/took.Seconds(), float64(len(ds.Docs))/took.Seconds(), float64(size)/1e6,
			sum(cold).Round(time.Millisecond), Percentile(cold, 50), Percentile(cold, 95),
			sum(warm).Round(time.Millisecond), Percentile(warm, 50), Percentile(warm, 95))
		if m.Name() == "kb-fast" {
			fastTotal = sum(cold)
		}
	}

	// The naive baseline: every unit scored for every query.
	t0 := time.Now()
	ex := NewExhaustive(bm25.DefaultParams(), p.Units)
	exBuild := time.Since(t0)
	exRun := map[string][]string{}
	var exLat []time.Duration
	for _, q := range ds.Queries {
		t0 := time.Now()
		srcs := ex.Search(q.Text, 100)
		exLat = append(exLat, time.Since(t0))
		exRun[q.ID] = mapStrings(srcs, DocID)
	}
	slices.Sort(exLat)
	t.Logf("%-14s %s | in-memory build %v | 809 queries %v (p50 %v p95 %v) | kb-fast (cold, from bbolt) is %.1fx faster",
		"exhaustive", Evaluate(exRun, ds.Qrels), exBuild.Round(time.Millisecond), sum(exLat).Round(time.Millisecond),
		Percentile(exLat, 50), Percentile(exLat, 95), float64(sum(exLat))/float64(fastTotal))

	// All three kb-plugins in one transaction per source, into a fresh file.
	all, err := OpenDB(filepath.Join(t.TempDir(), "all.db"))
	require.NoError(t, err)
	defer all.Close()
	three := Methods()
	took, err := BuildAll(all, three, p)
	require.NoError(t, err)
	size, _ := all.Size()
	t.Logf("all three     index %v (%.2f MB/s, %.0f docs/s), db file %.1f MB", took.Round(time.Millisecond), mb/took.Seconds(),
		float64(len(ds.Docs))/took.Seconds(), float64(size)/1e6)
	prep, err := OpenDB(filepath.Join(t.TempDir(), "prep.db"))
	require.NoError(t, err)
	defer prep.Close()
	took, err = BuildAllPrepared(prep, Methods(), p, runtime.GOMAXPROCS(0))
	require.NoError(t, err)
	t.Logf("all three, prepared by %d workers ahead of the transactions: index %v (%.2f MB/s, %.0f docs/s)", runtime.GOMAXPROCS(0),
		took.Round(time.Millisecond), mb/took.Seconds(), float64(len(ds.Docs))/took.Seconds())

	// Saving one file: 50 documents changed one at a time, durable commits.
	var changed []Doc
	for i := 0; i < 50; i++ {
		d := ds.Docs[(i*101)%len(ds.Docs)]
		d.Text += " This abstract was edited to test incremental indexing."
		changed = append(changed, d)
	}
	lat, err := Reindex(all, three, changed)
	require.NoError(t, err)
	t.Logf("re-index one changed file (kus.Parse + all three indexes + fsync): median %v, p95 %v, max %v",
		Percentile(lat, 50), Percentile(lat, 95), lat[len(lat)-1])

	fast := results["kb-fast"].NDCG10
	assert.GreaterOrEqual(t, fast, 0.680, "kb-fast nDCG@10")
	assert.GreaterOrEqual(t, results["kb-balanced"].NDCG10, 0.700, "kb-balanced nDCG@10")
	assert.GreaterOrEqual(t, results["kb-thinkingdb"].NDCG10, fast-0.01, "kb-thinkingdb nDCG@10")

	if n, _ := strconv.Atoi(os.Getenv("MRPVM_IREVAL_COPIES")); n > 1 {
		scale(t, ds, n)
	}
}

// scale indexes n copies of the corpus with kb-fast and reports ingest time,
// query latency and memory (the Go heap once the corpus is released: the
// index's caches plus the test's own data, which are small).
func scale(t *testing.T, ds *Dataset, n int) {
	big, err := Prepare(Copies(ds, n))
	require.NoError(t, err)
	docs, mb := len(big.DS.Docs), float64(big.Bytes)/1e6
	db, err := OpenDB(filepath.Join(t.TempDir(), "copies.db"))
	require.NoError(t, err)
	defer db.Close()
	m := &BM25{X: bm25.New(bm25.DefaultParams()), Tag: "kb-fast"}
	took, err := Build(db, m, big)
	require.NoError(t, err)
	big = nil
	size, _ := db.Size()
	before := heapInUse()
	_, cold, err := Run(db, m, ds.Queries, 100)
	require.NoError(t, err)
	_, warm, err := Run(db, m, ds.Queries, 100)
	require.NoError(t, err)
	after := heapInUse()
	t.Logf("%d copies (%d docs, %.1f MB): kb-fast index %v (%.2f MB/s), db file %.1f MB | queries cold p50 %v p95 %v, warm p50 %v p95 %v | Go heap %.0f MB before the queries, %.0f MB after (caches)",
		n, docs, mb, took.Round(time.Millisecond), mb/took.Seconds(), float64(size)/1e6,
		Percentile(cold, 50), Percentile(cold, 95), Percentile(warm, 50), Percentile(warm, 95),
		float64(before)/1e6, float64(after)/1e6)
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

func sum(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s
}

// Methods returns the methods evaluated by TestSciFact.
func Methods() []Method {
	return []Method{
		&BM25{X: bm25.New(bm25.DefaultParams()), Tag: "kb-fast"},
		&Balanced{B: bm25.New(bm25.DefaultParams()), H: hdc.New(hdc.DefaultParams()), Tag: "kb-balanced"},
		&ThinkingDB{B: bm25.New(bm25.DefaultParams()), T: thinkingdb.New(thinkingdb.DefaultParams()), Tag: "kb-thinkingdb"},
	}
}

func TestReadDocsAndWriteWorkspace(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus.jsonl")
	require.NoError(t, os.WriteFile(corpus, []byte(`{"_id": "7", "title": "T", "text": "body"}`+"\n\n"+
		`{"_id": "8", "title": "U", "text": "more"}`+"\n"), 0o644))
	docs, err := ReadDocs(corpus)
	require.NoError(t, err)
	assert.Equal(t, []Doc{{ID: "7", Title: "T", Text: "body"}, {ID: "8", Title: "U", Text: "more"}}, docs)

	ws := t.TempDir()
	n, err := WriteWorkspace(ws, docs)
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(ws, "7.md"))
	require.NoError(t, err)
	assert.Equal(t, "# T\n\nbody\n", string(got))
	assert.Equal(t, int64(len("# T\n\nbody\n")+len("# U\n\nmore\n")), n)

	require.NoError(t, os.WriteFile(corpus, []byte("{not json\n"), 0o644))
	_, err = ReadDocs(corpus)
	assert.ErrorContains(t, err, "corpus.jsonl:1")
}

func TestLoadQrelsAndScanLines(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "qrels.tsv")
	require.NoError(t, os.WriteFile(p, []byte("query-id\tcorpus-id\tscore\n1\td1\t1\n\n  \n1 0 d2 2\n"), 0o644))
	q, err := LoadQrels(p)
	require.NoError(t, err)
	assert.Equal(t, Qrels{"1": {"d1": 1, "d2": 2}}, q)

	require.NoError(t, os.WriteFile(p, []byte("1\td1\t1\n\n1\td2\n"), 0o644))
	_, err = LoadQrels(p)
	assert.ErrorContains(t, err, "qrels.tsv:3: want 3 columns")

	require.NoError(t, os.WriteFile(p, []byte("a\n\nb\ntoo long line\n"), 0o644))
	f, err := os.Open(p)
	require.NoError(t, err)
	defer f.Close()
	var lines []int
	err = ScanLines(f, 8, func(line int, text []byte) error {
		lines = append(lines, line)
		return nil
	})
	assert.Equal(t, []int{1, 3}, lines)
	var le *LineError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, 4, le.Line)
	assert.ErrorContains(t, err, "line 4: bufio.Scanner: token too long")
}
