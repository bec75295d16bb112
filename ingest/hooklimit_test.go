package ingest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin"
)

// stuckHook blocks on the sources named in stuck, ignoring its context the
// way a careless third-party plugin would, until release is closed; then
// it tries to write through the handles it was given and records what
// happened.
type stuckHook struct {
	id      string
	stuck   map[string]bool
	release chan struct{}
	mu      sync.Mutex
	calls   []string
	late    []error // results of writes made after being abandoned
}

func (h *stuckHook) HookID() string { return h.id }

func (h *stuckHook) OnSource(_ context.Context, ev *plugin.SourceText) error {
	h.mu.Lock()
	h.calls = append(h.calls, ev.SourceID)
	stuck := h.stuck[ev.SourceID]
	h.mu.Unlock()
	if stuck {
		<-h.release
		err := ev.KV.Put([]byte("late/"+ev.SourceID), []byte("x"))
		h.mu.Lock()
		h.late = append(h.late, err)
		h.mu.Unlock()
		return err
	}
	return ev.KV.Put([]byte("src/"+ev.SourceID), []byte("ok"))
}

func issueCodes(rep *Report) map[string]int {
	out := map[string]int{}
	for _, e := range rep.Errors {
		out[e.Code]++
	}
	return out
}

// TestHookTimeoutAbandonsAndDisables: a hook that overruns the hook
// timeout is abandoned (the source fails with hook_timeout, its
// transaction ends while the hook is still blocked), three timeouts in a
// row disable it for the rest of the run, the other hooks keep indexing
// every source, and the next run rebuilds the disabled hook's index.
func TestHookTimeoutAbandonsAndDisables(t *testing.T) {
	ws := writeWorkspace(t, `
-- a.md --
# A

Alpha one.
-- b.md --
# B

Beta two.
-- c.md --
# C

Gamma three.
-- d.md --
# D

Delta four.
-- e.md --
# E

Epsilon five.
`)
	all := []string{"a.md", "b.md", "c.md", "d.md", "e.md"}
	stuck := map[string]bool{}
	for _, s := range all {
		stuck[s] = true
	}
	slow := &stuckHook{id: "slow", stuck: stuck, release: make(chan struct{})}
	rec := &recordingHook{id: "rec"}
	kb := openKB(t, Options{Workspace: ws, Hooks: []SourceHook{slow, rec}, HookTimeout: 100 * time.Millisecond})

	done := make(chan *Report, 1)
	go func() {
		rep, err := kb.Ingest(context.Background(), RunOptions{})
		assert.NoError(t, err)
		done <- rep
	}()
	var rep *Report
	select {
	case rep = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ingest hung on a hook that ignores its context")
	}
	c := issueCodes(rep)
	// Three abandoned calls in a row disable the hook; a failed group
	// commit counts one of them without failing a file of its own.
	timedOut := c[CodeHookTimeout]
	assert.True(t, timedOut == 2 || timedOut == 3, "sources failed on a timeout: %+v", rep.Errors)
	assert.Equal(t, 1, c[CodeHookDisabled], "%+v", rep.Errors)
	assert.Equal(t, 5-timedOut, rep.Files, "the rest are committed without the disabled hook")
	for _, e := range rep.Errors {
		if e.Code == CodeHookDisabled {
			assert.True(t, e.Warning)
			assert.Contains(t, e.Message, "slow")
		}
	}
	assert.Len(t, rec.take(), 5-timedOut, "the healthy hook indexed every committed source")
	// The store is free while the abandoned hook is still blocked.
	require.NoError(t, kb.Store().PluginStore("probe").Update(func(kv plugin.KV) error { return kv.Put([]byte("k"), []byte("v")) }))

	// Released, the abandoned calls find their transaction closed.
	close(slow.release)
	require.Eventually(t, func() bool {
		slow.mu.Lock()
		defer slow.mu.Unlock()
		return len(slow.late) >= 3
	}, 10*time.Second, 10*time.Millisecond)
	slow.mu.Lock()
	for _, err := range slow.late {
		assert.True(t, errors.Is(err, errTxClosed), "late write: %v", err)
	}
	slow.stuck, slow.calls = nil, nil
	slow.mu.Unlock()

	// Next run: the hook is healthy again; its index is rebuilt from the
	// stored sources and the failed sources are ingested.
	rep, err := kb.Ingest(context.Background(), RunOptions{})
	require.NoError(t, err)
	assert.Empty(t, issueCodes(rep)[CodeHookTimeout])
	assert.Equal(t, timedOut, rep.Files)
	slow.mu.Lock()
	assert.Subset(t, slow.calls, all)
	slow.mu.Unlock()
	var indexed []string
	require.NoError(t, kb.Store().PluginStore("slow").View(func(kv plugin.KV) error {
		return kv.Scan([]byte("src/"), nil, func(k, _ []byte) error {
			indexed = append(indexed, strings.TrimPrefix(string(k), "src/"))
			return nil
		})
	}))
	assert.Equal(t, all, indexed)
}

// TestGuardedScanPagesThroughManyKeys checks the guarded Scan against the
// plain one over more keys than one batch.
func TestGuardedScanPagesThroughManyKeys(t *testing.T) {
	kb := openTestKB(t, t.TempDir())
	st := kb.Store().PluginStore("p")
	require.NoError(t, st.Update(func(kv plugin.KV) error {
		for i := 0; i < 700; i++ {
			if err := kv.Put([]byte("k/"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strconv.Itoa(i)), []byte(strconv.Itoa(i))); err != nil {
				return err
			}
		}
		return kv.Put([]byte("other"), []byte("no"))
	}))
	require.NoError(t, st.View(func(kv plugin.KV) error {
		var plain, guarded []string
		require.NoError(t, kv.Scan([]byte("k/"), []byte("k/c"), func(k, v []byte) error { plain = append(plain, string(k)+"="+string(v)); return nil }))
		g := guardedKV{g: &txGuard{}, kv: kv}
		require.NoError(t, g.Scan([]byte("k/"), []byte("k/c"), func(k, v []byte) error { guarded = append(guarded, string(k)+"="+string(v)); return nil }))
		assert.Greater(t, len(plain), 256)
		assert.Equal(t, plain, guarded)
		return nil
	}))
}
