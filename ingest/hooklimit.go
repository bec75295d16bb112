package ingest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
)

// Hook limit codes in the ingest report.
const (
	// CodeHookTimeout fails one source: a hook did not finish within the
	// hook timeout, so it was abandoned and the source's transaction
	// rolled back (the source is retried on the next ingest).
	CodeHookTimeout = "hook_timeout"
	// CodeHookDisabled is a warning: a hook timed out maxHookStrikes times
	// in a row and was not called again in this run; its index is rebuilt
	// on the next ingest.
	CodeHookDisabled = "hook_disabled"
)

// maxHookStrikes is how many consecutive timeouts disable a hook for the
// rest of a run.
const maxHookStrikes = 3

// errHookTimeout marks a hook call abandoned at the hook timeout.
var errHookTimeout = errors.New("hook timed out")

// hookRun tracks the hooks' timeouts over one ingest run (or one index
// rebuild): consecutive timeouts per hook and the hooks disabled for the
// rest of the run.
type hookRun struct {
	timeout  time.Duration
	mu       sync.Mutex
	strikes  map[string]int
	disabled map[string]bool
	issues   []FileError
}

func newHookRun(timeout time.Duration) *hookRun {
	return &hookRun{timeout: timeout, strikes: map[string]int{}, disabled: map[string]bool{}}
}

func (hr *hookRun) isDisabled(id string) bool {
	hr.mu.Lock()
	defer hr.mu.Unlock()
	return hr.disabled[id]
}

func (hr *hookRun) succeeded(id string) {
	hr.mu.Lock()
	defer hr.mu.Unlock()
	hr.strikes[id] = 0
}

// timedOut counts a timeout and disables the hook at the third in a row.
func (hr *hookRun) timedOut(id, sourceID string) {
	hr.mu.Lock()
	defer hr.mu.Unlock()
	hr.strikes[id]++
	if hr.strikes[id] >= maxHookStrikes && !hr.disabled[id] {
		hr.disabled[id] = true
		hr.issues = append(hr.issues, FileError{Path: "plugin " + id, Code: CodeHookDisabled, Warning: true,
			Message: fmt.Sprintf("the %s index hook timed out %d times in a row (last on %s, limit %s per MiB); it is not called again in this run and its index is rebuilt on the next ingest",
				id, maxHookStrikes, sourceID, hr.timeout)})
	}
}

// disabledIDs lists the hooks disabled in this run.
func (hr *hookRun) disabledIDs() []string {
	hr.mu.Lock()
	defer hr.mu.Unlock()
	var out []string
	for id := range hr.disabled {
		out = append(out, id)
	}
	return out
}

// beginHookRun starts a fresh timeout record; the caller holds ingestMu.
func (kb *KB) beginHookRun() *hookRun {
	kb.hooksRun = newHookRun(kb.hookTimeout)
	return kb.hooksRun
}

// endHookRun reports the run's hook issues and marks every disabled hook's
// index stale, so the next ingest rebuilds it from the stored KUs.
func (kb *KB) endHookRun(hr *hookRun, rep *Report) {
	ids := hr.disabledIDs()
	if len(ids) > 0 {
		_ = kb.store.Update(func(tx *store.Tx) error {
			for _, id := range ids {
				if err := tx.ForgetHookVersion(id); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if rep != nil {
		hr.mu.Lock()
		rep.Errors = append(rep.Errors, hr.issues...)
		hr.mu.Unlock()
	}
}

// callHook runs one hook call isolated from the transaction it serves:
// a panic becomes an error, and past the hook timeout the call is
// abandoned. An abandoned hook keeps running in its goroutine, but its
// store handles are closed first, so the transaction can end at once and
// the hook can no longer touch it.
func (kb *KB) callHook(ctx context.Context, h SourceHook, ev *plugin.SourceText) error {
	hr := kb.hooksRun
	if hr == nil || hr.timeout <= 0 {
		return kb.callHookDirect(ctx, h, ev)
	}
	id := h.HookID()
	g := &txGuard{}
	gev := *ev
	if ev.KV != nil {
		gev.KV = guardedKV{g: g, kv: ev.KV}
	}
	if ev.KUs != nil {
		gev.KUs = guardedKUs{g: g, r: ev.KUs}
	}
	timeout := hookTimeoutFor(hr.timeout, len(ev.Text))
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- kb.callHookDirect(cctx, h, &gev) }()
	select {
	case err := <-done:
		if err == nil || !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			hr.succeeded(id)
			return err
		}
		// The hook honoured its deadline and gave up: a timeout all the same.
	case <-cctx.Done():
		g.close()
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	g.close()
	hr.timedOut(id, ev.SourceID)
	return fmt.Errorf("%w after %s on %s", errHookTimeout, timeout, ev.SourceID)
}

// callHookDirect isolates a hook's panic into an error: a panic raised by
// bbolt is the damaged knowledge base file, any other the hook's own
// (store.Store.PanicError).
func (kb *KB) callHookDirect(ctx context.Context, h SourceHook, ev *plugin.SourceText) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = kb.store.PanicError(h.HookID(), r)
		}
	}()
	return h.OnSource(ctx, ev)
}

