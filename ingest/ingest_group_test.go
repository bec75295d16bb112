package ingest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk"
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
	require.Len(t, rep.Errors, 1)
	assert.Equal(t, CodeHookFailed, rep.Errors[0].Code)

	recs, err := kb.Store().Sources()
	require.NoError(t, err)
	assert.Len(t, recs, n-1)
	err = kb.Store().PluginStore("rec").View(func(kv sdk.KV) error {
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

func (h *preparingHook) OnSource(ctx context.Context, ev *sdk.SourceText) error {
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
