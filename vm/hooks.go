package vm

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/plugin"
)

// Session hook codes recorded in the trace.
const (
	CodeHookTimeout  = "HOOK_TIMEOUT"
	CodeHookDisabled = "HOOK_DISABLED"
	CodeHookFailed   = "HOOK_FAILED"
)

// maxHookStrikes consecutive timeouts disable a plugin's session hook for
// the rest of the request.
const maxHookStrikes = 3

// hookLimiter tracks session-event hook calls over one request (or one
// knowledge base command): consecutive timeouts per plugin, the plugins
// disabled for the rest of it, and what went wrong, for the trace.
type hookLimiter struct {
	mu       sync.Mutex
	strikes  map[string]int
	disabled map[string]bool
	issues   []StageError
}

func newHookLimiter() *hookLimiter {
	return &hookLimiter{strikes: map[string]int{}, disabled: map[string]bool{}}
}

type hookLimiterKey struct{}

// withHookLimiter makes the session events sent under ctx share lim.
func withHookLimiter(ctx context.Context, lim *hookLimiter) context.Context {
	return context.WithValue(ctx, hookLimiterKey{}, lim)
}

func hookLimiterOf(ctx context.Context) *hookLimiter {
	if lim, ok := ctx.Value(hookLimiterKey{}).(*hookLimiter); ok {
		return lim
	}
	return newHookLimiter()
}

func (l *hookLimiter) add(code, format string, args ...any) {
	l.issues = append(l.issues, StageError{Stage: -1, Code: code, Message: fmt.Sprintf(format, args...)})
}

// drain returns the issues recorded so far and forgets them.
func (l *hookLimiter) drain() []StageError {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.issues
	l.issues = nil
	return out
}

// hookTimeout is engine.json's hookTimeoutMs (10 s when unset).
func (m *Machine) hookTimeout() time.Duration {
	if d := config.Duration(m.eng.HookTimeoutMs); d > 0 {
		return d
	}
	return 10 * time.Second
}

// callSessionHook makes one OnSessionEvent call bounded by the hook
// timeout: past it the call is abandoned (it may finish in its goroutine;
// its result is ignored) and counted; the third timeout in a row disables
// the plugin's hook for the rest of the request.
func (m *Machine) callSessionHook(ctx context.Context, lim *hookLimiter, id string, p plugin.KBPlugin, ev *plugin.SessionEvent) {
	lim.mu.Lock()
	off := lim.disabled[id]
	lim.mu.Unlock()
	if off {
		return
	}
	timeout := m.hookTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rc := plugin.RunContext{Session: plugin.Session{ID: ev.SessionID, KBID: ev.KBID, KBName: ev.KBName}, Logger: m.log}
	rc.Budgets.Deadline, _ = cctx.Deadline()
	type result struct {
		res *plugin.SessionEventResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("panic: %v", r)}
			}
		}()
		res, err := p.OnSessionEvent(cctx, rc, ev)
		done <- result{res, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-cctx.Done():
		r.err = cctx.Err()
	}
	lim.mu.Lock()
	defer lim.mu.Unlock()
	if r.err != nil && cctx.Err() != nil && ctx.Err() == nil {
		lim.strikes[id]++
		m.log.Warn("session event timed out", "plugin", id, "event", ev.EventType, "timeout", timeout)
		lim.add(CodeHookTimeout, "%s: onSessionEvent %s did not finish within %s; abandoned", id, ev.EventType, timeout)
		if lim.strikes[id] >= maxHookStrikes {
			lim.disabled[id] = true
			lim.add(CodeHookDisabled, "%s: onSessionEvent timed out %d times in a row; not called again in this request", id, maxHookStrikes)
		}
		return
	}
	lim.strikes[id] = 0
	switch {
	case r.err != nil:
		m.log.Warn("session event failed", "plugin", id, "event", ev.EventType, "err", r.err)
		lim.add(CodeHookFailed, "%s: onSessionEvent %s: %v", id, ev.EventType, r.err)
	case r.res != nil && r.res.Status == plugin.StatusError && r.res.Error != nil:
		m.log.Warn("session event failed", "plugin", id, "event", ev.EventType, "code", r.res.Error.Code, "msg", r.res.Error.Message)
		lim.add(CodeHookFailed, "%s: onSessionEvent %s: %s: %s", id, ev.EventType, r.res.Error.Code, r.res.Error.Message)
	}
}
