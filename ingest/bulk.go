package ingest

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// bulkJobs is the number of sources from which an ingest counts as bulk
// (a cold ingest, a branch switch) and trades memory for less GC work.
const bulkJobs = 256

// Garbage collector settings of a bulk ingest. A cold ingest allocates
// many short-lived bytes per byte of Markdown (analysis, encoding, bbolt
// nodes), so a higher GOGC trades heap for less collector CPU, and the
// soft memory limit keeps that heap from growing with the workspace. Both
// are left alone when the user set GOGC or GOMEMLIMIT. The figures behind
// the values are in docs/performance.md (Ingest tuning).
const (
	bulkGCPercent   = 300
	bulkMemoryLimit = 256 << 20
)

// bulkGC applies the bulk ingest's GC settings and returns the function
// that restores the previous ones. The settings are process-wide (a
// language server answering queries while it ingests shares them), so
// concurrent bulk ingests of several knowledge bases apply them once and
// the last one to finish restores them.
func bulkGC() (restore func()) {
	bulk.Lock()
	defer bulk.Unlock()
	if bulk.active == 0 {
		bulk.percent, bulk.limit = -1, -1
		if os.Getenv("GOGC") == "" {
			bulk.percent = debug.SetGCPercent(bulkGCPercent)
		}
		if os.Getenv("GOMEMLIMIT") == "" && debug.SetMemoryLimit(-1) == math.MaxInt64 {
			bulk.limit = debug.SetMemoryLimit(bulkMemoryLimit)
		}
	}
	bulk.active++
	return func() {
		bulk.Lock()
		defer bulk.Unlock()
		if bulk.active--; bulk.active > 0 {
			return
		}
		if bulk.percent != -1 {
			debug.SetGCPercent(bulk.percent)
		}
		if bulk.limit != -1 {
			debug.SetMemoryLimit(bulk.limit)
		}
	}
}

// bulk is the state bulkGC restores.
var bulk struct {
	sync.Mutex
	active  int
	percent int   // GC percent before, -1: not changed
	limit   int64 // memory limit before, -1: not changed
}
