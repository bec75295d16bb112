package ingest

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestGroupCommitFailureKeepsOtherSources ingests enough files for them to
// be committed in groups; one source's hook fails, so its group falls back
// to one transaction per source: every other source lands with its hook
// entry, the failing one leaves nothing behind.
func TestGroupCommitFailureKeepsOtherSources(t *testing.T) {
	var b strings.Builder
	const n = 3 * maxGroup
	for i := range n {
		fmt.Fprintf(&b, "-- f%03d.md --\n# File %d\n\nbody %d\n", i, i, i)
	}
	ws := writeWorkspace(t, b.String())
	hook := &recordingHook{id: "rec", failFor: "f077.md"}
	kb := openTestKB(t, ws, hook)
	rep := ingest(t, kb)
	assert.Equal(t, n-1, rep.Files)
	requireOneError(t, rep, CodeHookFailed)

	recs, err := kb.Store().Sources()
	require.NoError(t, err)
	assert.Len(t, recs, n-1)
	err = kb.Store().PluginStore("rec").View(func(kv plugin.KV) error {
		for _, r := range recs {
			assert.NotNil(t, kv.Get([]byte("src/"+r.SourceID)), "hook entry of %s", r.SourceID)
		}
		assert.Nil(t, kv.Get([]byte("src/f077.md")), "the failed source left no hook entry")
		return nil
	})
	require.NoError(t, err)
}

// preparingHook checks that every upserted source was prepared first.
type preparingHook struct {
	recordingHook
	prepared sync.Map
}

func (h *preparingHook) PrepareSource(sourceID string, doc *kus.Document) {
	h.prepared.Store(sourceID, len(doc.Units))
}

func (h *preparingHook) OnSource(ctx context.Context, ev *plugin.SourceText) error {
	if !ev.Removed && ev.Path != "" {
		if n, ok := h.prepared.Load(ev.SourceID); !ok || n != len(ev.Doc.Units) {
			return fmt.Errorf("%s was not prepared before its transaction", ev.SourceID)
		}
	}
	return h.recordingHook.OnSource(ctx, ev)
}

func TestSourcePreparerRunsBeforeTheTransaction(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "-- f%03d.md --\n# File %d\n\nbody %d\n", i, i, i)
	}
	hook := &preparingHook{recordingHook: recordingHook{id: "prep"}}
	kb := openTestKB(t, writeWorkspace(t, b.String()), hook)
	rep := ingest(t, kb)
	assert.Equal(t, 100, rep.Files)
	assert.Empty(t, rep.Errors)
}

func TestCompactKeepsContentAndStoreUsable(t *testing.T) {
	ws := writeWorkspace(t, basicWorkspace)
	hook := &recordingHook{id: "rec"}
	kb := openTestKB(t, ws, hook)
	ingest(t, kb)
	ps := kb.Store().PluginStore("rec") // handed out before the swap
	before := dump(t, kb.Store())
	require.NotEmpty(t, before)

	require.NoError(t, kb.Compact())
	assert.Equal(t, before, dump(t, kb.Store()), "same keys and values")
	_, err := os.Stat(kb.Store().Path() + ".compact")
	assert.ErrorIs(t, err, os.ErrNotExist, "no temporary file left")

	// The store and the namespaces handed out before keep working.
	require.NoError(t, ps.Update(func(kv plugin.KV) error { return kv.Put([]byte("k"), []byte("v")) }))
	require.NoError(t, ps.View(func(kv plugin.KV) error {
		assert.Equal(t, []byte("v"), kv.Get([]byte("k")))
		return nil
	}))
	bump(t, ws+"/README.md")
	require.NoError(t, os.WriteFile(ws+"/README.md", []byte("# Project\n\nChanged.\n"), 0o644))
	rep := ingest(t, kb)
	assert.Equal(t, 1, rep.Files)
	u, err := kb.Store().KU("README.md::source-summary")
	require.NoError(t, err)
	require.NotNil(t, u)
	assert.Contains(t, u.TextBody, "Changed.")

	kb = reopen(t, kb, hook)
	problems, err := kb.Store().Verify()
	require.NoError(t, err)
	assert.Empty(t, problems)
}

func TestIngestCompactOption(t *testing.T) {
	ws := writeWorkspace(t, basicWorkspace)
	kb := openTestKB(t, ws)
	rep, err := kb.Ingest(context.Background(), RunOptions{Compact: true})
	require.NoError(t, err)
	assert.Empty(t, rep.Errors)
	assert.Positive(t, rep.KUs)
	problems, err := kb.Store().Verify()
	require.NoError(t, err)
	assert.Empty(t, problems)
	n, units, err := kb.Store().Counts()
	require.NoError(t, err)
	assert.Equal(t, rep.KUs, units)
	assert.Positive(t, n)
}

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
