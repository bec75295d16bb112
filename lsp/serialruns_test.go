package lsp

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSerialRunsNeverOverlapAndEndAfterTheLastCall calls serialRuns.do for
// one key from many goroutines while its runs are slow: no two runs may
// overlap, and the last run must start after the last call (so what it
// publishes is computed from the newest state). A second key runs beside
// the first.
func TestSerialRunsNeverOverlapAndEndAfterTheLastCall(t *testing.T) {
	var r serialRuns
	var running, overlaps, runs atomic.Int32
	var lastStart, lastCall atomic.Int64
	var clock atomic.Int64
	fn := func() {
		if running.Add(1) > 1 {
			overlaps.Add(1)
		}
		lastStart.Store(clock.Add(1))
		runs.Add(1)
		time.Sleep(2 * time.Millisecond)
		running.Add(-1)
	}
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lastCall.Store(clock.Add(1))
			r.do("a.md", fn)
		}()
		time.Sleep(200 * time.Microsecond)
	}
	wg.Wait()
	if n := overlaps.Load(); n != 0 {
		t.Fatalf("%d runs overlapped another run of the same key", n)
	}
	if lastStart.Load() < lastCall.Load() {
		t.Fatalf("the last run started at %d, before the last call at %d", lastStart.Load(), lastCall.Load())
	}
	if runs.Load() == 0 {
		t.Fatal("no run")
	}

	// Another key is not held up by a run of the first.
	block := make(chan struct{})
	started := make(chan struct{})
	go r.do("a.md", func() { close(started); <-block })
	<-started
	done := make(chan struct{})
	go r.do("b.md", func() { close(done) })
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a run of b.md waited for a run of a.md")
	}
	close(block)
}