// hookTimeoutFor is the bound of one hook call on a source of size bytes:
// the configured timeout for each started MiB, since indexing a source is
// linear in its size and a large file is not a hung hook.
func hookTimeoutFor(perMiB time.Duration, size int) time.Duration {
	return perMiB * time.Duration(1+size/(1<<20))
}

// errTxClosed is what an abandoned hook's store handles return.
var errTxClosed = errors.New("the hook was abandoned at its timeout; its transaction is closed")

// txGuard serialises a hook's store accesses with the moment it is
// abandoned: after close returns, no access is in flight and none starts.
type txGuard struct {
	mu     sync.Mutex
	closed bool
}

func (g *txGuard) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// guardedKV is plugin.KV through a txGuard. Values are copied, because the
// transaction's memory may be unmapped once the hook is abandoned.
type guardedKV struct {
	g  *txGuard
	kv plugin.KV
}

func (k guardedKV) Get(key []byte) []byte {
	k.g.mu.Lock()
	defer k.g.mu.Unlock()
	if k.g.closed {
		return nil
	}
	v := k.kv.Get(key)
	if v == nil {
		return nil
	}
	return append([]byte(nil), v...)
}

func (k guardedKV) Put(key, value []byte) error {
	k.g.mu.Lock()
	defer k.g.mu.Unlock()
	if k.g.closed {
		return errTxClosed
	}
	return k.kv.Put(key, value)
}

func (k guardedKV) Delete(key []byte) error {
	k.g.mu.Lock()
	defer k.g.mu.Unlock()
	if k.g.closed {
		return errTxClosed
	}
	return k.kv.Delete(key)
}

func (k guardedKV) Writable() bool { return k.kv.Writable() }

// Scan copies each key and value under the guard and calls fn outside
// it, so a slow callback never delays the abandonment.
func (k guardedKV) Scan(prefix, start []byte, fn func(key, value []byte) error) error {
	const batch = 256
	type kvp struct{ k, v []byte }
	next := start
	skipFirst := false
	for {
		var items []kvp
		k.g.mu.Lock()
		if k.g.closed {
			k.g.mu.Unlock()
			return errTxClosed
		}
		err := k.kv.Scan(prefix, next, func(key, value []byte) error {
			if skipFirst && len(items) == 0 && string(key) == string(next) {
				return nil
			}
			items = append(items, kvp{append([]byte(nil), key...), append([]byte(nil), value...)})
			if len(items) >= batch {
				return plugin.ErrStopScan
			}
			return nil
		})
		k.g.mu.Unlock()
		if err != nil {
			return err
		}
		for _, it := range items {
			if err := fn(it.k, it.v); err != nil {
				if errors.Is(err, plugin.ErrStopScan) {
					return nil
				}
				return err
			}
		}
		if len(items) < batch {
			return nil
		}
		next, skipFirst = items[len(items)-1].k, true
	}
}

// Shared guards the shared namespace the built-in kb-plugins write.
func (k guardedKV) Shared(name string) (plugin.KV, error) {
	s, ok := k.kv.(interface {
		Shared(name string) (plugin.KV, error)
	})
	if !ok {
		return nil, errors.New("shared namespaces are not available here")
	}
	k.g.mu.Lock()
	defer k.g.mu.Unlock()
	if k.g.closed {
		return nil, errTxClosed
	}
	kv, err := s.Shared(name)
	if err != nil {
		return nil, err
	}
	return guardedKV{g: k.g, kv: kv}, nil
}

// guardedKUs is an plugin.KUReader through a txGuard.
type guardedKUs struct {
	g *txGuard
	r plugin.KUReader
}

func (r guardedKUs) KU(id string) (*kus.KU, error) {
	r.g.mu.Lock()
	defer r.g.mu.Unlock()
	if r.g.closed {
		return nil, errTxClosed
	}
	return r.r.KU(id)
}
