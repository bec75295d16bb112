package ingest

import (
	"math"
	"runtime/debug"
	"testing"
)

// gcSettings reads the GC percent and the memory limit without changing them.
func gcSettings() (int, int64) {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p, debug.SetMemoryLimit(-1)
}

func TestBulkGCAppliesAndRestores(t *testing.T) {
	tests := []struct {
		name       string
		gogc, lim  string
		wantPct    int
		wantLimit  int64
		startLimit int64
	}{
		{name: "defaults", wantPct: bulkGCPercent, wantLimit: bulkMemoryLimit, startLimit: math.MaxInt64},
		{name: "user GOGC", gogc: "50", wantPct: 100, wantLimit: bulkMemoryLimit, startLimit: math.MaxInt64},
		{name: "user GOMEMLIMIT", lim: "1GiB", wantPct: bulkGCPercent, wantLimit: 1 << 30, startLimit: 1 << 30},
		{name: "limit set in code", wantPct: bulkGCPercent, wantLimit: 2 << 30, startLimit: 2 << 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", tc.lim)
			oldPct := debug.SetGCPercent(100)
			oldLim := debug.SetMemoryLimit(tc.startLimit)
			defer func() { debug.SetGCPercent(oldPct); debug.SetMemoryLimit(oldLim) }()

			restore := bulkGC()
			inner := bulkGC() // a second bulk ingest at the same time
			if p, l := gcSettings(); p != tc.wantPct || l != tc.wantLimit {
				t.Fatalf("during: GC percent %d, limit %d; want %d, %d", p, l, tc.wantPct, tc.wantLimit)
			}
			inner()
			if p, l := gcSettings(); p != tc.wantPct || l != tc.wantLimit {
				t.Fatalf("after the inner one: GC percent %d, limit %d; want them kept", p, l)
			}
			restore()
			if p, l := gcSettings(); p != 100 || l != tc.startLimit {
				t.Fatalf("after: GC percent %d, limit %d; want 100, %d", p, l, tc.startLimit)
			}
		})
	}
}
