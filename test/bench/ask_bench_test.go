package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/ingest"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/retrieval/ireval"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

const scifact = "../../../shared/data/scifact/"

// sciFactWorkspace writes the corpus as one Markdown file per abstract, as
// the shared mkworkspace tool does.
func sciFactWorkspace(b *testing.B) string {
	if _, err := os.Stat(scifact + "corpus.jsonl"); err != nil {
		b.Skipf("SciFact corpus not available: %v", err)
	}
	docs, err := ireval.ReadDocs(scifact + "corpus.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if _, err := ireval.WriteWorkspace(dir, docs); err != nil {
		b.Fatal(err)
	}
	return dir
}

func trainingQueries(b *testing.B, n int) []string {
	f, err := os.Open(scifact + "queries-train.jsonl")
	if err != nil {
		b.Skipf("SciFact queries not available: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < n {
		var q struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			b.Fatal(err)
		}
		out = append(out, q.Text)
	}
	return out
}

// BenchmarkAskSciFact measures `ask` latency on the symbolic path over the
// SciFact knowledge base: 200 training questions in one process, reporting
// the median and p99 per question, and the bare kb retrieval stage's median
// as the baseline ratio.
func BenchmarkAskSciFact(b *testing.B) {
	ws := sciFactWorkspace(b)
	w, err := workspace.Open(workspace.Options{Root: ws, DBPath: filepath.Join(b.TempDir(), "kb.db"), NoWrappers: true, NoLLM: true})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if _, err := w.KB.Ingest(context.Background(), ingest.RunOptions{}); err != nil {
		b.Fatal(err)
	}
	qs := trainingQueries(b, 200)
	b.ResetTimer()
	var lat, kbLat []float64
	for i := 0; i < b.N; i++ {
		lat, kbLat = lat[:0], kbLat[:0]
		for _, q := range qs {
			start := time.Now()
			resp, err := w.VM.Ask(context.Background(), vm.Request{Question: q, SessionID: "bench", CreateSession: true})
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, float64(time.Since(start).Microseconds())/1000)
			for _, s := range resp.Trace.Outcome.Stages {
				if s.Stage == "kb" {
					kbLat = append(kbLat, float64(s.DurationMs))
					break
				}
			}
		}
	}
	b.StopTimer()
	sort.Float64s(lat)
	sort.Float64s(kbLat)
	b.ReportMetric(pct(lat, 50), "ms-p50")
	b.ReportMetric(pct(lat, 99), "ms-p99")
	if len(kbLat) > 0 {
		b.ReportMetric(pct(kbLat, 50), "kb-ms-p50")
	}
}

func pct(s []float64, p int) float64 {
	if len(s) == 0 {
		return 0
	}
	i := (len(s) - 1) * p / 100
	return s[i]
}
