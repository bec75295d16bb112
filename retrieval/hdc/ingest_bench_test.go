package hdc

import (
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/analysis"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// benchWorkspace and parseDir read the workspace the benchmarks use.
var (
	benchWorkspace = kvtest.BenchWorkspace
	parseDir       = kvtest.ParseDir
)

// analyseLikeBM25 analyses the field texts of units as the BM25 side does
// just before the encoder runs at ingest (so analysis.Lookup hits).
func analyseLikeBM25(units []*kus.KU) {
	a := text.English()
	for _, u := range units {
		for _, s := range []string{u.Title, u.Topic, u.Claim, u.Procedure, u.TextBody} {
			if s != "" {
				analysis.Analyse(a, s)
			}
		}
	}
}

// BenchmarkIngestEncode encodes every source of the workspace as Prepare
// does at ingest, each right after its BM25 analysis (not timed).
func BenchmarkIngestEncode(b *testing.B) {
	docs := parseDir(b, benchWorkspace())
	e := DefaultParams().Encoder
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		const batch = 64
		for i := 0; i < len(docs); i += batch {
			part := docs[i:min(i+batch, len(docs))]
			b.StopTimer()
			for _, d := range part {
				analyseLikeBM25(d.Units)
			}
			b.StartTimer()
			t0 := cpuTime()
			for _, d := range part {
				e.record(d.Units)
			}
			cpu += cpuTime() - t0
		}
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far: unlike the
// wall clock, it does not count time the process waited for a busy CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEncodeTerms bundles the terms of a 150-term abstract (already
// analysed) with positions and pairs.
func BenchmarkEncodeTerms(b *testing.B) {
	s := "Alterations of the architecture of cerebral white matter in the developing human brain can affect cortical development and result in functional disabilities. A line scan diffusion-weighted magnetic resonance imaging (MRI) sequence with diffusion tensor analysis was applied to measure the apparent diffusion coefficient, to calculate relative anisotropy, and to delineate three-dimensional fiber architecture in cerebral white matter in preterm (n = 17) and full-term infants (n = 7). To assess effects of prematurity on cerebral white matter development, early gestation preterm infants (n = 10) were studied a second time at term. In the central white matter the mean apparent diffusion coefficient at 28 wk was high, 1.8 microm2/ms, and decreased toward term to 1.2 microm2/ms. In the posterior limb of the internal capsule, the mean apparent diffusion coefficients at both times were similar (1.2 versus 1.1 microm2/ms). Relative anisotropy was higher the closer birth was to term with greater absolute values in the internal capsule than in the central white matter."
	e := DefaultParams().Encoder
	terms := e.Terms(s)
	var bu Bundle
	t0 := cpuTime()
	for b.Loop() {
		e.Encode(terms, nil, &bu)
	}
	b.ReportMetric(float64((cpuTime()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(terms)), "terms")
}
