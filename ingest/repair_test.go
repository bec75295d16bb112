package ingest

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
)

// corruptIndexHook indexes every source until told its index is beyond
// repair: from then on every source it is given reports index_corrupt, as
// a damaged page that clearing the index no longer reaches makes a
// kb-plugin do.
type corruptIndexHook struct {
	recordingHook
	broken bool
}

func (h *corruptIndexHook) OnSource(ctx context.Context, ev *plugin.SourceText) error {
	if h.broken {
		return plugin.Errorf(plugin.CodeIndexCorrupt, "bm25: corrupt index: source record")
	}
	return h.recordingHook.OnSource(ctx, ev)
}

// TestRepairThatStillFindsTheIndexCorruptIsKBCorrupt: rebuilding a
// plugin's index starts it over from the stored KUs; when the rebuild
// itself still meets a corrupt index, the damage lies beyond the plugin's
// reach and the repair reports kb_corrupt (with its rebuild hint), not
// index_corrupt again.
func TestRepairThatStillFindsTheIndexCorruptIsKBCorrupt(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nSome text.\n")
	hook := &corruptIndexHook{recordingHook: recordingHook{id: "idx"}}
	kb := openKB(t, Options{Workspace: ws, Hooks: []SourceHook{hook}})
	_, err := kb.Ingest(context.Background(), RunOptions{})
	require.NoError(t, err)
	hook.broken = true
	err = kb.RepairHook(context.Background(), "idx")
	require.Error(t, err)
	require.True(t, errors.Is(err, store.ErrCorrupt), "repair: %v, want kb_corrupt", err)
	require.Contains(t, err.Error(), "mrpvm ingest --rebuild")
}
