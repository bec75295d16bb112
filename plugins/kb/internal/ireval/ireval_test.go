package ireval

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugins/kb/internal/bm25"
	"github.com/mrpvm/mrpvm/plugins/kb/internal/hdc"
	"github.com/mrpvm/mrpvm/plugins/kb/internal/thinkingdb"
)

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
// evaluates it on the SciFact training queries. It runs only with
// MRPVM_IREVAL=1 (it takes a while) and when the data is present.
func TestSciFact(t *testing.T) {
	if os.Getenv("MRPVM_IREVAL") == "" || testing.Short() {
		t.Skip("set MRPVM_IREVAL=1 to run the SciFact evaluation")
	}
	dir := DefaultDir()
	if dir == "" {
		t.Skip("SciFact data not found (set MRPVM_SCIFACT)")
	}
	ds, err := Load(dir, "train")
	require.NoError(t, err)
	p, err := Prepare(ds)
	require.NoError(t, err)
	t.Logf("corpus: %d docs, %.1f MB Markdown, parse %v; %d train queries", len(ds.Docs), float64(p.Bytes)/1e6, p.Parse, len(ds.Queries))

	db, err := OpenDB(filepath.Join(t.TempDir(), "eval.db"))
	require.NoError(t, err)
	defer db.Close()

	for _, m := range Methods() {
		took, err := Build(db, m, p)
		require.NoError(t, err)
		size, _ := db.Size()
		run, lat, err := Run(db, m, ds.Queries, 100)
		require.NoError(t, err)
		met := Evaluate(run, ds.Qrels)
		t.Logf("%-14s %s | index %v (%.1f MB/s, db %.1f MB) | query p50 %v p95 %v", m.Name(), met, took.Round(time.Millisecond),
			float64(p.Bytes)/1e6/took.Seconds(), float64(size)/1e6, Percentile(lat, 50), Percentile(lat, 95))
	}
}

// Methods returns the methods evaluated by TestSciFact.
func Methods() []Method {
	return []Method{
		&BM25{X: bm25.New(bm25.DefaultParams()), Tag: "kb-fast"},
		&Balanced{B: bm25.New(bm25.DefaultParams()), H: hdc.New(hdc.DefaultParams()), Tag: "kb-balanced"},
		&ThinkingDB{B: bm25.New(bm25.DefaultParams()), T: thinkingdb.New(thinkingdb.DefaultParams()), Tag: "kb-thinkingdb"},
	}
}

var _ = fmt.Sprint
