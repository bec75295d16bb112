package thinkingdb

import (
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// benchWorkspace and parseDir read the workspace the benchmarks use.
var (
	benchWorkspace = kvtest.BenchWorkspace
	parseDir       = kvtest.ParseDir
)

// BenchmarkIngestFacts extracts the facts of every source of the workspace
// as Prepare does at ingest.
func BenchmarkIngestFacts(b *testing.B) {
	docs := parseDir(b, benchWorkspace())
	x := New(DefaultParams())
	b.ReportAllocs()
	t0 := cpuTime()
	for b.Loop() {
		for _, d := range docs {
			x.SourceFacts(d.Source.SourceID, d.Units)
		}
	}
	b.ReportMetric(float64((cpuTime()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far: unlike the
// wall clock, it does not count time the process waited for a busy CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
