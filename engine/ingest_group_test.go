package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
