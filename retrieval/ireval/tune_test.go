package ireval

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/retrieval/bm25"
)

// TestTuneBM25 grid-searches query-time BM25 parameters on the training
// queries (field frequencies are stored per field, so one index serves every
// setting). Run with MRPVM_TUNE=1.
func TestTuneBM25(t *testing.T) {
	if os.Getenv("MRPVM_TUNE") == "" {
		t.Skip("set MRPVM_TUNE=1 to tune")
	}
	ds, p := trainSet(t)
	db, err := OpenDB(filepath.Join(t.TempDir(), "tune.db"))
	require.NoError(t, err)
	defer db.Close()
	base := &BM25{X: bm25.New(bm25.DefaultParams()), Tag: "bm25"}
	_, err = Build(db, base, p)
	require.NoError(t, err)

	grid := os.Getenv("MRPVM_TUNE_GRID") // e.g. "k1=0.9,1.2;b=0.4,0.75;topic=1,1.5"
	axes := map[string][]float64{"k1": {1.2}, "b": {0.75}}
	for _, ax := range strings.Split(grid, ";") {
		name, vals, ok := strings.Cut(ax, "=")
		if !ok {
			continue
		}
		var vs []float64
		for _, v := range strings.Split(vals, ",") {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			vs = append(vs, f)
		}
		axes[name] = vs
	}
	names := make([]string, 0, len(axes))
	for n := range axes {
		names = append(names, n)
	}
	sort.Strings(names)
	type res struct {
		desc string
		m    Metrics
	}
	var results []res
	var rec func(i int, prm bm25.Params, desc string)
	rec = func(i int, prm bm25.Params, desc string) {
		if i == len(names) {
			m := &BM25{X: bm25.New(prm), Tag: "bm25"}
			run, _, err := Run(db, m, ds.Queries, 100)
			require.NoError(t, err)
			results = append(results, res{desc, Evaluate(run, ds.Qrels)})
			return
		}
		for _, v := range axes[names[i]] {
			q := prm
			switch names[i] {
			case "k1":
				q.K1 = v
			case "b":
				q.B = v
			default:
				f, ok := fieldByName[names[i]]
				require.True(t, ok, names[i])
				q.Weights[f] = v
			}
			rec(i+1, q, fmt.Sprintf("%s %s=%g", desc, names[i], v))
		}
	}
	rec(0, bm25.DefaultParams(), "")
	sort.Slice(results, func(i, j int) bool { return results[i].m.NDCG10 > results[j].m.NDCG10 })
	for i, r := range results {
		if i == 25 {
			break
		}
		t.Logf("%s | %s", r.m, r.desc)
	}
}

var fieldByName = map[string]bm25.Field{"title": bm25.FieldTitle, "topic": bm25.FieldTopic, "claim": bm25.FieldClaim,
	"procedure": bm25.FieldProcedure, "body": bm25.FieldBody, "role": bm25.FieldRole, "acts": bm25.FieldActs,
	"note": bm25.FieldNote, "condition": bm25.FieldCondition, "tags": bm25.FieldTags}
