package kb_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrpvm/mrpvm/engine"
	"github.com/mrpvm/mrpvm/engine/vm"
	_ "github.com/mrpvm/mrpvm/plugins/all"
)

// BenchmarkColdIngestAll measures a cold ingest of the workspace named by
// MRPVM_BENCH_WS (e.g. the SciFact workspace of test/bench/bleve) with every
// built-in kb-plugin attached, as `mrpvm ingest` runs it. Profile with
//
//	MRPVM_BENCH_WS=/tmp/i4/ws1 go test ./plugins/kb/ -run '^$' -bench ColdIngestAll -benchtime 1x -cpuprofile cpu.prof
func BenchmarkColdIngestAll(b *testing.B) {
	ws := os.Getenv("MRPVM_BENCH_WS")
	if ws == "" {
		b.Skip("set MRPVM_BENCH_WS to a workspace folder")
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		db := filepath.Join(b.TempDir(), "kb.db")
		w, err := vm.Open(vm.OpenOptions{Workspace: ws, DBPath: db, UserDir: "-", NoWrappers: true, NoLLM: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep, err := w.KB.Ingest(context.Background(), engine.IngestOptions{})
		if err != nil || rep.Failed() {
			b.Fatal(err, rep)
		}
		b.StopTimer()
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
